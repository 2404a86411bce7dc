package goanalysis

import "github.com/gymlint/gymlint/diag"

// RuleLoadError is rule GL008: a Go package that go list, the parser or the
// type checker rejects, and that the analyzers therefore do not see.
var RuleLoadError = &diag.Rule{
	Code: "GL008", Name: "go-load-error", Analyzer: "core", Severity: diag.Error,
	Summary: "A Go package is not analyzed: `go list`, the parser or the type checker rejects it, or gymlint does not load it.",
	Doc: `## What it does
Reports each error that stops a Go package of the repository from loading: an error of ` + "`go list`" + `
(a malformed ` + "`go.mod`" + `, an import that no required module provides, a dependency missing from the
module cache or from ` + "`go.sum`" + `, a ` + "`go`" + ` line newer than the installed Go), a syntax error, or a
type error. gymlint loads every Go module under the scanned root (each directory with a
` + "`go.mod`" + `, outside hidden directories, ` + "`vendor`" + `, ` + "`testdata`" + ` and ` + "`node_modules`" + `) with
` + "`golang.org/x/tools/go/packages`" + `, which runs ` + "`go list`" + `, and type-checks the packages from source. A
package whose own code is fine but that imports a broken package is reported once, at its first
file (or at the import), naming the broken dependency.

It also reports what gymlint does not load, so that nothing is left out silently:

- **A module with a file the go command must not read**: a named pipe, socket or device with the
  name of a Go, C or assembly file (or ` + "`go.mod`" + `, ` + "`go.sum`" + `), a symbolic link to a file or a
  directory outside the repository, a Go file, ` + "`go.mod`" + ` or ` + "`go.sum`" + ` over the size limit
  (` + "`--max-file-size`" + `, 4 MiB by default), or a ` + "`replace`" + ` directive that points at a directory
  outside the repository. The module is not loaded at all (one finding per such file, at most 20).
- **Files that use cgo** (` + "`import \"C\"`" + `): gymlint runs the go command with ` + "`CGO_ENABLED=0`" + `, so
  that no C compiler or ` + "`pkg-config`" + ` runs on the repository's code; these files are left out,
  reported once per package at the import, and a package that needs them is not analyzed.
- **A module whose loading does not finish** within 3 minutes.

gymlint runs the go command offline and on the installed toolchain, whatever the environment
says: ` + "`GOTOOLCHAIN=local GOPROXY=off GOSUMDB=off GOWORK=off GOVCS=*:off GOAUTH=off CGO_ENABLED=0 GO111MODULE=on`" + `
(and empty ` + "`GONOPROXY`" + `, ` + "`GONOSUMDB`" + `, ` + "`GOPRIVATE`" + `), with ` + "`-mod=readonly`" + ` (` + "`-mod=vendor`" + ` when
the module has ` + "`vendor/modules.txt`" + `) on the command line, over any ` + "`-mod`" + ` in ` + "`GOFLAGS`" + `. So a
dependency that is not in the module cache is a GL008, never a download, and ` + "`go.mod`" + ` and ` + "`go.sum`" + `
are never written. The messages say what failed; the go command's output of a failed build step,
which can quote the files it read, is never shown, and a message is cut at 300 bytes.

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
Make the package build (` + "`go build ./...`" + ` in the module shows the same errors). If a dependency
is missing, run ` + "`go mod download`" + ` (or ` + "`go mod tidy`" + `) in the module yourself, or vendor it
(` + "`go mod vendor`" + `): gymlint never downloads. If the module needs a newer Go, install it. Replace a
named pipe or a link out of the repository with a regular file; point a ` + "`replace`" + ` at a directory
inside the repository. A cgo package is analyzed only through its other files.`,
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
