package main

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// Hostile syntax: valid Python that tree-sitter-python (or a depth bound
// that counted the wrong thing) once read as a syntax error, so GL001 hid
// every rule of the module, and nesting deep enough to be a real one. Each
// server module sits beside the good server; its class has no refusal, so
// GL101 reports it at the class's line when the module parses.

// hostileServer is the module of server class HServer with prefix (code
// before the class, lines ending "\n") at its top: its lines with line
// ends made nl, and the line and column GL101 reports the class at.
// runGuard starts HServer, as a server's entrypoint does (a module that
// runs no server is not held to GL101).
const runGuard = "\n\nif __name__ == \"__main__\":\n    HServer.run_webserver()\n"

func hostileServer(prefix, nl string) (string, string) {
	head := "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\n" + prefix + "\n\n"
	line := strings.Count(head, "\n") + 1
	src := head + "class HServer(SimpleResourcesServer):\n    async def verify(self, body):\n        return body\n" + runGuard
	return strings.ReplaceAll(src, "\n", nl), "resources_servers/h/app.py:" + strconv.Itoa(line) + ":7: GL101"
}

func hostileServerRepo(t *testing.T, src string) string {
	return hostileRepo(t, map[string]string{
		"resources_servers/h/app.py":           src,
		"resources_servers/h/configs/h.yaml":   "h:\n  resources_servers:\n    h:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/h/requirements.txt": "fastapi\n",
	})
}

// terms returns prefix0 op prefix1 op ... prefix(n-1).
func terms(prefix, op string, n int) string {
	ts := make([]string, n)
	for i := range ts {
		ts[i] = prefix + strconv.Itoa(i)
	}
	return strings.Join(ts, op)
}

// TestHostileValidSyntax: valid Python that CPython compiles is no GL001,
// and the module's rules run (GL101 at the class's line, counted as CPython
// counts lines).
func TestHostileValidSyntax(t *testing.T) {
	for _, tc := range []struct {
		name, prefix, nl string
		line             int // of the class, when not where hostileServer counts it
	}{
		// A bracketed expression continuing at a lower indent.
		{"bracket continuation", "def helper(bar):\n    x = (bar.\nbaz)\n    return [x,\n# c\n1 +\n2]", "\n", 0},
		// Lone CR line ends, and a mix of the three: GL101 must be at
		// the class's line as CPython (and an editor) counts lines.
		{"lone CR", "# note\nX = 1\ndef helper():\n    '''doc\n    more'''\n    return (X,\n2)", "\r", 0},
		// 13 line ends in the prefix (CPython's count): the class is on line 3+13+2+1.
		{"mixed line ends", "A = 1\r\nB = 2\rC = 3\nif A:\r\n    D = '''x\ry\r\nz\n'''  # e\r    E = A + \\\rB\r\r\n\n\rF = 4", "\n", 19},
		// Left-deep operator chains CPython compiles.
		{"1,500-term or", "FLAG = " + terms("x", " or ", 1500), "\n", 0},
		{"1,100-term sum", "TOTAL = " + terms("y", " + ", 1100), "\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, want := hostileServer(tc.prefix, tc.nl)
			if tc.line > 0 {
				want = "resources_servers/h/app.py:" + strconv.Itoa(tc.line) + ":7: GL101"
			}
			o := bounded(t, hostileServerRepo(t, src), time.Minute, 300, ".")
			wantGood(t, o)
			if strings.Contains(o.stdout, "GL001") {
				t.Errorf("GL001 on valid Python:\n%s", o.stdout)
			}
			if !strings.Contains(o.stdout, want) {
				t.Errorf("no %s:\n%s", want, o.stdout)
			}
		})
	}
}

// TestHostileDeepNesting: nesting deeper than CPython takes (it stops at
// 200 brackets), and chains longer than pyscan walks, are GL001 with a
// message that says so, in bounded time and memory, and the good server is
// still analysed.
func TestHostileDeepNesting(t *testing.T) {
	const n = 100000
	for _, tc := range []struct{ name, prefix string }{
		{"parentheses", "X = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n)},
		{"lists", "X = " + strings.Repeat("[", n) + strings.Repeat("]", n)},
		{"calls", "X = " + strings.Repeat("f(", n) + strings.Repeat(")", n)},
		{"nots", "X = " + strings.Repeat("not ", n) + "a"},
		// Longer than maxNesting links: the walk of the chain stops there
		// (walked to its end, a 300,000-term `or` held about 480 MB).
		{"300,000-term or", "X = a" + strings.Repeat(" or a", 3*n)},
		{"300,000-term sum", "X = a" + strings.Repeat(" + a", 3*n)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, _ := hostileServer(tc.prefix, "\n")
			o := bounded(t, hostileServerRepo(t, src), time.Minute, 400, ".")
			wantGood(t, o)
			if !strings.Contains(o.stdout, "resources_servers/h/app.py:4:") || !strings.Contains(o.stdout, ": GL001 syntax error: too deeply nested") {
				t.Errorf("no GL001 on line 4 of the deep module:\n%s", o.stdout)
			}
		})
	}
}

// TestHostileLoneCRSuppression: a suppression comment in a lone-CR file
// covers the line below it as CPython counts lines, the line GL101 is
// reported at.
func TestHostileLoneCRSuppression(t *testing.T) {
	src := strings.ReplaceAll("from nemo_gym.base_resources_server import SimpleResourcesServer\n\nX = (1,\n2)\n\n\n"+
		"# gymlint: ignore[GL101] started by a factory with one worker\n"+
		"class HServer(SimpleResourcesServer):\n    async def verify(self, body):\n        return body\n"+runGuard, "\n", "\r")
	o := bounded(t, hostileServerRepo(t, src), time.Minute, 300, ".")
	wantGood(t, o)
	if strings.Contains(o.stdout, "resources_servers/h/") {
		t.Errorf("the suppressed module has findings:\n%s", o.stdout)
	}
}
