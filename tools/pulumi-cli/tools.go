//go:build tools

// Package tools pins the Pulumi CLI that the tests, examples and benchmarks run: scripts/pulumi-cli.js
// builds github.com/pulumi/pulumi/pkg/v3/cmd/pulumi from this module with `go build`, because the CLI's
// own go.mod has replace directives that `go install pkg@version` refuses. The import keeps `go mod tidy`
// from dropping the requirement.
package tools

import (
	_ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
)
