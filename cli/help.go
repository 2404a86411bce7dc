package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

const helpUsage = `usage: gymlint help [COMMAND|ANALYZER|RULE]

Prints the usage of gymlint (no argument, or "check": the same text as
"gymlint --help"), of one of its commands (servers, rules, explain, config,
resolve, lsp, clean, help), the documentation of a Go analyzer that "go vet -vettool" runs
(goworkers, gosessions), or of a rule by code or name (as "gymlint explain"
does), on stdout. Exit status 2 for anything else. (A directory named "help"
is checked with "gymlint ./help".)
`

// helpCommands are the commands `gymlint help COMMAND` describes: each is
// run with -h, so that its usage, the one its own flags print, is the text.
func helpCommands() map[string]func(args []string, stdout, stderr io.Writer) int {
	return map[string]func(args []string, stdout, stderr io.Writer) int{
		"check":   check,
		"servers": servers,
		"rules":   rules,
		"explain": explain,
		"config":  config,
		"resolve": resolve,
		"clean":   clean,
		"lsp": func(args []string, stdout, stderr io.Writer) int {
			return serveLSP(args, strings.NewReader(""), stdout, stderr)
		},
	}
}

// help is `gymlint help [TOPIC]`. Exit status: 0, or 2 for an unknown topic
// or more than one.
func help(args []string, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		fmt.Fprintf(stderr, "gymlint help: expected at most one topic, got %d: %s\n", len(args), strings.Join(args, " "))
		fmt.Fprint(stderr, helpUsage)
		return ExitError
	}
	topic := "check"
	if len(args) == 1 {
		topic = args[0]
	}
	switch topic {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, helpUsage)
		return ExitClean
	}
	if cmd, ok := helpCommands()[topic]; ok {
		// A command given -h prints its usage on its stderr and stops
		// there; here that text is the output asked for.
		return cmd([]string{"-h"}, io.Discard, stdout)
	}
	for _, a := range goAnalyzers() {
		if a.Name == topic {
			fmt.Fprintf(stdout, "%s: %s\n\n", a.Name, strings.TrimSpace(a.Doc))
			fmt.Fprintf(stdout, "\"go vet -vettool=$(which gymlint) -%[1]s ./...\" runs only this analyzer,\n-%[1]s=false all but this one.\n", a.Name)
			if a.URL != "" {
				fmt.Fprintf(stdout, "Documentation: %s\n", a.URL)
			}
			return ExitClean
		}
	}
	if ruleLookup(topic) != nil || ruleLookup(strings.ToUpper(topic)) != nil {
		return explain([]string{topic}, stdout, stderr)
	}
	names := []string{"help"}
	for name := range helpCommands() {
		names = append(names, name)
	}
	slices.Sort(names)
	fmt.Fprintf(stderr, "gymlint help: unknown topic %q: not a command (%s), a Go analyzer or a rule; \"gymlint help\" prints the usage, \"gymlint rules\" lists the rules\n", topic, strings.Join(names, ", "))
	return ExitError
}
