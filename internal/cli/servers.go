package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/inventory"
)

const serversUsage = `usage: gymlint servers [flags] [DIR]

Lists every server entrypoint of the repository at DIR: server type and dir,
class, file, the configs that name it, how it answers several workers, its
Ray needs and the session methods it overrides.

Flags:
`

// servers prints the inventory. Exit status: 0, or 2 for usage,
// configuration or internal errors; findings do not change it.
func servers(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gymlint servers", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: "+strings.Join(inventory.Formats, ", "))
	fs.Usage = func() {
		fmt.Fprint(stderr, serversUsage)
		fs.PrintDefaults()
	}
	root, code, ok := parseArgs(fs, args, stderr)
	if !ok {
		return code
	}
	known := false
	for _, f := range inventory.Formats {
		known = known || f == *format
	}
	if !known {
		fmt.Fprintf(stderr, "gymlint: unknown --format %q (known: %s)\n", *format, strings.Join(inventory.Formats, ", "))
		return ExitError
	}
	opts, _, ok := options(root, stderr)
	if !ok {
		return ExitError
	}
	v, err := gym.Build(root, opts)
	if err != nil {
		fmt.Fprintf(stderr, "gymlint: %v\n", err)
		return ExitError
	}
	defer v.Close()
	if err := inventory.Write(stdout, *format, inventory.Build(v)); err != nil {
		fmt.Fprintf(stderr, "gymlint: writing output: %v\n", err)
		return ExitError
	}
	return ExitClean
}
