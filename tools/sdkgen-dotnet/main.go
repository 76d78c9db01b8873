// Command sdkgen-dotnet writes the provider plugin's C# SDK from its schema with Pulumi's C# code generator,
// pkg/v3/codegen/dotnet at v3.228.0: the last release of pkg/v3 that has it (it moved to a module of
// pulumi-dotnet that the Go module proxy does not serve). Usage: sdkgen-dotnet <schema.json> <out dir>
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func main() {
	if len(os.Args) != 3 {
		fail(fmt.Errorf("usage: sdkgen-dotnet <schema.json> <out dir>"))
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
	// The generator downloads the package's logo (pkg.LogoURL, else Pulumi's on GitHub, unreachable here):
	// it is given a plain 64x64 image of our own, served on this machine for the run.
	logo := serveLogo()
	defer logo.Close()
	pkg.LogoURL = logo.URL + "/logo.png"
	files, err := dotnet.GeneratePackage("pulumi-cdn-zones sdkgen-dotnet", pkg, nil, nil)
	fail(err)
	for name, data := range files {
		path := filepath.Join(os.Args[2], name)
		fail(os.MkdirAll(filepath.Dir(path), 0o755))
		fail(os.WriteFile(path, data, 0o644))
	}
}

func serveLogo() *httptest.Server {
	var png64 bytes.Buffer
	fail(png.Encode(&png64, image.NewGray(image.Rect(0, 0, 64, 64))))
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(png64.Bytes())
	}))
}

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkgen-dotnet:", err)
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
