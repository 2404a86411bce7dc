package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelp checks that `gymlint help [COMMAND]` prints, on stdout, the
// usage that the command's own -h and --help print on stdout, and exits 0.
func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		help []string // gymlint help ...
		dash []string // the same usage asked for with -h
		head string   // its first line
	}{
		{[]string{"help"}, []string{"--help"}, "usage: gymlint [--format text|full|json|sarif|github] [flags] [PATH...]"},
		{[]string{"help", "check"}, []string{"-h"}, "usage: gymlint [--format text|full|json|sarif|github] [flags] [PATH...]"},
		{[]string{"help", "servers"}, []string{"servers", "-h"}, "usage: gymlint servers [--format text|markdown|json|mermaid|dot] [--extra-root DIR] [PATH...]"},
		{[]string{"help", "rules"}, []string{"rules", "--help"}, "usage: gymlint rules [--format text|json]"},
		{[]string{"help", "explain"}, []string{"explain", "-h"}, "usage: gymlint explain CODE|NAME"},
		{[]string{"help", "config"}, []string{"config", "-h"}, "usage: gymlint config [--format text|json] [flags] [PATH]"},
		{[]string{"help", "lsp"}, []string{"lsp", "-h"}, "usage: gymlint lsp [--cache-dir DIR] [--jobs N] [--no-cache] [--no-go]"},
		{[]string{"help", "resolve"}, []string{"resolve", "--help"}, "usage: gymlint resolve [--format yaml|json] [--root DIR] FILE..."},
		{[]string{"help", "clean"}, []string{"clean", "-h"}, "usage: gymlint clean [--cache-dir DIR] [--dry-run]"},
		{[]string{"help", "completion"}, []string{"completion", "--help"}, "usage: gymlint completion bash|zsh|fish"},
		{[]string{"help", "help"}, []string{"help", "--help"}, "usage: gymlint help [COMMAND|ANALYZER|RULE]"},
	} {
		name := strings.Join(tc.help, " ")
		out, errOut, code := run(t, tc.help...)
		if code != ExitClean || errOut != "" {
			t.Errorf("%s: exit %d, stderr %q; want 0 and nothing", name, code, errOut)
		}
		if first, _, _ := strings.Cut(out, "\n"); first != tc.head {
			t.Errorf("%s: first line %q, want %q", name, first, tc.head)
		}
		dashOut, dashErr, dashCode := run(t, tc.dash...)
		if dashCode != ExitClean || out != dashOut || dashErr != "" {
			t.Errorf("%s printed:\n%s\nwant what %q prints on stdout (exit %d, stderr %q):\n%s", name, out, tc.dash, dashCode, dashErr, dashOut)
		}
	}
	// The top-level usage lists the flags and names the help command.
	out, _, _ := run(t, "help")
	for _, s := range []string{"gymlint help [COMMAND|ANALYZER|RULE]", "-format FORMAT", "-output-file FILE", "-version", "Exit status: 0 no findings"} {
		if !strings.Contains(out, s) {
			t.Errorf("gymlint help: no %q in\n%s", s, out)
		}
	}
}

// TestHelpTopics checks the topics that are not commands: go vet's usage
// text sends users to "gymlint help NAME" for an analyzer, and a rule's
// code or name gives its page as explain does.
func TestHelpTopics(t *testing.T) {
	out, errOut, code := run(t, "help", "gosessions")
	if code != ExitClean || !strings.HasPrefix(out, "gosessions: check that native Go resources servers") ||
		!strings.Contains(out, "-gosessions=false") || errOut != "" {
		t.Errorf("help gosessions: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	explained, _, _ := run(t, "explain", "GL101")
	for _, topic := range []string{"GL101", "gl101", "undeclared-workers"} {
		out, errOut, code := run(t, "help", topic)
		if code != ExitClean || out != explained || errOut != "" {
			t.Errorf("help %s: exit %d, stderr %q, stdout not explain's:\n%s", topic, code, errOut, out)
		}
	}
	for _, args := range [][]string{{"help", "nope"}, {"help", "GL999"}, {"help", "--format"}} {
		out, errOut, code := run(t, args...)
		if code != ExitError || out != "" || !strings.Contains(errOut, `gymlint help: unknown topic "`+args[1]+`"`) ||
			!strings.Contains(errOut, "check, clean, completion, config, explain, help, lsp, resolve, rules, servers") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and the topics", args, code, out, errOut)
		}
	}
	out, errOut, code = run(t, "help", "servers", "rules")
	if code != ExitError || out != "" || !strings.Contains(errOut, "expected at most one topic, got 2: servers rules") ||
		!strings.HasSuffix(errOut, "\nRun 'gymlint help --help' for usage.\n") || strings.Count(errOut, "\n") != 2 {
		t.Errorf("help with two topics: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestHelpDirectory checks that a directory named help is checked when
// written ./help, and that help is the command otherwise.
func TestHelpDirectory(t *testing.T) {
	// The repository is help/ (its nearest Gym layout); paths are shown
	// from the current directory.
	root := writeTree(t, map[string]string{
		"help/resources_servers/plain/app.py":             plainServer,
		"help/resources_servers/plain/configs/plain.yaml": "plain:\n  resources_servers:\n    plain:\n      entrypoint: app.py\n      domain: other\n",
		"help/resources_servers/plain/requirements.txt":   "fastapi\n",
	})
	t.Chdir(root)
	out, errOut, code := run(t, "--quiet", "./help")
	if code != ExitFindings || !strings.HasPrefix(out, "help/resources_servers/plain/app.py:4:7: GL101") {
		t.Errorf("./help: exit %d, stdout %q, stderr %q; want the GL101 of the server in it", code, out, errOut)
	}
	out, _, code = run(t, "help")
	if code != ExitClean || !strings.HasPrefix(out, "usage: gymlint") {
		t.Errorf("help beside a directory help: exit %d, %q", code, out)
	}
}

// TestHelpAgreesWithREADME checks that the guide's usage block
// (docs/guide/commands.md) names every command that gymlint help knows,
// and that the README or the guide documents every flag that a command's
// usage lists.
func TestHelpAgreesWithREADME(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "docs", "guide", "commands.md"))
	if err != nil {
		t.Fatal(err)
	}
	commands := string(data)
	readme := commands
	pages, err := filepath.Glob(filepath.Join("..", "docs", "guide", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range append(pages, filepath.Join("..", "README.md")) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		readme += string(data)
	}
	_, block, _ := strings.Cut(commands, "## Usage\n\n```\n")
	block, _, _ = strings.Cut(block, "```")
	for _, name := range subcommandNames() {
		if !strings.Contains(block, "\ngymlint "+name+" ") {
			t.Errorf("the guide's usage block has no line for gymlint %s", name)
		}
	}
	if !strings.Contains(block, "\ngymlint help ") {
		t.Error("the guide's usage block has no line for gymlint help")
	}
	for _, name := range append([]string{"check"}, subcommandNames()...) {
		out, _, _ := run(t, "help", name)
		n := 0
		for _, line := range strings.Split(out, "\n") {
			flag, ok := strings.CutPrefix(line, "  -")
			if !ok {
				continue
			}
			flag, _, _ = strings.Cut(flag, " ")
			n++
			if !strings.Contains(readme, "`--"+flag) && !strings.Contains(readme, " --"+flag) {
				t.Errorf("gymlint help %s lists -%s, which neither the README nor the guide documents", name, flag)
			}
		}
		if name != "explain" && name != "help" && name != "completion" && n == 0 {
			t.Errorf("gymlint help %s lists no flag:\n%s", name, out)
		}
	}
}
