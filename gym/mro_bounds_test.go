package gym_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// chainModule is a module of n classes C0 ... C(n-1), each deriving from
// the one before; C0 derives from the framework's server base when
// server is set.
func chainModule(n int, server bool) string {
	var b strings.Builder
	b.WriteString(importSRS)
	if server {
		b.WriteString("\n\nclass C0(SimpleResourcesServer):\n    pass\n")
	} else {
		b.WriteString("\n\nclass C0:\n    pass\n")
	}
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "\n\nclass C%d(C%d):\n    pass\n", i, i-1)
	}
	return b.String()
}

const chainPath = "resources_servers/chain/app.py"

func chainView(t *testing.T, src string) *gym.View {
	t.Helper()
	return build(t, writeRepo(t, map[string]string{chainPath: src}), gym.Options{})
}

// The work of a chain grows linearly with its length: each class is
// entered once, and only the classes within the depth bound get an MRO
// (whose copies cost at most the bound squared in all).
func TestMROChainWorkIsLinear(t *testing.T) {
	d := int64(gym.MaxInheritanceDepth)
	var visits [2]int64
	for i, n := range []int{2000, 4000} {
		v := chainView(t, chainModule(n, true))
		visits[i], _ = gym.AncestryWork(v)
		_, steps := gym.AncestryWork(v)
		if visits[i] > int64(2*n) {
			t.Errorf("chain of %d: %d classes entered, want at most %d", n, visits[i], 2*n)
		}
		if steps > d*d {
			t.Errorf("chain of %d: %d C3 steps, want at most %d (the bound squared)", n, steps, d*d)
		}
	}
	if visits[1] > visits[0]*5/2 {
		t.Errorf("twice the chain took %d/%d = %.1f times the work", visits[1], visits[0], float64(visits[1])/float64(visits[0]))
	}

	// The same chain written the other way round (each class derives from
	// the next one): each class's search goes at most the bound deep.
	var b strings.Builder
	b.WriteString(importSRS)
	const n = 2000
	for i := 0; i < n-1; i++ {
		fmt.Fprintf(&b, "\n\nclass C%d(C%d):\n    pass\n", i, i+1)
	}
	fmt.Fprintf(&b, "\n\nclass C%d(SimpleResourcesServer):\n    pass\n", n-1)
	v := chainView(t, b.String())
	if got, _ := gym.AncestryWork(v); got > n*(d+2) {
		t.Errorf("reversed chain of %d: %d classes entered, want at most %d", n, got, n*(d+2))
	}
	// The last d classes are servers, each subclassed by the one before;
	// the others are beyond the bound.
	e := entry(t, v, chainPath)
	if len(e.Servers) != 0 || len(e.Undecided) != n-gym.MaxInheritanceDepth {
		t.Errorf("reversed chain: servers %v, %d undecided classes, want none and %d", serverNames(e), len(e.Undecided), n-gym.MaxInheritanceDepth)
	}
}

// Beyond the depth bound a class's ancestry is uncertain, not wrong: no
// MRO, no server class, the module's "undecided" classes, and one GL012
// at the first class beyond the bound.
func TestMROChainBeyondTheBound(t *testing.T) {
	const n = 600
	v := chainView(t, chainModule(n, true))
	m := module(t, v, chainPath)
	d := gym.MaxInheritanceDepth

	last := fmt.Sprintf("C%d", d-1) // d levels: C0 .. C(d-1)
	mro, ok := v.MRO(class(t, m, last))
	if !ok || len(mro) != d+1 || mro[len(mro)-1].Kind != gym.FrameworkServer {
		t.Errorf("MRO(%s): ok %v, %d entries, want %d ending in the framework base", last, ok, len(mro), d+1)
	}
	if !v.IsServerClass(class(t, m, last)) {
		t.Errorf("%s, %d levels deep, is not a server class", last, d)
	}
	first := fmt.Sprintf("C%d", d)
	for _, name := range []string{first, fmt.Sprintf("C%d", n-1)} {
		c := class(t, m, name)
		mro, ok := v.MRO(c)
		if ok || len(mro) > gym.MaxMROLength {
			t.Errorf("MRO(%s): ok %v with %d entries, want not ok and at most %d", name, ok, len(mro), gym.MaxMROLength)
		}
		if v.IsServerClass(c) {
			t.Errorf("%s beyond the bound is a server class", name)
		}
		if l := v.Lookup(c, method); !l.Uncertain || l.Found() {
			t.Errorf("Lookup(%s) = %+v, want uncertain", name, l)
		}
	}
	e := entry(t, v, chainPath)
	if len(e.Servers) != 0 || len(e.Undecided) != n-d {
		t.Errorf("servers %v, %d undecided; want none and %d", serverNames(e), len(e.Undecided), n-d)
	}
	ds := diagsOf(v, "GL012")
	if len(ds) != 1 {
		t.Fatalf("GL012 diagnostics:\n%s", dumpDiags(ds))
	}
	at := class(t, m, first).Class.NameSpan
	if ds[0].Path != chainPath || ds[0].Start.Offset != int(at.Start) ||
		!strings.Contains(ds[0].Message, fmt.Sprintf("class %s has more than %d levels", first, d)) ||
		!strings.Contains(ds[0].Message, fmt.Sprintf("%d other classes", n-d-1)) {
		t.Errorf("GL012 = %s:%d:%d %s", ds[0].Path, ds[0].Start.Line, ds[0].Start.Col, ds[0].Message)
	}
}

// chainModules is a chain of n modules, each with one class deriving from
// the previous module's, the first from the framework's server base, and
// an entrypoint whose server derives from the last.
func chainModules(n int) map[string]string {
	files := map[string]string{
		"resources_servers/deep/m0.py": importSRS + "\n\nclass K0(SimpleResourcesServer):\n    pass\n",
	}
	for i := 1; i < n; i++ {
		files[fmt.Sprintf("resources_servers/deep/m%d.py", i)] = fmt.Sprintf(
			"from resources_servers.deep.m%d import K%d\n\n\nclass K%d(K%d):\n    pass\n", i-1, i-1, i, i-1)
	}
	files["resources_servers/deep/app.py"] = fmt.Sprintf(
		"from resources_servers.deep.m%d import K%d\n\n\nclass DeepServer(K%d):\n    pass\n", n-1, n-1, n-1)
	return files
}

// Inheritance across more modules than the old bound of 24 is followed to
// the framework base; beyond gymlint's depth bound the entrypoint's class
// is undecided, not "no server class".
func TestMROChainAcrossModules(t *testing.T) {
	v := build(t, writeRepo(t, chainModules(30)), gym.Options{})
	e := entry(t, v, "resources_servers/deep/app.py")
	if got := serverNames(e); !equalStrings(got, []string{"DeepServer"}) || len(e.Undecided) != 0 {
		t.Errorf("30 modules deep: servers %v, undecided %d; want [DeepServer]", got, len(e.Undecided))
	}
	if mro, ok := v.MRO(e.Servers[0].Class); !ok || len(mro) != 32 {
		t.Errorf("MRO(DeepServer): ok %v, %d entries, want 32", ok, len(mro))
	}
	if ds := diagsOf(v, "GL012"); len(ds) != 0 {
		t.Errorf("GL012 for a chain within the bound:\n%s", dumpDiags(ds))
	}

	n := gym.MaxInheritanceDepth + 10
	v = build(t, writeRepo(t, chainModules(n)), gym.Options{})
	e = entry(t, v, "resources_servers/deep/app.py")
	if len(e.Servers) != 0 || len(e.Undecided) != 1 || e.Undecided[0].Class.Name != "DeepServer" {
		t.Errorf("%d modules deep: servers %v, undecided %v; want DeepServer undecided", n, serverNames(e), e.Undecided)
	}
	if got := v.ParsedModules(); got > gym.MaxInheritanceDepth+2 {
		t.Errorf("%d modules parsed; the search should stop at the bound (%d levels)", got, gym.MaxInheritanceDepth)
	}
	d := findDiag(t, v, "GL012", "resources_servers/deep/app.py")
	if !strings.Contains(d.Message, "class DeepServer has more than") {
		t.Errorf("GL012: %s", d.Message)
	}
}

func wantOneGL012(t *testing.T, v *gym.View) diag.Diagnostic {
	t.Helper()
	ds := diagsOf(v, "GL012")
	if len(ds) != 1 {
		t.Fatalf("want one GL012, have:\n%s", dumpDiags(v.Diagnostics()))
	}
	return ds[0]
}

func TestMROCycleReported(t *testing.T) {
	t.Run("one module", func(t *testing.T) {
		v := build(t, writeRepo(t, map[string]string{
			"resources_servers/cyc/app.py": importSRS + "\n\nclass A(B):\n    pass\n\n\nclass B(A):\n    pass\n\n\n" +
				"class S(A, SimpleResourcesServer):\n    pass\n",
		}), gym.Options{})
		d := wantOneGL012(t, v)
		m := module(t, v, "resources_servers/cyc/app.py")
		if d.Path != "resources_servers/cyc/app.py" || d.Start.Line != 4 || d.Start.Col != 7 {
			t.Errorf("GL012 at %s:%d:%d, want the class statement of A (4:7)", d.Path, d.Start.Line, d.Start.Col)
		}
		for _, want := range []string{"class A is its own ancestor (A(B), B(A))", "NameError"} {
			if !strings.Contains(d.Message, want) {
				t.Errorf("GL012 message %q lacks %q", d.Message, want)
			}
		}
		if d.Help != "make one of them stop deriving from the other" {
			t.Errorf("GL012 help %q, want the remedy of a cycle", d.Help)
		}
		if len(d.Related) != 1 || d.Related[0].Start.Offset != int(class(t, m, "B").Class.NameSpan.Start) {
			t.Errorf("related = %+v, want class B", d.Related)
		}
		// The server deriving from the cycle is a server, uncertain.
		e := entry(t, v, "resources_servers/cyc/app.py")
		if got := serverNames(e); !equalStrings(got, []string{"S"}) {
			t.Errorf("servers = %v", got)
		}
		if l := v.Lookup(e.Servers[0].Class, method); !l.Uncertain {
			t.Errorf("Lookup(S) certain through a cycle")
		}
	})
	t.Run("two modules and itself", func(t *testing.T) {
		v := build(t, writeRepo(t, map[string]string{
			"resources_servers/cyc/a.py":    "from resources_servers.cyc.b import B\n\n\nclass A(B):\n    pass\n",
			"resources_servers/cyc/b.py":    "from resources_servers.cyc.a import A\n\n\nclass B(A):\n    pass\n",
			"resources_servers/cyc/app.py":  importSRS + "from resources_servers.cyc.a import A\n\n\nclass S(A, SimpleResourcesServer):\n    pass\n",
			"resources_servers/cyc2/app.py": importSRS + "from resources_servers.cyc.b import B\n\n\nclass T(B, SimpleResourcesServer):\n    pass\n",
			"resources_servers/self/app.py": importSRS + "\n\nclass Me(Me):\n    pass\n",
		}), gym.Options{})
		ds := diagsOf(v, "GL012")
		if len(ds) != 2 {
			t.Fatalf("want two GL012 (the cycle once, though two servers reach it, and Me):\n%s", dumpDiags(v.Diagnostics()))
		}
		diag.Sort(ds)
		cyc, self := ds[0], ds[1]
		if cyc.Path != "resources_servers/cyc/a.py" || !strings.Contains(cyc.Message, "A(B), B(A)") || !strings.Contains(cyc.Message, "ImportError") {
			t.Errorf("cycle: %s: %s", cyc.Path, cyc.Message)
		}
		if len(cyc.Related) != 1 || cyc.Related[0].Path != "resources_servers/cyc/b.py" {
			t.Errorf("cycle related = %+v", cyc.Related)
		}
		if self.Path != "resources_servers/self/app.py" || !strings.Contains(self.Message, "class Me derives from itself") {
			t.Errorf("self: %s: %s", self.Path, self.Message)
		}
	})
	t.Run("uncertain", func(t *testing.T) {
		// Each of these names a base that Python may resolve otherwise:
		// nothing is reported, the MRO is still not given.
		v := build(t, writeRepo(t, map[string]string{
			"resources_servers/u/app.py": importSRS + "from resources_servers.u.lib import Me\n\n\n" +
				"class Me(Me):\n    pass\n\n\n" +
				"if True:\n    class P(Q):\n        pass\n\n\n    class Q(P):\n        pass\n\n\n" +
				"class S(Me, SimpleResourcesServer):\n    pass\n",
			"resources_servers/u/lib.py": "class Me:\n    pass\n",
		}), gym.Options{})
		if ds := diagsOf(v, "GL012"); len(ds) != 0 {
			t.Errorf("GL012 for uncertain cycles:\n%s", dumpDiags(ds))
		}
		m := module(t, v, "resources_servers/u/app.py")
		if _, ok := v.MRO(class(t, m, "Me")); ok {
			t.Errorf("MRO(Me) ok")
		}
	})
}

// The orders Python refuses with TypeError are reported at the class, and
// not at the classes deriving from it.
func TestMROInconsistentReported(t *testing.T) {
	v := build(t, writeRepo(t, map[string]string{
		"resources_servers/bad/app.py": importSRS + "\n\nclass O(SimpleResourcesServer):\n    pass\n\n\n" +
			"class A(O):\n    pass\n\n\nclass B(O):\n    pass\n\n\n" +
			"class X(A, B):\n    pass\n\n\nclass Y(B, A):\n    pass\n\n\nclass Z(X, Y):\n    pass\n\n\n" +
			"class Top(Z):\n    pass\n\n\n" +
			"class W(A, O):\n    pass\n\n\nclass V(O, A):\n    pass\n\n\nclass D(A, A):\n    pass\n",
	}), gym.Options{})
	m := module(t, v, "resources_servers/bad/app.py")
	got := map[string]string{}
	for _, d := range diagsOf(v, "GL012") {
		for _, c := range m.Classes {
			if int(c.NameSpan.Start) == d.Start.Offset {
				got[c.Name] = d.Message
			}
		}
	}
	if len(got) != 3 || len(diagsOf(v, "GL012")) != 3 {
		t.Fatalf("GL012 at %v, want Z, V and D:\n%s", got, dumpDiags(v.Diagnostics()))
	}
	for cls, want := range map[string]string{
		"Z": "consistent method resolution order for class Z: its bases require A and B each",
		"V": "for class V: its bases require O and A each",
		"D": "class D lists resources_servers.bad.app.A twice",
	} {
		if !strings.Contains(got[cls], want) {
			t.Errorf("GL012 at %s: %q, want %q", cls, got[cls], want)
		}
	}
}

// Python's builtin classes end a branch like a foreign class: a library
// module of exceptions is decided (no server class), while a base gymlint
// cannot resolve leaves its class undecided.
func TestBuiltinBasesAreDecided(t *testing.T) {
	v := build(t, writeRepo(t, map[string]string{
		"resources_servers/lib/errors.py": "class ToolError(Exception):\n    pass\n\n\nclass Plain(object):\n    pass\n",
		"resources_servers/lib/odd.py":    "class Odd(undefined_name):\n    pass\n",
		"resources_servers/lib/configs/lib.yaml": yamlServer("errs", "resources_servers", "lib", "errors.py") +
			yamlServer("odd", "resources_servers", "lib", "odd.py"),
		"resources_servers/mix/app.py": importSRS + "\n\nclass Mixin(object):\n    def " + method + "(self):\n        return \"no\"\n\n\n" +
			"class S(Exception, Mixin, SimpleResourcesServer):\n    pass\n",
	}), gym.Options{})
	if e := entry(t, v, "resources_servers/lib/errors.py"); len(e.Servers) != 0 || len(e.Undecided) != 0 {
		t.Errorf("errors.py: servers %v, undecided %v; want neither", serverNames(e), e.Undecided)
	}
	if e := entry(t, v, "resources_servers/lib/odd.py"); len(e.Undecided) != 1 {
		t.Errorf("odd.py: undecided %v, want Odd", e.Undecided)
	}
	e := entry(t, v, "resources_servers/mix/app.py")
	d := v.Lookup(e.Servers[0].Class, method)
	if !d.Found() || d.Uncertain || d.Class.Class.Name != "Mixin" {
		t.Errorf("Lookup(S) = %+v, want Mixin's override, certain", d)
	}
}

// A class with more bases than an MRO may hold is beyond the bound.
func TestMROTooLong(t *testing.T) {
	var b strings.Builder
	b.WriteString(importSRS)
	var names []string
	for i := 0; i < gym.MaxMROLength+10; i++ {
		fmt.Fprintf(&b, "\n\nclass B%d:\n    pass\n", i)
		names = append(names, fmt.Sprintf("B%d", i))
	}
	fmt.Fprintf(&b, "\n\nclass Wide(%s, SimpleResourcesServer):\n    pass\n", strings.Join(names, ", "))
	v := chainView(t, b.String())
	m := module(t, v, chainPath)
	if mro, ok := v.MRO(class(t, m, "Wide")); ok || len(mro) > gym.MaxMROLength {
		t.Errorf("MRO(Wide): ok %v with %d entries", ok, len(mro))
	}
	d := wantOneGL012(t, v)
	if !strings.Contains(d.Message, fmt.Sprintf("class Wide has a method resolution order of more than %d classes", gym.MaxMROLength)) {
		t.Errorf("GL012: %s", d.Message)
	}
}
