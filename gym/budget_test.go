package gym_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// TestDiagParseStopped checks that a module whose parse ran out of budget
// is reported as not analysed (GL002, saying which budget and what to do),
// never as a syntax error (GL001, "fix the syntax"): nothing is known of
// its syntax. The rest of the scan goes on.
func TestDiagParseStopped(t *testing.T) {
	// 128 KB of line continuations: the lexer scans the rest of the file
	// again for each token, and the file runs out of its own budget.
	continuations := strings.Repeat("\\\n", 64<<10)
	// 128 KB of dots: tree-sitter folds each into one ever wider ERROR
	// node, and runs out of processor time in few steps.
	dots := strings.Repeat(".", 128<<10)
	root := writeRepo(t, withHealthy(map[string]string{
		"resources_servers/cont/app.py": serverModule("Cont") + continuations,
		"resources_servers/dots/app.py": serverModule("Dots") + dots,
		// A real syntax error stays GL001.
		"resources_servers/broken/app.py": importSRS + "\n\nclass Broken(SimpleResourcesServer:\n    pass\n",
	}))
	v := build(t, root, gym.Options{})
	p := pyscan.NewParser(pyscan.Options{})
	defer p.Close()
	for _, c := range []struct{ path, want string }{
		{"resources_servers/cont/app.py", "ran out of the file's budget (" + strconv.FormatInt(p.FileBudget(len(serverModule("Cont")+continuations)), 10) + " steps, "},
		{"resources_servers/dots/app.py", "more processor time than its size allows"},
	} {
		d := findDiag(t, v, "GL002", c.path)
		if !strings.Contains(d.Message, "was not analysed") || !strings.Contains(d.Message, c.want) || d.Rule != "unreadable-file" {
			t.Errorf("%s: GL002 %q, want it to say %q", c.path, d.Message, c.want)
		}
		if d.Start.Line != 1 || d.Start.Col != 1 {
			t.Errorf("%s: at %d:%d", c.path, d.Start.Line, d.Start.Col)
		}
		noDiag(t, v, "GL001", c.path)
		if e := entry(t, v, c.path); len(e.Servers) != 0 {
			t.Errorf("%s: servers %v found in a file that was not parsed", c.path, serverNames(e))
		}
	}
	findDiag(t, v, "GL001", "resources_servers/broken/app.py")
	noDiag(t, v, "GL002", "resources_servers/broken/app.py")
	assertHealthy(t, v)
}

// TestScanParseBudget checks the budget that a view's parses share
// (Options.ParseBudget): the smallest entrypoints are parsed first, and the
// module it has no room for is reported as not analysed, with the flag
// that raises it; a Focus of the view (a rule run again on one entrypoint)
// shares the view's budget, not a new one; and a new view of the cache
// (the language server's next request) has a budget of its own and parses
// that module.
func TestScanParseBudget(t *testing.T) {
	// a is b and a comment: a little larger, about as dear to parse.
	a, b := serverModule("A")+"# the same server, a little larger\n", serverModule("B")
	// The budget pays for either parse, not for both.
	p := pyscan.NewParser(pyscan.Options{})
	var budget int64
	for _, src := range []string{a, b} {
		probe := pyscan.NewBudget(1 << 40)
		if m := p.ParseWithin("m.py", []byte(src), probe); m.SyntaxError != nil {
			t.Fatal(m.SyntaxError)
		}
		budget = max(budget, probe.Spent())
	}
	p.Close()
	root := writeRepo(t, map[string]string{
		"resources_servers/a/app.py": a,
		"resources_servers/b/app.py": b,
	})
	// One job: the entrypoints are parsed one at a time, the smaller, b,
	// first, although a sorts first.
	c, err := gym.NewCache(root, gym.Options{Jobs: 1, ParseBudget: budget})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	v := c.View(nil)
	noDiag(t, v, "GL002", "resources_servers/b/app.py")
	if got := serverNames(entry(t, v, "resources_servers/b/app.py")); !equalStrings(got, []string{"B"}) {
		t.Errorf("b's servers: %v", got)
	}
	d := findDiag(t, v, "GL002", "resources_servers/a/app.py")
	want := "the scan's parse budget of " + strconv.FormatInt(budget, 10) + " steps ran out before it was parsed"
	if !strings.Contains(d.Message, want) {
		t.Errorf("GL002 %q, want it to say %q", d.Message, want)
	}
	if d.Help != "raise --parse-budget to analyse it" {
		t.Errorf("GL002 help %q, want the --parse-budget remedy", d.Help)
	}
	noDiag(t, v, "GL001", "resources_servers/a/app.py")

	// A retry on a alone is part of the same scan: still no room.
	f := v.Focus([]string{"resources_servers/a/app.py"})
	findDiag(t, f, "GL002", "resources_servers/a/app.py")
	if e := entry(t, f, "resources_servers/a/app.py"); len(e.Servers) != 0 {
		t.Errorf("the focused view parsed a past the scan's budget")
	}

	// The next view has a budget of its own, and a is its only parse.
	w := c.View([]string{"resources_servers/a/app.py"})
	noDiag(t, w, "GL002", "resources_servers/a/app.py")
	if got := serverNames(entry(t, w, "resources_servers/a/app.py")); !equalStrings(got, []string{"A"}) {
		t.Errorf("a's servers in a new view: %v", got)
	}

	// A negative budget is no limit.
	u := build(t, root, gym.Options{Jobs: 1, ParseBudget: -1})
	noDiag(t, u, "GL002", "resources_servers/a/app.py")
}

// TestUnreadableHelp: a GL002 says what is wrong with the file, and its
// help what to do.
func TestUnreadableHelp(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/a/app.py": serverModule("A") + "x = '\x00'\n",
	})
	v := build(t, root, gym.Options{})
	d := findDiag(t, v, "GL002", "resources_servers/a/app.py")
	if d.Message != "resources_servers/a/app.py is binary (it contains a NUL byte) and was not read" {
		t.Errorf("GL002 message %q", d.Message)
	}
	if d.Help != "remove it, or rename it if it is not source" {
		t.Errorf("GL002 help %q", d.Help)
	}
}
