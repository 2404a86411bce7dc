package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCompletion checks `gymlint completion SHELL`: for each shell a
// script that names every subcommand, every flag of the check and the
// rule codes, and that the shell reads without a syntax error (zsh -n,
// fish -n, bash -n; skipped when the shell is not installed).
func TestCompletion(t *testing.T) {
	var checkFlags []string
	for _, c := range completionModel() {
		if c.name == "check" {
			for _, f := range c.flags {
				checkFlags = append(checkFlags, f.name)
			}
		}
	}
	if len(checkFlags) < 20 {
		t.Fatalf("the check has %d flags: %v", len(checkFlags), checkFlags)
	}
	for _, shell := range completionShells {
		t.Run(shell, func(t *testing.T) {
			out, errOut, code := run(t, "completion", shell)
			if code != ExitClean || errOut != "" || out == "" {
				t.Fatalf("exit %d, stderr %q, %d bytes", code, errOut, len(out))
			}
			for _, name := range subcommandNames() {
				if !strings.Contains(out, name) {
					t.Errorf("the script does not name the subcommand %s", name)
				}
			}
			for _, f := range checkFlags {
				want := "--" + f
				if shell == "fish" {
					want = "-l " + f + " "
				}
				if !strings.Contains(out, want) {
					t.Errorf("the script does not name the check's flag %s", want)
				}
			}
			for _, s := range []string{"GL101", "undeclared-workers", "sarif", "markdown", "latest"} {
				if !strings.Contains(out, s) {
					t.Errorf("the script lacks %s", s)
				}
			}
			bin, err := exec.LookPath(shell)
			if err != nil {
				t.Skipf("no %s to read the script", shell)
			}
			file := filepath.Join(t.TempDir(), "gymlint."+shell)
			if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			if msg, err := exec.Command(bin, "-n", file).CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", shell, err, msg)
			}
		})
	}
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		out, errOut, code := run(t, args...)
		if code != ExitError || out != "" || !strings.Contains(errOut, "gymlint completion: ") || !strings.Contains(errOut, "bash, zsh, fish") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want a usage error", args, code, out, errOut)
		}
	}
}

// TestBashCompletion sources the bash script and drives its function as
// bash does on TAB (COMP_WORDS, COMP_CWORD; bash splits --flag=value and
// NAME:FILE at = and :), in a directory with one file and one directory.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	script, _, code := run(t, "completion", "bash")
	if code != ExitClean {
		t.Fatalf("exit %d", code)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "gymlint.bash")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "report.sarif"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(work, "reports"), 0o755); err != nil {
		t.Fatal(err)
	}
	complete := func(words ...string) string {
		t.Helper()
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, shQuote(w))
		}
		cmd := exec.Command(bash, "-c", `source "$1" || exit 3
complete -p gymlint || exit 4
COMP_WORDS=(`+strings.Join(quoted, " ")+`)
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
_gymlint
printf '%s\n' "${COMPREPLY[@]}"`, "bash", file)
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v\n%s", words, err, out)
		}
		head, rest, _ := strings.Cut(string(out), "\n")
		if head != "complete -F _gymlint gymlint" {
			t.Fatalf("complete -p gymlint: %q", head)
		}
		got := strings.Fields(rest)
		if len(words) > 2 && words[len(words)-2] == ":" || words[len(words)-1] == "rep" {
			slices.Sort(got) // files come in the directory's order
		}
		return strings.Join(got, " ")
	}
	for _, tc := range []struct {
		words []string
		want  string
	}{
		{[]string{"gymlint", "ser"}, "servers"},
		{[]string{"gymlint", "co"}, "config completion"},
		{[]string{"gymlint", "--output-f"}, "--output-file"},
		{[]string{"gymlint", "--format", ""}, "text full json sarif github"},
		{[]string{"gymlint", "--format", "=", "js"}, "json"},
		{[]string{"gymlint", "--format", "sarif", ":", "rep"}, "report.sarif reports"},
		{[]string{"gymlint", "servers", "--format", "m"}, "markdown mermaid"},
		{[]string{"gymlint", "servers", "--"}, "--extra-root --format"},
		{[]string{"gymlint", "--select", "GL10"}, "GL101 GL102 GL103 GL104 GL105 GL106 GL107 GL108 GL109"},
		{[]string{"gymlint", "--ignore", "GL101,GL20"}, "GL101,GL201 GL101,GL202 GL101,GL203 GL101,GL204 GL101,GL205"},
		{[]string{"gymlint", "--select", "work"}, "workers"},
		{[]string{"gymlint", "--contract", ""}, "auto latest"},
		{[]string{"gymlint", "--root", ""}, "reports"},
		{[]string{"gymlint", "--quiet", "rep"}, "report.sarif reports"},
		{[]string{"gymlint", "explain", "undeclared-w"}, "undeclared-workers"},
		{[]string{"gymlint", "help", "gosess"}, "gosessions"},
		{[]string{"gymlint", "completion", ""}, "bash zsh fish"},
		{[]string{"gymlint", "--jobs", ""}, ""},
	} {
		if got := complete(tc.words...); got != tc.want {
			t.Errorf("%q<TAB>: %q, want %q", tc.words, got, tc.want)
		}
	}
}
