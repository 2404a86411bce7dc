package cli

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/lsp"
)

// stdin is what `gymlint lsp` reads; tests replace it.
var stdin io.Reader = os.Stdin

// serveLSP runs the language server: gymlint lsp [--jobs N] [--stdio].
// The workspace root comes from the client's initialize request.
func serveLSP(args []string, in io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gymlint lsp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jobs := fs.Int("jobs", 0, "parallel parsers (0: the number of CPUs)")
	// Editors' generic clients (vscode-languageclient) add --stdio.
	fs.Bool("stdio", true, "talk over stdin and stdout (the only transport; accepted for clients that pass it)")
	noGo := fs.Bool("no-go", false, "do not run the Go analyzers on the workspace's Go modules")
	cacheOpts := addCacheFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: gymlint lsp [--jobs N] [--no-go] [--cache-dir DIR] [--no-cache]\n\nRuns gymlint's language server on stdin and stdout (JSON-RPC 2.0 with\nContent-Length framing). The workspace is the root the editor names in\ninitialize. The log goes to stderr.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitClean
		}
		return ExitError
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "gymlint lsp: unexpected argument %q: the workspace comes from the editor\n", fs.Arg(0))
		return ExitError
	}
	defer startPacer()()
	err := lsp.Serve(in, stdout, lsp.Options{Version: version(), Log: stderr, Jobs: *jobs, GoEnv: goEnv, NoGo: *noGo, Cache: cacheOpts.open(stderr),
		VirtualEnv: contract.VirtualEnvFromEnvironment(), ExtraRoots: engine.SplitExtraRoots(os.Getenv(engine.EnvExtraRoots))})
	if err != nil {
		// The protocol asks for status 1 when exit comes without
		// shutdown, or the stream ends first.
		fmt.Fprintf(stderr, "gymlint lsp: %v\n", err)
		return 1
	}
	return ExitClean
}
