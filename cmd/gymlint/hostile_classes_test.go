package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Hostile class hierarchies: a chain of classes far deeper than any real
// code, in one module or across modules, classes that derive from each
// other, and bases Python cannot order. Each scan finishes within its
// bound, says what it could not follow (GL012), and still analyses the
// good server.

const importSRS = "from nemo_gym.base_resources_server import SimpleResourcesServer\n"

const chainConfig = "chain:\n  resources_servers:\n    chain:\n      entrypoint: app.py\n"

// classChain is a module of n classes, each deriving from the one before,
// the first from the framework's server base, and a server class at the
// end that derives from the last.
func classChain(n int) string {
	var b strings.Builder
	b.WriteString(importSRS)
	b.WriteString("\n\nclass C0(SimpleResourcesServer):\n    pass\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "\n\nclass C%d(C%d):\n    pass\n", i, i-1)
	}
	fmt.Fprintf(&b, "\n\nclass ChainServer(C%d):\n    pass\n", n-1)
	return b.String()
}

// A chain of 20,000 classes in one module. The old C3 was cubic: 1,000
// classes took 17 s and 2,000 did not finish in 600 s; this one takes
// about a second.
func TestHostileClassChain(t *testing.T) {
	const n = 20000
	dir := hostileRepo(t, map[string]string{
		"resources_servers/chain/app.py":             classChain(n),
		"resources_servers/chain/configs/chain.yaml": chainConfig,
	})
	o := bounded(t, dir, time.Minute, 500, ".")
	wantGood(t, o)
	// C256 is the first class with more than 256 levels of classes above
	// it (C0 is line 4; each class takes four lines).
	want := fmt.Sprintf("resources_servers/chain/app.py:%d:7: GL012 class C256 has more than 256 levels of repository classes above it", 4+4*256)
	if !strings.Contains(o.stdout, want) {
		t.Errorf("no %q in:\n%s", want, o.stdout)
	}
	if c := strings.Count(o.stdout, "GL012"); c != 1 {
		t.Errorf("%d GL012 findings, want one for the module", c)
	}
	if strings.Contains(o.stdout, "chain/app.py defines no server class") {
		t.Errorf("the chain module is said to define no server class:\n%s", o.stdout)
	}
}

// moduleChain writes a chain of n modules under resources_servers/<name>/,
// each with one class deriving from the previous module's, and an
// entrypoint whose server class derives from the last.
func moduleChain(files map[string]string, name string, n int) {
	pkg := "resources_servers." + name
	files["resources_servers/"+name+"/m0.py"] = importSRS + "\n\nclass K0(SimpleResourcesServer):\n    pass\n"
	for i := 1; i < n; i++ {
		files[fmt.Sprintf("resources_servers/%s/m%d.py", name, i)] = fmt.Sprintf(
			"from %s.m%d import K%d\n\n\nclass K%d(K%d):\n    pass\n", pkg, i-1, i-1, i, i-1)
	}
	files["resources_servers/"+name+"/app.py"] = fmt.Sprintf(
		"from %s.m%d import K%d\n\n\nclass DeepServer(K%d):\n    pass\n", pkg, n-1, n-1, n-1)
}

// Inheritance across 30 modules (the old bound was 24 levels, which ended
// in a wrong "defines no server class") is followed to the framework
// base; across 400 modules it is beyond the bound, which GL012 says, and
// GL101 does not claim there is no server class. The old binary said
// "defines no server class" of both.
func TestHostileClassChainAcrossModules(t *testing.T) {
	files := map[string]string{}
	moduleChain(files, "deep30", 30)
	moduleChain(files, "deep400", 400)
	dir := hostileRepo(t, files)
	o := bounded(t, dir, time.Minute, 500, ".")
	wantGood(t, o)
	for _, want := range []string{
		"resources_servers/deep30/app.py:4:7: GL101 server class DeepServer has neither",
		"resources_servers/deep400/app.py:4:7: GL012 class DeepServer has more than 256 levels of repository classes above it",
	} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("no %q in:\n%s", want, o.stdout)
		}
	}
	if strings.Contains(o.stdout, "defines no server class") {
		t.Errorf("a chain is said to define no server class:\n%s", o.stdout)
	}
	// The search stops at the bound: of the 433 modules, those more than
	// 256 levels above deep400's server are not parsed.
	m := regexp.MustCompile(`(\d+) Python modules parsed`).FindStringSubmatch(o.stderr + o.stdout)
	if m == nil {
		t.Fatalf("no summary in:\n%s", o.stderr)
	}
	if n, _ := strconv.Atoi(m[1]); n > 320 {
		t.Errorf("%d Python modules parsed; the ancestry search should stop at 256 levels", n)
	}
}

// Classes that derive from each other, in one module and across two
// modules that import each other, and an order C3 cannot merge: Python
// refuses each at import; gymlint reports each once (it said nothing).
func TestHostileClassCycles(t *testing.T) {
	dir := hostileRepo(t, map[string]string{
		"resources_servers/cyc/a.py": "from resources_servers.cyc.b import B\n\n\nclass A(B):\n    pass\n",
		"resources_servers/cyc/b.py": "from resources_servers.cyc.a import A\n\n\nclass B(A):\n    pass\n",
		"resources_servers/cyc/app.py": importSRS + "from resources_servers.cyc.a import A\n\n\n" +
			"class CycServer(A, SimpleResourcesServer):\n    pass\n\n\n" +
			"class P(Q):\n    pass\n\n\nclass Q(P):\n    pass\n\n\n" +
			"class O(SimpleResourcesServer):\n    pass\n\n\nclass X(O):\n    pass\n\n\nclass Y(O):\n    pass\n\n\n" +
			"class XY(X, Y):\n    pass\n\n\nclass YX(Y, X):\n    pass\n\n\nclass Z(XY, YX):\n    pass\n",
		"resources_servers/cyc2/app.py": importSRS + "from resources_servers.cyc.b import B\n\n\n" +
			"class OtherServer(B, SimpleResourcesServer):\n    pass\n",
	})
	o := bounded(t, dir, time.Minute, 500, ".")
	wantGood(t, o)
	for _, want := range []string{
		"resources_servers/cyc/a.py:4:7: GL012 class A is its own ancestor (A(B), B(A))",
		"resources_servers/cyc/app.py:9:7: GL012 class P is its own ancestor (P(Q), Q(P))",
		"resources_servers/cyc/app.py:37:7: GL012 Python cannot create a consistent method resolution order for class Z: its bases require X and Y each to come before the other",
	} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("no %q in:\n%s", want, o.stdout)
		}
	}
	// The cross-module cycle is reached from two entrypoints, reported once.
	if c := strings.Count(o.stdout, "GL012"); c != 3 {
		t.Errorf("%d GL012 findings, want 3:\n%s", c, o.stdout)
	}
}
