// Command yaml-template reads a Pulumi.yaml on stdin and loads it with Pulumi YAML's own template loader
// (pulumiyaml.LoadYAMLBytes, what pulumi-language-yaml runs), then prints as JSON its diagnostics and every
// resource property and output: a plain string's value, or an interpolation's parts. The tests of
// `cdn-zones import --language yaml` read a generated program back with it (tests/cli/program-parsers.host.test.ts).
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/pulumi/pulumi-yaml/pkg/pulumiyaml"
	"github.com/pulumi/pulumi-yaml/pkg/pulumiyaml/ast"
)

type part struct {
	Text   string `json:"text"`
	Access string `json:"access,omitempty"`
}

// value is a property's expression: String for a plain string, Parts for an interpolation, Other for anything else.
type value struct {
	String *string `json:"string,omitempty"`
	Parts  []part  `json:"parts,omitempty"`
	Other  string  `json:"other,omitempty"`
}

type resource struct {
	Name       string           `json:"name"`
	Type       string           `json:"type"`
	Properties map[string]value `json:"properties"`
}

type result struct {
	Errors    []string         `json:"errors"`
	Resources []resource       `json:"resources"`
	Outputs   map[string]value `json:"outputs"`
}

func describe(e ast.Expr) value {
	switch x := e.(type) {
	case *ast.StringExpr:
		return value{String: &x.Value}
	case *ast.InterpolateExpr:
		parts := []part{}
		for _, p := range x.Parts {
			q := part{Text: p.Text}
			if p.Value != nil {
				q.Access = p.Value.String()
			}
			parts = append(parts, q)
		}
		return value{Parts: parts}
	case *ast.ObjectExpr:
		return value{Other: "object"}
	}
	return value{Other: fmt.Sprintf("%T", e)}
}

func main() {
	src, err := io.ReadAll(os.Stdin)
	if err != nil {
		panic(err)
	}
	out := result{Errors: []string{}, Resources: []resource{}, Outputs: map[string]value{}}
	t, diags, err := pulumiyaml.LoadYAMLBytes("Pulumi.yaml", src)
	if err != nil {
		out.Errors = append(out.Errors, err.Error())
	}
	for _, d := range diags {
		out.Errors = append(out.Errors, d.Error())
	}
	if t != nil {
		for _, r := range t.Resources.Entries {
			props := map[string]value{}
			if r.Value.Properties.PropertyMap != nil {
				for _, p := range r.Value.Properties.PropertyMap.Entries {
					props[p.Key.Value] = describe(p.Value)
				}
			}
			out.Resources = append(out.Resources, resource{Name: r.Key.Value, Type: r.Value.Type.Value, Properties: props})
		}
		for _, o := range t.Outputs.Entries {
			out.Outputs[o.Key.Value] = describe(o.Value)
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
