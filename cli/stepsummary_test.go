package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The tests never write a real runner's step summary (the github golden
// runs the CLI too).
func init() { os.Unsetenv("GITHUB_STEP_SUMMARY") }

// TestGitHubStepSummary checks --format github with $GITHUB_STEP_SUMMARY:
// the Markdown summary is appended after what the file held, and a file
// that cannot be opened is said on stderr without changing the exit status.
func TestGitHubStepSummary(t *testing.T) {
	root := writeTree(t, map[string]string{"resources_servers/plain/app.py": plainServer})
	summary := filepath.Join(t.TempDir(), "summary.md")
	if err := os.WriteFile(summary, []byte("## earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	out, errOut, code := run(t, "--format", "github", root)
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d: %s", code, ExitFindings, errOut)
	}
	if !strings.Contains(out, "::error file=resources_servers/plain/app.py") ||
		!strings.HasSuffix(out, "::notice title=gymlint summary::1 finding: 1 error, 0 warnings, 0 info; GL101 undeclared-workers (error) 1\n") {
		t.Errorf("annotations and summary notice:\n%s", out)
	}
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	want := "## earlier step\n### gymlint\n\n1 finding: 1 error, 0 warnings, 0 info.\n\n| Rule | Name | Severity | Findings |\n|---|---|---|---:|\n| `GL101` | undeclared-workers | error | 1 |\n\n"
	if string(b) != want {
		t.Errorf("step summary file:\n%s\nwant\n%s", b, want)
	}

	// Other formats leave the file alone.
	if _, _, code := run(t, "--format", "json", root); code != ExitFindings {
		t.Fatalf("json: exit %d", code)
	}
	if b2, _ := os.ReadFile(summary); string(b2) != want {
		t.Errorf("--format json wrote the step summary:\n%s", b2)
	}

	// A step summary that cannot be written: said, exit status unchanged.
	t.Setenv("GITHUB_STEP_SUMMARY", t.TempDir()) // a directory
	out, errOut, code = run(t, "--format", "github", root)
	if code != ExitFindings || !strings.Contains(errOut, "GITHUB_STEP_SUMMARY") || !strings.Contains(out, "gymlint summary") {
		t.Errorf("unwritable summary: exit %d, stderr %q, stdout %q", code, errOut, out)
	}
}
