// Command sdkgen writes the provider plugin's SDKs from its schema with Pulumi's own code generators
// (github.com/pulumi/pulumi/pkg/v3/codegen), as `pulumi package gen-sdk` would if the language hosts that
// it asks were served here (they are not: scripts/generate-sdks.js says why). Usage:
//
//	sdkgen <schema.json> <out dir> <language>...   (python, nodejs, go)
//
// Each language's files go to <out dir>/<language>/. C#'s generator left pkg/v3 in v3.229.0: it runs from
// tools/sdkgen-dotnet, a module pinned to v3.228.0.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	"github.com/blang/semver"
)

const tool = "pulumi-cdn-zones sdkgen"

func main() {
	if len(os.Args) < 4 {
		fail(fmt.Errorf("usage: sdkgen <schema.json> <out dir> <language>..."))
	}
	text, err := os.ReadFile(os.Args[1])
	fail(err)
	var spec schema.PackageSpec
	fail(json.Unmarshal(text, &spec))
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	fail(err)
	if diags.HasErrors() {
		fail(diags)
	}
	for _, lang := range os.Args[3:] {
		var files map[string][]byte
		switch lang {
		case "python":
			files, err = python.GeneratePackage(tool, pkg, nil, noPackages{})
		case "nodejs":
			files, err = nodejs.GeneratePackage(tool, pkg, nil, nil, false, noPackages{})
		case "go":
			files, err = gogen.GeneratePackage(tool, pkg, nil)
		default:
			err = fmt.Errorf("unknown language %q (python, nodejs, go)", lang)
		}
		fail(err)
		for name, data := range files {
			path := filepath.Join(os.Args[2], lang, name)
			fail(os.MkdirAll(filepath.Dir(path), 0o755))
			fail(os.WriteFile(path, data, 0o644))
		}
	}
}

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkgen:", err)
		os.Exit(1)
	}
}

// noPackages loads no other package: the schema refers to none but Pulumi's built-in types.
type noPackages struct{}

func (noPackages) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the cdn schema refers to no other package (asked for %q)", name)
}

func (n noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return n.LoadPackage(d.Name, nil)
}

func (n noPackages) LoadPackageReference(name string, v *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the cdn schema refers to no other package (asked for %q)", name)
}

func (n noPackages) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return n.LoadPackageReference(d.Name, nil)
}
