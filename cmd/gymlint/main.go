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
//
// On SIGINT or SIGTERM, gymlint stops the go commands it started (they are
// interrupted, and killed 5 s later if they have not ended) and exits with
// 128 plus the signal's number, as a shell reports a process that the
// signal ended (130, 143); a second signal ends it at once.
package main

import (
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/gymlint/gymlint/cli"
	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/goanalysis"
)

func main() {
	if goanalysis.VetInvocation(os.Args[1:]) {
		unitchecker.Main(engine.VetAnalyzers()...) // exits
	}
	exitOnSignal()
	code := cli.Main(os.Args[1:], os.Stdout, os.Stderr)
	if goanalysis.Interrupted() {
		select {} // exitOnSignal's goroutine exits with the signal's status
	}
	os.Exit(code)
}

// exitOnSignal makes SIGINT and SIGTERM stop the go commands that the Go
// analysis runs (goanalysis.Interrupt) before gymlint exits, so that none
// is left behind (without it the process would die at once and a go list
// blocked on a file would outlive it).
func exitOnSignal() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sigs
		signal.Reset(os.Interrupt, syscall.SIGTERM) // a second signal ends gymlint at once
		goanalysis.Interrupt()
		code := 128 + 2
		if n, ok := s.(syscall.Signal); ok {
			code = 128 + int(n)
		}
		os.Exit(code)
	}()
}
