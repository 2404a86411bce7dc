package cli

import (
	"regexp"
	"strings"
	"testing"
)

// TestHelpOnStdout checks that help asked for (--help, -h, gymlint help,
// for gymlint and for each command) is printed on stdout with exit status
// 0, as ruff prints it, and nothing on stderr.
func TestHelpOnStdout(t *testing.T) {
	calls := [][]string{{"--help"}, {"-h"}, {"help"}, {"-help"}}
	for _, name := range subcommandNames() {
		calls = append(calls, []string{name, "--help"}, []string{name, "-h"}, []string{"help", name})
	}
	for _, args := range calls {
		out, errOut, code := run(t, args...)
		if code != ExitClean || errOut != "" || !strings.HasPrefix(out, "usage: gymlint") {
			t.Errorf("gymlint %s: exit %d, stderr %q, stdout begins %q; want 0, nothing, the usage", strings.Join(args, " "), code, errOut, first(out))
		}
	}
}

// TestUsageErrorPointsToHelp checks that a usage error prints what is
// wrong and one line pointing to --help, on stderr, with exit status 2:
// not the whole usage.
func TestUsageErrorPointsToHelp(t *testing.T) {
	out, errOut, code := run(t, "--foo")
	if want := "gymlint: flag provided but not defined: -foo\nRun 'gymlint --help' for usage.\n"; code != ExitError || out != "" || errOut != want {
		t.Errorf("gymlint --foo: exit %d, stdout %q, stderr %q; want 2 and %q", code, out, errOut, want)
	}
	for _, tc := range []struct {
		args []string
		msg  string // in the first line
	}{
		{[]string{"--jobs", "abc"}, `invalid value "abc" for flag -jobs`},
		{[]string{"--format", "xml"}, `unknown --format "xml"`},
		{[]string{"--contract", "newest"}, "--contract must be auto or latest"},
		{[]string{"--jobs", "-1"}, "--jobs must be from 1 to"},
		{[]string{"--select", "XYZ"}, `unknown rule "XYZ" in --select`},
		{[]string{"config", "--ignore", "XYZ"}, `unknown rule "XYZ" in --ignore`},
		{[]string{"servers", "--foo"}, "flag provided but not defined: -foo"},
		{[]string{"servers", "--format", "svg"}, `unknown --format "svg"`},
		{[]string{"rules", "--foo"}, "flag provided but not defined: -foo"},
		{[]string{"rules", "GL101"}, "unexpected arguments: GL101"},
		{[]string{"explain"}, "explain takes one rule code or name, got 0 arguments"},
		{[]string{"explain", "--foo", "GL101"}, "flag provided but not defined: -foo"},
		{[]string{"config", "--select"}, "flag needs an argument: -select"},
		{[]string{"config", "a", "b"}, "expected at most one directory"},
		{[]string{"resolve"}, "expected at least one config file"},
		{[]string{"resolve", "--format", "toml", "x.yaml"}, `unknown --format "toml"`},
		{[]string{"lsp", "--jobs", "x"}, `invalid value "x" for flag -jobs`},
		{[]string{"lsp", "here"}, `unexpected argument "here"`},
		{[]string{"clean", "--foo"}, "flag provided but not defined: -foo"},
		{[]string{"clean", "x"}, "unexpected arguments: x"},
		{[]string{"help", "servers", "rules"}, "expected at most one topic"},
	} {
		cmd := "gymlint"
		if c := lookupCommand(tc.args[0]); c != nil {
			cmd = c.title()
		}
		out, errOut, code := run(t, tc.args...)
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		if code != ExitError || out != "" || len(lines) != 2 ||
			!strings.HasPrefix(lines[0], cmd+": ") || !strings.Contains(lines[0], tc.msg) ||
			lines[1] != "Run '"+cmd+" --help' for usage." {
			t.Errorf("gymlint %s: exit %d, stdout %q, stderr\n%s\nwant 2, the error (%q) and \"Run '%s --help' for usage.\"",
				strings.Join(tc.args, " "), code, out, errOut, tc.msg, cmd)
		}
	}
}

// synopsisLines are the lines of the synopsis that `gymlint --help` begins
// with, each after "gymlint ".
func synopsisLines(t *testing.T) []string {
	t.Helper()
	out, _, code := run(t, "--help")
	if code != ExitClean {
		t.Fatalf("gymlint --help: exit %d", code)
	}
	block, _, _ := strings.Cut(out, "\n\n")
	var lines []string
	for _, l := range strings.Split(block, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(l, "usage:"))
		rest, ok := strings.CutPrefix(l, "gymlint ")
		if !ok {
			t.Fatalf("synopsis line %q does not begin with gymlint", l)
		}
		lines = append(lines, rest)
	}
	return lines
}

// knownFormats are the formats that a command's own check of --format
// accepts, as its error for an unknown one lists them.
func knownFormats(t *testing.T, args ...string) []string {
	t.Helper()
	_, errOut, code := run(t, append(args, "--format", "no-such-format")...)
	m := regexp.MustCompile(`unknown --format "no-such-format" \(known: ([^)]*)\)`).FindStringSubmatch(errOut)
	if code != ExitError || m == nil {
		t.Fatalf("gymlint %v --format no-such-format: exit %d, stderr %q", args, code, errOut)
	}
	return strings.Split(m[1], ", ")
}

// TestSynopsisIsTrue checks the synopsis of gymlint --help against the
// commands: every command the dispatcher runs has a line, which is the
// first line of its own usage; each flag its usage lists is in that line
// (or the line says [flags]); and each format the command accepts is in
// its [--format ...].
func TestSynopsisIsTrue(t *testing.T) {
	lines := synopsisLines(t)
	lineOf := func(name string) string {
		for _, l := range lines {
			if name == "" && strings.HasPrefix(l, "[") || name != "" && (l == name || strings.HasPrefix(l, name+" ")) {
				return l
			}
		}
		return ""
	}
	for _, c := range commands() {
		line := lineOf(c.name)
		if line == "" {
			t.Errorf("the synopsis of gymlint --help has no line for the %q command:\n%s", c.name, strings.Join(lines, "\n"))
			continue
		}
		var args []string
		if c.name != "" {
			args = []string{c.name}
		}
		// The dispatcher runs the command: its usage begins with the line.
		out, _, code := run(t, append(args, "--help")...)
		if want := "usage: gymlint " + line + "\n"; code != ExitClean || !strings.HasPrefix(out, want) {
			t.Errorf("gymlint %s --help: exit %d, begins %q; want %q", c.name, code, first(out), want)
		}
		// Every flag of the usage is in the synopsis (the hidden ones
		// aside), or the synopsis says [flags].
		for _, l := range strings.Split(out, "\n") {
			f, ok := strings.CutPrefix(l, "  -")
			if !ok {
				continue
			}
			f, _, _ = strings.Cut(f, " ")
			if !strings.Contains(line, "[--"+f) && !strings.Contains(line, "[flags]") && f != "stdio" {
				t.Errorf("gymlint %s takes --%s, which its synopsis %q does not show", c.name, f, line)
			}
		}
		if !strings.Contains(out, "\n  -format ") {
			if strings.Contains(line, "--format") {
				t.Errorf("gymlint %s has no --format, but its synopsis %q shows one", c.name, line)
			}
			continue
		}
		formats := knownFormats(t, args...)
		if want := "[--format " + strings.Join(formats, "|") + "]"; !strings.Contains(line, want) {
			t.Errorf("gymlint %s accepts --format %s; its synopsis %q does not show %s", c.name, strings.Join(formats, ", "), line, want)
		}
	}
	for _, want := range []string{"resolve [--format yaml|json] [--root DIR] FILE...",
		"servers [--format text|markdown|json|mermaid|dot] [--extra-root DIR] [PATH...]",
		"lsp [--cache-dir DIR] [--jobs N] [--no-cache] [--no-go]"} {
		if lineOf(strings.Fields(want)[0]) != want {
			t.Errorf("the synopsis has no line %q:\n%s", want, strings.Join(lines, "\n"))
		}
	}
}

func first(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
