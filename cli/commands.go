package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gymlint/gymlint/inventory"
	"github.com/gymlint/gymlint/output"
)

// A command is one of gymlint's commands: the check (name "") or a
// subcommand. Main dispatches on the table (commands), and each usage, the
// synopsis of `gymlint --help` included, is made from the command's own
// flag set, so that it lists what the command takes.
//
// Help asked for (-h, --help, gymlint help COMMAND) goes to stdout with
// exit status 0, as ruff's does; a usage error is one line saying what is
// wrong and one pointing to --help, on stderr, with exit status 2.
type command struct {
	name string // "" for the check
	// args are the positional arguments as the synopsis writes them.
	args string
	// short says what the command does in a few words (shell completion
	// shows it beside the name).
	short string
	// words, when set, are the words its positional arguments take (shell
	// completion offers them); an args that names a PATH or FILE takes
	// files.
	words func() []string
	// more are further synopsis lines, after "gymlint ".
	more []string
	// formats are the values --format takes (the same list the command
	// checks --format against); nil when it has no --format.
	formats []string
	// hidden are flags accepted but left out of the synopsis.
	hidden []string
	// about makes the usage's text between the synopsis and the flags (a
	// function: the check's names the commands of this table); trailer
	// follows the flags.
	about   func() string
	trailer string
	// setup declares the command's flags on fs and returns the function
	// that runs it with its positional arguments.
	setup func(fs *flag.FlagSet, stdout, stderr io.Writer) func(args []string) int
	// raw, when set, runs the command with its arguments as given (help:
	// a topic may look like a flag); setup is then nil.
	raw func(args []string, stdout, stderr io.Writer) int
}

// commands is the table of gymlint's commands, the check first.
func commands() []*command {
	return []*command{
		{name: "", args: "[PATH...]", short: "check the repository", formats: output.Formats, more: []string{"--pre-commit [flags] [--] FILE..."},
			about: checkAbout, trailer: checkTrailer, setup: checkCmd},
		{name: "servers", args: "[PATH...]", short: "list the servers", formats: inventory.Formats, about: text(serversAbout), setup: serversCmd},
		{name: "rules", short: "list every rule", formats: ruleFormats, about: text(rulesAbout), setup: rulesCmd},
		{name: "explain", args: "CODE|NAME", short: "print one rule's documentation", words: ruleWords, about: text(explainAbout), setup: explainCmd},
		{name: "config", args: "[PATH]", short: "print the effective configuration", formats: configFormats, about: text(configAbout), setup: configCmd},
		{name: "resolve", args: "FILE...", short: "print the config Gym composes from FILE...", formats: resolveFormats, about: text(resolveAbout), setup: resolveCmd},
		{name: "lsp", short: "run the language server for editors", hidden: []string{"stdio"}, about: text(lspAbout), setup: lspCmd},
		{name: "clean", short: "remove the cache", about: text(cleanAbout), setup: cleanCmd},
		{name: "completion", args: strings.Join(completionShells, "|"), short: "print a shell completion script", words: func() []string { return completionShells },
			about: text(completionAbout), setup: completionCmd},
		{name: "help", args: "[COMMAND|ANALYZER|RULE]", short: "print the usage of gymlint or of a command", words: helpTopics, about: helpAbout, raw: help},
	}
}

// text is the about of a fixed text.
func text(s string) func() string { return func() string { return s } }

// lookupCommand returns the command of this name ("": the check), or nil.
func lookupCommand(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// subcommandNames are the names of the subcommands, in the table's order.
func subcommandNames() []string {
	var names []string
	for _, c := range commands() {
		if c.name != "" {
			names = append(names, c.name)
		}
	}
	return names
}

// title is the command as its messages name it: "gymlint servers".
func (c *command) title() string {
	return strings.TrimSpace("gymlint " + c.name)
}

// flagSet makes the command's flag set, quiet (main prints what goes
// wrong), and the function that runs the command.
func (c *command) flagSet(stdout, stderr io.Writer) (*flag.FlagSet, func([]string) int) {
	fs := flag.NewFlagSet(c.title(), flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if c.setup == nil {
		return fs, nil
	}
	return fs, c.setup(fs, stdout, stderr)
}

// main runs the command with args: -h or --help prints its usage on
// stdout; a flag that is not defined or has a bad value is a usage error.
func (c *command) main(args []string, stdout, stderr io.Writer) int {
	if c.raw != nil {
		return c.raw(args, stdout, stderr)
	}
	fs, run := c.flagSet(stdout, stderr)
	positional, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return c.writeUsage(stdout, stderr)
	}
	if err != nil {
		return usageError(stderr, fs, "%v", err)
	}
	return run(positional)
}

// usageError prints what is wrong with the command line, and the line
// that points to the command's usage, on stderr, and returns ExitError.
func usageError(stderr io.Writer, fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(stderr, "%s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", fs.Name())
	return ExitError
}

// maxListedFlags is how many flags (besides --format) a synopsis line
// lists; a command with more shows "[flags]".
const maxListedFlags = 4

// synopsis is the command's synopsis: its lines, each after "gymlint ".
func (c *command) synopsis() []string {
	fs, _ := c.flagSet(io.Discard, io.Discard)
	var parts []string
	if c.name != "" {
		parts = append(parts, c.name)
	}
	var listed []string
	fs.VisitAll(func(f *flag.Flag) {
		switch {
		case f.Name == "format":
			parts = append(parts, "[--format "+strings.Join(c.formats, "|")+"]")
		case slices.Contains(c.hidden, f.Name):
		default:
			listed = append(listed, flagSynopsis(f))
		}
	})
	if len(listed) > maxListedFlags {
		listed = []string{"[flags]"}
	}
	parts = append(parts, listed...)
	if c.args != "" {
		parts = append(parts, c.args)
	}
	return append([]string{strings.Join(parts, " ")}, c.more...)
}

// flagSynopsis is how a synopsis writes a flag: [--name] for a boolean,
// [--name VALUE] with the usage's `VALUE` (N for a number) otherwise.
func flagSynopsis(f *flag.Flag) string {
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return "[--" + f.Name + "]"
	}
	name, _ := flag.UnquoteUsage(f)
	switch name {
	case "int", "int64", "uint", "uint64", "float":
		name = "N"
	case "", "string", "value", "duration":
		name = "VALUE"
	}
	return "[--" + f.Name + " " + name + "]"
}

// usage is the command's usage text. The check's is gymlint's: every
// command's synopsis, then the check's text and flags.
func (c *command) usage() string {
	var lines []string
	if c.name == "" {
		for _, d := range commands() {
			lines = append(lines, d.synopsis()...)
		}
	} else {
		lines = c.synopsis()
	}
	var b strings.Builder
	b.WriteString("usage: gymlint " + strings.Join(lines, "\n       gymlint ") + "\n\n")
	b.WriteString(c.about())
	fs, _ := c.flagSet(io.Discard, io.Discard)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		b.WriteString("\nFlags:\n")
		fs.SetOutput(&b)
		fs.PrintDefaults()
	}
	b.WriteString(c.trailer)
	return b.String()
}

// writeUsage prints the usage on w (help asked for: exit status 0).
func (c *command) writeUsage(w, stderr io.Writer) int {
	if _, err := io.WriteString(w, c.usage()); err != nil {
		fmt.Fprintf(stderr, "gymlint: writing output: %v\n", err)
		return ExitError
	}
	return ExitClean
}
