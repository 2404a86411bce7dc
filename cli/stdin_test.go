package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/goanalysis"
)

// runStdin is run with input as standard input.
func runStdin(t *testing.T, input string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	old := stdin
	stdin = strings.NewReader(input)
	defer func() { stdin = old }()
	var o, e bytes.Buffer
	code = Main(args, &o, &e)
	return o.String(), e.String(), code
}

const echoConfig = "echo:\n  resources_servers:\n    echo:\n      entrypoint: app.py\n      domain: other\n"

// TestStdinFilename checks --stdin-filename PATH: the repository is checked
// with standard input in place of PATH, and what is reported is what
// `gymlint PATH` reports once the buffer is saved, byte for byte, with the
// same exit status; the file on disk is never read for it nor written.
func TestStdinFilename(t *testing.T) {
	const app = "resources_servers/echo/app.py"
	root := writeTree(t, map[string]string{
		app: cleanServer,
		"resources_servers/echo/configs/echo.yaml": echoConfig,
		"resources_servers/echo/requirements.txt":  "fastapi\n",
	})
	// From the server's directory, with a relative PATH, as an editor may.
	t.Chdir(filepath.Join(root, "resources_servers", "echo"))
	saved := func(content string, args ...string) (string, string, int) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, app), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.WriteFile(filepath.Join(root, app), []byte(cleanServer), 0o644)
		return run(t, args...)
	}

	// A buffer that adds a finding the disk's file does not have.
	out, errOut, code := runStdin(t, plainServer, "--stdin-filename", "app.py")
	if code != ExitFindings || !strings.HasPrefix(out, "app.py:4:7: GL101 server class PlainServer") {
		t.Errorf("a buffer with a finding: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "gymlint: 1 finding in resources_servers/echo/app.py; root ") {
		t.Errorf("the summary does not name PATH: %q", errOut)
	}
	for _, format := range []string{"text", "json", "sarif"} {
		got, _, code := runStdin(t, plainServer, "--stdin-filename", "app.py", "--format", format, "--quiet")
		want, _, wantCode := saved(plainServer, "--format", format, "--quiet", "app.py")
		if got != want || code != wantCode {
			t.Errorf("--format %s: exit %d, stdout\n%s\nwant what gymlint app.py gives once saved (exit %d):\n%s", format, code, got, wantCode, want)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, app)); string(b) != cleanServer {
		t.Errorf("the file on disk changed:\n%s", b)
	}

	// A buffer that fixes the disk's finding.
	if err := os.WriteFile(filepath.Join(root, app), []byte(plainServer), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := runStdin(t, cleanServer, "--stdin-filename", "app.py"); code != ExitClean || out != "" {
		t.Errorf("a buffer without the disk's finding: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if out, _, code := run(t, "app.py"); code != ExitFindings || out == "" {
		t.Errorf("the disk's file: exit %d, stdout %q; want its finding", code, out)
	}

	// A new file, in a new directory: the walk takes it from the overlay.
	t.Chdir(root)
	const fresh = "resources_servers/fresh/app.py"
	out, errOut, code = runStdin(t, plainServer, "--stdin-filename", fresh, "-")
	if code != ExitFindings || !strings.HasPrefix(out, fresh+":4:7: GL101") || strings.Contains(out, app) {
		t.Errorf("a new file: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(root, "resources_servers", "fresh")); err == nil {
		t.Error("the new file's directory was made")
	}
	// An absolute PATH from elsewhere finds its root, as gymlint PATH does.
	t.Chdir(t.TempDir())
	if out, _, code := runStdin(t, plainServer, "--stdin-filename", filepath.Join(root, fresh), "--format", "json"); code != ExitFindings ||
		!strings.Contains(out, `"path": "`+fresh+`"`) {
		t.Errorf("an absolute PATH: exit %d, stdout %s", code, out)
	}

	// The read is bounded by the largest file gymlint reads.
	if out, errOut, code := runStdin(t, plainServer, "--stdin-filename", filepath.Join(root, app), "--max-file-size", "100"); code != ExitError || out != "" ||
		!strings.Contains(errOut, "is larger than 100 bytes, the largest file gymlint reads") {
		t.Errorf("a buffer over --max-file-size: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	// Usage errors.
	outside := filepath.Join(t.TempDir(), "elsewhere.py")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--root", root, "--stdin-filename", outside}, "--stdin-filename " + outside + " is outside the repository root " + root},
		{[]string{"--root", root, "--stdin-filename", root}, "is a directory"},
		{[]string{"--root", root, "--stdin-filename", filepath.Join(root, "resources_servers")}, "is a directory"},
		{[]string{"--stdin-filename", filepath.Join(root, app), root}, "give no PATH (or -), not " + root},
		{[]string{"--stdin-filename", filepath.Join(root, app), "--pre-commit"}, "cannot be combined with --pre-commit"},
		{[]string{"--stdin-filename", filepath.Join(root, app), "--new-from-rev", "HEAD"}, "--new-from-rev reads the changed lines of the files on disk"},
	} {
		out, errOut, code := runStdin(t, plainServer, tc.args...)
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		if code != ExitError || out != "" || len(lines) != 2 || !strings.Contains(lines[0], tc.msg) || lines[1] != "Run 'gymlint --help' for usage." {
			t.Errorf("%v: exit %d, stdout %q, stderr\n%s\nwant a usage error with %q", tc.args, code, out, errOut, tc.msg)
		}
	}
}

// TestStdinFilenameFix checks --fix and --diff with --stdin-filename: the
// fixed buffer goes to stdout (ruff's way) and what is left to stderr; the
// file on disk is left as it is.
func TestStdinFilenameFix(t *testing.T) {
	root := outputsRepo(t)
	const app = "resources_servers/srv/app.py"
	disk := readFile(t, filepath.Join(root, app))
	buffer := strings.Replace(disk, "class Srv(", "# an unsaved edit\nclass Srv(", 1)
	t.Chdir(root)

	// No fix taken (GL101's are unsafe): the buffer as it is, the finding
	// on stderr.
	out, errOut, code := runStdin(t, buffer, "--fix", "--stdin-filename", app)
	if code != ExitFindings || out != buffer || !strings.Contains(errOut, app+":5:7: GL101") {
		t.Errorf("--fix without a safe fix: exit %d, stdout\n%s\nstderr %q", code, out, errOut)
	}
	out, errOut, code = runStdin(t, buffer, "--fix", "--unsafe-fixes", "--stdin-filename", app)
	if code != ExitClean || !strings.Contains(out, "# an unsaved edit\nclass Srv(") ||
		!strings.Contains(out, "elif is_nemo_gym_fastapi_entrypoint(__file__):") || !strings.Contains(errOut, "gymlint: applied 1 fix to the buffer of "+app+", printed on stdout") {
		t.Errorf("--fix --unsafe-fixes: exit %d, stdout\n%s\nstderr %q", code, out, errOut)
	}
	// The output is the buffer fixed: checked again, it has no finding.
	if again, _, code := runStdin(t, out, "--stdin-filename", app); code != ExitClean || again != "" {
		t.Errorf("the fixed buffer checked again: exit %d, %q", code, again)
	}
	// --output-file takes the findings; stdout keeps the buffer.
	file := filepath.Join(t.TempDir(), "findings.json")
	out, _, code = runStdin(t, buffer, "--fix", "--stdin-filename", app, "--format", "json", "--output-file", file)
	if code != ExitFindings || out != buffer || !strings.Contains(readFile(t, file), `"code": "GL101"`) {
		t.Errorf("--fix --output-file: exit %d, stdout %q, file %q", code, out, readFile(t, file))
	}
	// --diff: the buffer's fixes as a diff of the file.
	out, _, code = runStdin(t, buffer, "--diff", "--unsafe-fixes", "--stdin-filename", app)
	if code != ExitFindings || !strings.HasPrefix(out, "--- a/"+app+"\n+++ b/"+app+"\n") || !strings.Contains(out, " # an unsaved edit\n") {
		t.Errorf("--diff: exit %d, stdout\n%s", code, out)
	}
	if readFile(t, filepath.Join(root, app)) != disk {
		t.Error("the file on disk changed")
	}
}

// TestStdinFilenameGo checks that the Go side reads the buffer too.
func TestStdinFilenameGo(t *testing.T) {
	withGoAnalyzers(t, goanalysis.Analyzers...)
	const whole = `package whole

import "net/http"

func h(w http.ResponseWriter, r *http.Request) {}

func Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", h)
	mux.HandleFunc("POST /close_session", h)
	mux.HandleFunc("POST /verify", h)
}
`
	root := writeTree(t, map[string]string{
		".gymlint.yaml":         "",
		"native/go.mod":         "module example.com/native\n\ngo 1.22\n",
		"native/whole/whole.go": whole,
	})
	t.Chdir(root)
	if out, errOut, code := run(t, "--quiet", "."); code != ExitClean {
		t.Fatalf("on disk: exit %d, %s %s", code, out, errOut)
	}
	half := strings.Replace(whole, "\tmux.HandleFunc(\"POST /verify\", h)\n", "", 1)
	out, errOut, code := runStdin(t, half, "--quiet", "--stdin-filename", "native/whole/whole.go")
	if code != ExitFindings || !strings.HasPrefix(out, "native/whole/whole.go:8:") || !strings.Contains(out, "GL014") {
		t.Errorf("a Go buffer: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
