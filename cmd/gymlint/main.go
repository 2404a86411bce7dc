// Command gymlint checks a NeMo Gym-style repository of environment servers
// without importing or running any of it.
//
//	gymlint [flags] [PATH...]
//
// PATH defaults to the current directory; the repository root is found
// from it (see engine.FindRoot), and the findings in PATH are reported.
// Exit status: 0 no findings, 1 findings, 2 usage, configuration or
// internal error. See README.md.
//
// gymlint is also a vet tool: `go vet -vettool=$(which gymlint) ./...` runs
// its Go analyzers on the packages, through
// golang.org/x/tools/go/analysis/unitchecker, with the repository's
// suppressions and configuration (engine.VetAnalyzers). The go command's
// calls (-V=full, -flags, and a single vet.cfg file) are recognized by
// goanalysis.VetInvocation; then the exit status is unitchecker's, and
// go vet's own is what the user sees (0 clean, 1 diagnostics or errors).
package main

import (
	"os"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/goanalysis"
	"github.com/gymlint/gymlint/internal/cli"
)

func main() {
	if goanalysis.VetInvocation(os.Args[1:]) {
		unitchecker.Main(engine.VetAnalyzers()...) // exits
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
