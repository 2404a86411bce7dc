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

const lspAbout = `Runs gymlint's language server on stdin and stdout (JSON-RPC 2.0 with
Content-Length framing). The workspace is the root the editor names in
initialize. The log goes to stderr.
`

// lspCmd is `gymlint lsp`: it runs the language server on stdin (see
// the variable) and stdout. The workspace root comes from the client's
// initialize request.
func lspCmd(fs *flag.FlagSet, stdout, stderr io.Writer) func(args []string) int {
	jobs := fs.Int("jobs", 0, "the number `N` of parallel workers: the walk, the parses, the analysis (0: the CPUs the process may use, GOMAXPROCS)")
	// Editors' generic clients (vscode-languageclient) add --stdio.
	fs.Bool("stdio", true, "talk over stdin and stdout (the only transport; accepted for clients that pass it)")
	noGo := fs.Bool("no-go", false, "do not run the Go analyzers on the workspace's Go modules")
	cacheOpts := addCacheFlags(fs)
	return func(args []string) int {
		if len(args) > 0 {
			return usageError(stderr, fs, "unexpected argument %q: the workspace comes from the editor", args[0])
		}
		in := stdin
		defer startPacer(false)()
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
}
