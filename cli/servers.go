package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/inventory"
)

const serversAbout = `Lists every server entrypoint of the repository that the first PATH
(default: the current directory) lies in, or of those under the PATHs when
they are below the root: server type and dir, class, file, the configs that
name it, how it answers several workers, its Ray needs and the session
methods it overrides. --format mermaid or dot draws them: a cluster per
server type laid out as a grid, coloured by worker status, with a legend,
and arrows for a parent class of another server directory, a config of
another directory that names the server, and an environment server's
references.
`

// openEngine finds the root and scope of paths and makes the engine of the
// root, or says why not on stderr.
func openEngine(paths []string, extraRoots []string, stderr io.Writer) (*target, *engine.Engine, bool) {
	t, err := findTarget("", paths, false)
	if err != nil {
		fmt.Fprintf(stderr, "gymlint: %v\n", err)
		return nil, nil, false
	}
	e, err := engine.New(engine.Options{Root: t.root, VirtualEnv: contract.VirtualEnvFromEnvironment(), ExtraRoots: extraRoots})
	if err != nil {
		fmt.Fprintf(stderr, "gymlint: %v\n", err)
		return nil, nil, false
	}
	return t, e, true
}

// serversCmd is `gymlint servers`: it prints the inventory. Exit status: 0, or 2 for usage,
// configuration or internal errors; findings do not change it.
func serversCmd(fs *flag.FlagSet, stdout, stderr io.Writer) func(args []string) int {
	format := fs.String("format", "text", "output format: "+strings.Join(inventory.Formats, ", "))
	var extraRootFlags multiFlag
	fs.Var(&extraRootFlags, "extra-root", "search this plugin server root `DIR` before the root for the server directories configs name, as NEMO_GYM_EXTRA_ROOTS (repeatable); its servers are listed, their paths shown as <name>/PATH")
	return func(args []string) int {
		known := false
		for _, f := range inventory.Formats {
			known = known || f == *format
		}
		if !known {
			return usageError(stderr, fs, "unknown --format %q (known: %s)", *format, strings.Join(inventory.Formats, ", "))
		}
		extraRoots, err := userExtraRoots(extraRootFlags)
		if err != nil {
			fmt.Fprintf(stderr, "gymlint: %v\n", err)
			return ExitError
		}
		t, e, ok := openEngine(args, extraRoots, stderr)
		if !ok {
			return ExitError
		}
		v, err := gym.Build(t.root, e.GymOptions())
		if err != nil {
			fmt.Fprintf(stderr, "gymlint: %v\n", err)
			return ExitError
		}
		defer v.Close()
		var rows []inventory.Server
		for _, r := range inventory.Build(v) {
			if t.scope.Has(r.Path) {
				rows = append(rows, r)
			}
		}
		var out strings.Builder
		if err := inventory.Write(&out, *format, rows, inventory.ContractNote(v)); err != nil {
			fmt.Fprintf(stderr, "gymlint: writing output: %v\n", err)
			return ExitError
		}
		if _, err := io.WriteString(stdout, out.String()); err != nil {
			fmt.Fprintf(stderr, "gymlint: writing output: %v\n", err)
			return ExitError
		}
		if *format == "mermaid" && out.Len() > inventory.MermaidMaxText {
			fmt.Fprintf(stderr, "gymlint: the Mermaid drawing is %d characters, more than the %d that Mermaid renders by default (GitHub included): draw part of the repository (gymlint servers --format mermaid DIR...) or use --format dot\n",
				out.Len(), inventory.MermaidMaxText)
		}
		return ExitClean
	}
}
