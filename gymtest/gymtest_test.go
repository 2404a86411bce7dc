package gymtest_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/gymtest"
)

var update = flag.Bool("update", false, "rewrite the goldens of testdata/src")

// recorder is a fake testing.T: it records what the harness reports.
type recorder struct {
	errors []string
	fatal  bool
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = true
	r.Errorf(format, args...)
}

// runCase checks testdata/src/<name> with a recorder.
func runCase(name string, analyzers []string, opts ...gymtest.Option) *recorder {
	r := &recorder{}
	gymtest.RunCase(r, filepath.Join("testdata", "src", name), analyzers, opts...)
	return r
}

// wantErrors fails unless r recorded exactly one failure containing each
// of the fragments lists, in order.
func wantErrors(t *testing.T, r *recorder, fragments ...[]string) {
	t.Helper()
	if len(r.errors) != len(fragments) {
		t.Fatalf("got %d failures, want %d:\n%s", len(r.errors), len(fragments), strings.Join(r.errors, "\n"))
	}
	for i, frags := range fragments {
		for _, f := range frags {
			if !strings.Contains(r.errors[i], f) {
				t.Errorf("failure %d lacks %q:\n%s", i, f, r.errors[i])
			}
		}
	}
}

var workers = []string{"workers"}

// The passing cases, through Run: expectations on the line, a `+N`, two
// files with related positions, a GL010 in a comment after a suppression,
// the settings' policy and exemptions, the framework overlay and a case's
// own framework module, and goldens.
func TestRunPassing(t *testing.T) {
	gymtest.Run(t, "testdata", workers, gymtest.Cases("pass", "settings", "golden-sections"))
	gymtest.Run(t, "testdata", []string{"rayenabled"}, gymtest.Cases("framework", "framework-replaced"),
		gymtest.Framework("testdata/framework"))
	gymtest.Run(t, "testdata", []string{"rayenabled"}, gymtest.Cases("golden-plain"))
}

func TestMissingExpectation(t *testing.T) {
	wantErrors(t, runCase("missing-want", workers),
		[]string{"testdata/src/missing-want/resources_servers/echo/app.py:5: no diagnostic was reported matching `GL106 unreachable`"})
}

func TestUnexpectedDiagnostic(t *testing.T) {
	wantErrors(t, runCase("unexpected", workers),
		[]string{"testdata/src/unexpected/resources_servers/echo/app.py:4:7: unexpected diagnostic: GL101 server class EchoServer has neither"})
}

func TestWrongRegexp(t *testing.T) {
	wantErrors(t, runCase("wrong-regexp", workers),
		[]string{"app.py:4:7: diagnostic \"GL101 server class EchoServer", "does not match pattern `GL102` or `late-worker`"},
		[]string{"app.py:4: no diagnostic was reported matching `GL102`"},
		[]string{"app.py:4: no diagnostic was reported matching `late-worker`"})
}

func TestRelated(t *testing.T) {
	wantErrors(t, runCase("related", workers),
		// The GL101 of app.py itself has no want.
		[]string{"app.py:4:7: unexpected diagnostic: GL101"},
		// Two `# related` on one line need two related positions.
		[]string{"echo/app.py:4: no related position was reported matching `is defined here` (those on this line match other # related)"},
		[]string{"echo/configs/echo.yaml:4: no related position was reported matching `names it as the entrypoint of another`",
			`on this line: "names it as the entrypoint of echo_lite" (of GL101 at resources_servers/echo/lite.py:4)`},
		[]string{"echo/lite.py:1: no related position was reported matching `anything` (none on this line)"})
}

func TestBadComments(t *testing.T) {
	wantErrors(t, runCase("bad-comment", workers),
		[]string{`app.py:1: in a "# want" comment: got "GL101", want a quoted regular expression`},
		[]string{`app.py:2: in a "# want" comment: error parsing regexp`},
		[]string{`app.py:3: in a "# want" comment: got "and more", want a quoted regular expression`})
}

// Core diagnostics are checked whatever the analyzers; other analyzers'
// are not.
func TestCoreAndOtherAnalyzers(t *testing.T) {
	wantErrors(t, runCase("core-and-others", []string{"sessions"}),
		[]string{"broken/app.py:1:12: unexpected diagnostic: GL001 syntax error"})
}

// Without the framework, the case's server is reported: the overlay is
// what the passing run read.
func TestFrameworkOverlay(t *testing.T) {
	wantErrors(t, runCase("framework", []string{"rayenabled"}),
		[]string{"srv/app.py:6:5: unexpected diagnostic: GL204", "the framework package was not found"})
}

func TestGoldenDiffers(t *testing.T) {
	wantErrors(t, runCase("golden-differs", []string{"rayenabled"}),
		[]string{"srv/app.py after the fixes differs from app.py.golden", "first difference at line 1", "from typing import ClassVar"})
}

func TestGoldenMissing(t *testing.T) {
	wantErrors(t, runCase("golden-missing", workers),
		[]string{`echo/app.py: fix "Override multiple_workers_unsupported_reason() to refuse several workers" of GL101 at resources_servers/echo/app.py:4 edits resources_servers/echo/app.py, which has no app.py.golden`})
}

// A section of a txtar golden that is wrong, and a message without its
// section.
func TestGoldenSections(t *testing.T) {
	dir, golden, data := sectionsCase(t)
	const app = "-- Add a module-level app (the server is safe with several workers) (unsafe) --\n"
	if !strings.HasPrefix(string(data), app) {
		t.Fatalf("golden does not start with the app section:\n%s", data)
	}
	// The override section kept, the app section's text changed.
	wrong := strings.Replace(string(data), "elif is_nemo_gym_fastapi_entrypoint(__file__):", "elif True:", 1)
	write(t, golden, wrong)
	wantErrors(t, runDir(dir), []string{`app.py after the fixes "Add a module-level app (the server is safe with several workers) (unsafe)" differs from its section in app.py.golden`})

	// Without the app section.
	_, override, _ := strings.Cut(string(data), "\n-- Override")
	write(t, golden, "-- Override"+override)
	wantErrors(t, runDir(dir), []string{`app.py.golden: no section "Add a module-level app (the server is safe with several workers) (unsafe)", but fix "Add a module-level app`})
}

// -update writes the goldens: an empty one in sections, since its fixes
// have two messages.
func TestUpdate(t *testing.T) {
	dir, golden, want := sectionsCase(t)
	write(t, golden, "")
	setUpdate(t)
	wantErrors(t, runDir(dir))
	if got, _ := os.ReadFile(golden); string(got) != string(want) {
		t.Errorf("-update wrote\n%s\nwant\n%s", got, want)
	}
}

func setUpdate(t *testing.T) {
	t.Helper()
	if err := flag.Set("update", "true"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { flag.Set("update", fmt.Sprint(*update)) })
}

// sectionsCase copies the golden-sections case to a temporary directory
// and returns it, its golden's path and the golden.
func sectionsCase(t *testing.T) (dir, golden string, data []byte) {
	t.Helper()
	dir = copyCase(t, "golden-sections")
	golden = filepath.Join(dir, "resources_servers", "echo", "app.py.golden")
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	return dir, golden, data
}

// runDir checks the case at dir with the workers analyzer.
func runDir(dir string) *recorder {
	r := &recorder{}
	gymtest.RunCase(r, dir, workers)
	return r
}

// copyCase copies testdata/src/<name> to a temporary directory.
func copyCase(t *testing.T, name string) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(filepath.Join("testdata", "src", name))); err != nil {
		t.Fatal(err)
	}
	return dst
}

func write(t *testing.T, p, data string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRunWithoutCases(t *testing.T) {
	r := &recorder{}
	gymtest.RunCase(r, filepath.Join("testdata", "src", "no-such-case"), workers)
	if !r.fatal {
		t.Errorf("a missing case directory did not fail: %v", r.errors)
	}
}
