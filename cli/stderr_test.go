package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/internal/testtree"
)

// summaryLine is the summary line of a check's stderr.
func summaryLine(t *testing.T, errOut string) string {
	t.Helper()
	for _, l := range strings.Split(errOut, "\n") {
		if strings.HasPrefix(l, "gymlint: ") && strings.Contains(l, "; root ") {
			return l
		}
	}
	t.Fatalf("no summary line in\n%s", errOut)
	return ""
}

// TestSummaryBounded: the summary line counts the PATHs given, never lists
// them, so that it stays under 300 characters when pre-commit passes
// thousands of files; --verbose says each on a line of its own.
func TestSummaryBounded(t *testing.T) {
	const n = 2000
	files := map[string]string{
		"resources_servers/plain/app.py":             plainServer,
		"resources_servers/plain/configs/plain.yaml": "plain:\n  resources_servers:\n    plain:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/plain/requirements.txt":   "fastapi\n",
	}
	var paths []string
	for i := range n {
		p := fmt.Sprintf("resources_servers/plain/data/a_rather_long_file_name_%04d.jsonl", i)
		files[p] = "{}\n"
		paths = append(paths, p)
	}
	root := testtree.New(t, files)
	t.Chdir(root)
	for _, args := range [][]string{paths, append([]string{"--pre-commit"}, paths...)} {
		_, errOut, code := run(t, args...)
		line := summaryLine(t, errOut)
		if code == ExitError || len(line) > 300 || !strings.Contains(line, " in 2,000 paths; root ") {
			t.Errorf("%s: exit %d, a summary of %d characters: %.400s", args[0], code, len(line), line)
		}
	}
	// One PATH is named; --verbose names each.
	_, errOut, _ := run(t, paths[0])
	if line := summaryLine(t, errOut); !strings.Contains(line, " in "+paths[0]+"; root ") {
		t.Errorf("one PATH: %s", line)
	}
	_, errOut, _ = run(t, append([]string{"--verbose"}, paths...)...)
	if line := summaryLine(t, errOut); len(line) > 300 || strings.Count("\n"+errOut, "\ngymlint: checked resources_servers/plain/data/") != n {
		t.Errorf("--verbose: %d lines, summary %.300s", strings.Count(errOut, "\n"), line)
	}

	// A root deep down is shown by its end.
	deep := filepath.Join(root, strings.Repeat("a-directory-with-a-long-name/", 12))
	testtree.Write(t, deep, map[string]string{
		"resources_servers/plain/app.py":             plainServer,
		"resources_servers/plain/configs/plain.yaml": files["resources_servers/plain/configs/plain.yaml"],
	})
	_, errOut, _ = run(t, deep)
	if line := summaryLine(t, errOut); len(line) > 300 || !strings.Contains(line, "; root ...") {
		t.Errorf("a deep root: %d characters: %s", len(line), line)
	}
}

// TestStderrLinesShort: every line a check prints on stderr, on a
// repository whose framework predates the contract, is at most 300
// characters, and the contract's at most 200.
func TestStderrLinesShort(t *testing.T) {
	for _, gen := range []string{"gen1", "gen2"} {
		root := generation(t, gen, "", nil)
		t.Chdir(root)
		for _, args := range [][]string{{}, {"--fix"}, {"--diff"}, {"--verbose"}, {"--contract", "latest"}, {"--select", "GL101,GL302"}} {
			_, errOut, _ := run(t, args...)
			contract := 0
			for _, l := range strings.Split(strings.TrimSuffix(errOut, "\n"), "\n") {
				if len(l) > 300 {
					t.Errorf("%s %v: a stderr line of %d characters: %.400s", gen, args, len(l), l)
				}
				if strings.Contains(l, "not applied") || strings.Contains(l, "predates") {
					contract++
					if len(l) > 200 && !strings.HasPrefix(l, "gymlint:   ") {
						t.Errorf("%s %v: a contract line of %d characters: %s", gen, args, len(l), l)
					}
				}
			}
			if contract == 0 && (gen == "gen1" || len(args) == 0) {
				t.Errorf("%s %v: no contract line in\n%s", gen, args, errOut)
			}
		}
	}
}
