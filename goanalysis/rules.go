package goanalysis

import "github.com/gymlint/gymlint/diag"

// RuleLoadError is rule GL008: a Go package that go list, the parser or the
// type checker rejects, and that the analyzers therefore do not see.
var RuleLoadError = &diag.Rule{
	Code: "GL008", Name: "go-load-error", Analyzer: "core", Severity: diag.Error,
	Summary: "A Go package does not load: `go list`, the parser or the type checker rejects it, so it is not analyzed.",
	Doc: `## What it does
Reports each error that stops a Go package of the repository from loading: an error of ` + "`go list`" + `
(a malformed ` + "`go.mod`" + `, an import that no required module provides, a missing ` + "`go.sum`" + ` entry), a
syntax error, or a type error. gymlint loads every Go module under the scanned root (each directory
with a ` + "`go.mod`" + `, outside hidden directories, ` + "`vendor`" + `, ` + "`testdata`" + ` and ` + "`node_modules`" + `) with
` + "`golang.org/x/tools/go/packages`" + `, which runs ` + "`go list`" + ` and type-checks the packages from source. A
package whose own code is fine but that imports a broken package is reported once, at its first
file, naming the broken dependency.

## Why it matters
The Go analyzers need a package's types; a package that does not type-check is not analyzed, so a
server in it could break the contract without any other finding. The build of the server fails
for the same reason.

## Example
` + "```go" + `
package server

func (s *Server) seed(w http.ResponseWriter, r *http.Request) { // "net/http" is not imported
` + "```" + `

` + "```" + `
server/server.go:3:28: GL008 Go package example.com/env/server does not type-check: undefined: http
` + "```" + `

## How to fix
Make the package build (` + "`go build ./...`" + ` in the module shows the same errors). If ` + "`go list`" + `
cannot find a dependency, run ` + "`go mod download`" + ` or ` + "`go mod tidy`" + ` in the module: gymlint's
` + "`go list`" + ` follows your ` + "`GOFLAGS`" + `, ` + "`GOPROXY`" + ` and ` + "`GOWORK`" + ` settings.`,
}

// Rules lists the core rules of the Go driver, for the catalogue.
var Rules = []*diag.Rule{RuleLoadError}

// lookupOwn finds one of this package's rules by code or name.
func lookupOwn(key string) *diag.Rule {
	for _, r := range Rules {
		if r.Code == key || r.Name == key {
			return r
		}
	}
	return nil
}
