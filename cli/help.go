package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// helpAbout is the usage text of gymlint help.
func helpAbout() string {
	return wrap(`Prints the usage of gymlint (no argument, or "check": the same text as
"gymlint --help"), of one of its commands (`+strings.Join(subcommandNames(), ", ")+`), the
documentation of a Go analyzer that "go vet -vettool" runs (`+strings.Join(goAnalyzerNames(), ", ")+`), or of a rule by code or name (as "gymlint explain" does), on
stdout. Exit status 2 for anything else. (A directory named "help" is
checked with "gymlint ./help".)`, 78) + "\n"
}

// goAnalyzerNames are the names of the Go analyzers, in order.
func goAnalyzerNames() []string {
	var out []string
	for _, a := range goAnalyzers() {
		out = append(out, a.Name)
	}
	return out
}

// help is `gymlint help [TOPIC]`. Exit status: 0, or 2 for an unknown topic
// or more than one.
func help(args []string, stdout, stderr io.Writer) int {
	self := lookupCommand("help")
	if len(args) > 1 {
		fmt.Fprintf(stderr, "gymlint help: expected at most one topic, got %d: %s\n", len(args), strings.Join(args, " "))
		fmt.Fprintln(stderr, "Run 'gymlint help --help' for usage.")
		return ExitError
	}
	topic := "check"
	if len(args) == 1 {
		topic = args[0]
	}
	switch topic {
	case "-h", "-help", "--help":
		return self.writeUsage(stdout, stderr)
	case "check":
		topic = ""
	}
	if c := lookupCommand(topic); c != nil {
		return c.writeUsage(stdout, stderr)
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
		return explain(topic, stdout, stderr)
	}
	names := append([]string{"check"}, subcommandNames()...)
	slices.Sort(names)
	fmt.Fprintf(stderr, "gymlint help: unknown topic %q: not a command (%s), a Go analyzer or a rule; \"gymlint help\" prints the usage, \"gymlint rules\" lists the rules\n", topic, strings.Join(names, ", "))
	return ExitError
}
