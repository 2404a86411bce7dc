package gosessions_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/gymlint/gymlint/analyzers/gohelp/gohelptest"
	"github.com/gymlint/gymlint/analyzers/gosessions"
	"github.com/gymlint/gymlint/diag"
)

// analyzer is gosessions with each diagnostic's help in its message, so
// that a `// want` pattern checks both ("MESSAGE help: HELP").
var analyzer = gohelptest.InMessage(gosessions.Analyzer)

// TestAnalyzer runs the analyzer over the fixtures without suggested fixes.
// testdata/src/nativeserver is the example server of examples/nativeserver
// (a symbolic link) and must produce no diagnostic; the others have their
// expectations in // want comments:
//
//   - quiet: shapes that keep the contract or that the analyzer cannot
//     judge (a locking wrapper, TryLock, a literal passed to a helper, a
//     retryable 5xx, a masked answer built by a helper, fences kept in a
//     set type and a sync.Map, a request-local value of a shared type);
//   - lockhelpers: locks taken and released through helpers, a channel
//     semaphore;
//   - lockflow: the lock dataflow through branches, loops, switches,
//     literals called in place, and a helper whose callers disagree;
//   - closenofence (GL351) and unlocked (GL354): broken variants of the
//     example server, built from testdata/variants.txt (see testData);
//   - methodserver: GL354 on a server recognised by its methods, with
//     package-level state;
//   - seedfences: GL350's conflicts told by the fences gostate finds (a
//     hand-rolled set of closed ids), not by a callee's name.
func TestAnalyzer(t *testing.T) {
	results := analysistest.Run(t, testData(t), analyzer,
		"nativeserver", "quiet", "lockhelpers", "lockflow", "closenofence", "unlocked", "methodserver",
		"fencebysession", "fencelookalike", "fenceshapes", "seedfences")

	// Every diagnostic names its rule and links its page; a helper reached
	// without the lock points at the call that does not hold it.
	unlockedCall := lineOf(t, filepath.Join("testdata", "src", "lockflow", "server.go"), `s.bump(r.FormValue("id"))`)
	related := false
	for _, r := range results {
		for _, d := range r.Diagnostics {
			rule := ruleOf(d.Category)
			if rule == nil || d.URL != rule.URL() {
				t.Errorf("%s: category %q, URL %q", d.Message, d.Category, d.URL)
			}
			pos := r.Action.Package.Fset.Position(d.Pos)
			if filepath.Base(filepath.Dir(pos.Filename)) != "lockflow" || !strings.Contains(d.Message, "is written") || pos.Line > 50 {
				continue
			}
			for _, rel := range d.Related {
				if rel.Message == "called here without the lock" && r.Action.Package.Fset.Position(rel.Pos).Line == unlockedCall {
					related = true
				}
			}
		}
	}
	if !related {
		t.Error("the finding in lockflow's bump does not point at the unlocked call in b")
	}
}

// lineOf returns the 1-based line of the first occurrence of text in a file.
func lineOf(t *testing.T, path, text string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte(text))
	if i < 0 {
		t.Fatalf("%s has no %q", path, text)
	}
	return bytes.Count(data[:i], []byte("\n")) + 1
}

func ruleOf(code string) *diag.Rule {
	for _, r := range gosessions.Rules {
		if r.Code == code {
			return r
		}
	}
	return nil
}

// TestSuggestedFixes runs the fixtures whose findings have suggested fixes
// and compares the fixed files with their .golden files:
//
//   - seed500 (GL350 in a variant of the example: 422 for bad input, 409
//     for a conflict; a capacity 503 stays);
//   - seedshapes (GL350: io.ReadAll, the else of err == nil, strconv, a
//     tagless switch, a fence check, net/http imported under another name);
//   - verifyunmasked (GL352 in a variant of the example: a multi-line
//     struct literal gains MaskSample: true);
//   - toolstatus (GL353 in a variant of the example: a 400 and an explicit
//     200);
//   - litserver (function-literal handlers over captured maps: GL350,
//     GL352 on a map literal, GL351, GL354);
//   - rwlock (RWMutex, a lookup helper, a switch, an else-if and an
//     if-ok-return branch: GL352 replacing MaskSample: false, GL353, GL354
//     for a write under RLock);
//   - syncmap (sessions in a sync.Map: GL351 on Delete, GL352, GL353).
func TestSuggestedFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testData(t), analyzer,
		"seed500", "verifyunmasked", "toolstatus", "litserver", "rwlock", "syncmap", "seedshapes")
}

// TestCleanFixtureIsTheExample checks that the clean fixture is the example
// server, byte for byte.
func TestCleanFixtureIsTheExample(t *testing.T) {
	fixture, err := os.ReadFile(filepath.Join("testdata", "src", "nativeserver", "server.go"))
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile(filepath.Join("..", "..", "examples", "nativeserver", "server.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fixture, example) {
		t.Error("testdata/src/nativeserver/server.go differs from examples/nativeserver/server.go")
	}
}

func TestRules(t *testing.T) {
	want := map[string]string{
		"GL350": "go-seed-server-error",
		"GL351": "go-close-without-fence",
		"GL352": "go-lost-session-scored",
		"GL353": "go-lost-session-status",
		"GL354": "go-unlocked-session-map",
	}
	if len(gosessions.Rules) != len(want) {
		t.Errorf("%d rules, want %d", len(gosessions.Rules), len(want))
	}
	for i, r := range gosessions.Rules {
		if want[r.Code] != r.Name {
			t.Errorf("rule %s is named %q, want %q", r.Code, r.Name, want[r.Code])
		}
		if i > 0 && gosessions.Rules[i-1].Code >= r.Code {
			t.Errorf("rules are not in code order at %s", r.Code)
		}
		if r.Analyzer != "sessions" || r.Severity != "error" || r.Summary == "" {
			t.Errorf("%s: metadata %+v", r.Code, r)
		}
		for _, h := range []string{"## What it does", "## Why it matters", "## Example", "## How to fix", "```go"} {
			if !strings.Contains(r.Doc, h) {
				t.Errorf("%s: doc lacks %q", r.Code, h)
			}
		}
		if !strings.HasPrefix(r.URL(), gosessions.Analyzer.URL+"#") {
			t.Errorf("%s: URL %s is not under the analyzer's %s", r.Code, r.URL(), gosessions.Analyzer.URL)
		}
	}
}
