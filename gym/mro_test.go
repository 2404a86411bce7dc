package gym_test

import (
	"testing"
	"time"

	"github.com/gymlint/gymlint/gym"
)

const method = "multiple_workers_unsupported_reason"

const srsName = "nemo_gym.base_resources_server.SimpleResourcesServer"

func TestMRODiamond(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/dia/o.py": importSRS + "\n\nclass O(SimpleResourcesServer):\n    pass\n",
		"resources_servers/dia/a.py": "from resources_servers.dia.o import O\n\n\nclass A(O):\n    pass\n",
		"resources_servers/dia/b.py": "from resources_servers.dia.o import O\n\n\nclass B(O):\n" +
			"    def " + method + "(self):\n        return \"b\"\n",
		"resources_servers/dia/app.py": "from resources_servers.dia.a import A\nfrom resources_servers.dia.b import B\n\n\n" +
			"class D(A, B):\n    pass\n\n\nclass E(B, A):\n    pass\n\n\nclass Top(D):\n    pass\n",
	})
	v := build(t, root, gym.Options{})
	m := module(t, v, "resources_servers/dia/app.py")
	for _, c := range []struct {
		cls  string
		want []string
	}{
		{"D", []string{"D", "A", "B", "O", srsName}},
		{"E", []string{"E", "B", "A", "O", srsName}},
		{"Top", []string{"Top", "D", "A", "B", "O", srsName}},
	} {
		mro, ok := v.MRO(class(t, m, c.cls))
		if got := mroNames(mro); !ok || !equalStrings(got, c.want) {
			t.Errorf("MRO(%s) = %v (ok %v), want %v", c.cls, got, ok, c.want)
		}
		if mro[len(mro)-1].Kind != gym.FrameworkServer {
			t.Errorf("MRO(%s) ends in kind %v", c.cls, mro[len(mro)-1].Kind)
		}
		for _, a := range mro[:len(mro)-1] {
			if a.Kind != gym.Own {
				t.Errorf("MRO(%s): %v is kind %v, want Own", c.cls, mroNames([]gym.Ancestor{a}), a.Kind)
			}
		}
	}
	// B's override is reached through the diamond, before the framework.
	d := v.Lookup(class(t, m, "D"), method)
	if !d.Found() || d.Class.Class.Name != "B" || d.Method == nil || d.Uncertain {
		t.Errorf("Lookup(D) = %+v, want found on B", d)
	}
	if got := serverNames(entry(t, v, "resources_servers/dia/app.py")); !equalStrings(got, []string{"E", "Top"}) {
		t.Errorf("servers = %v, want [E Top]", got)
	}
}

// Ancestor.Name is documented as the class's dotted name; the first entry
// (the class itself) should carry it like the others.
func TestMROEntriesCarryNames(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/n/app.py": importSRS + "\n\nclass Base(SimpleResourcesServer):\n    pass\n\n\nclass Leaf(Base):\n    pass\n",
	})
	v := build(t, root, gym.Options{})
	m := module(t, v, "resources_servers/n/app.py")
	mro, _ := v.MRO(class(t, m, "Leaf"))
	want := []string{"resources_servers.n.app.Leaf", "resources_servers.n.app.Base", srsName}
	var got []string
	for _, a := range mro {
		got = append(got, a.Name)
	}
	if !equalStrings(got, want) {
		t.Errorf("MRO names = %q, want %q", got, want)
	}
}

func TestLookupMixinOrder(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/mix/mixin.py": "class RankerMixin:\n    def " + method + "(self):\n        return \"ranker\"\n",
		"resources_servers/mix/app.py": importSRS + "from resources_servers.mix.mixin import RankerMixin\n\n\n" +
			"class Good(RankerMixin, SimpleResourcesServer):\n    pass\n\n\n" +
			"class Wrong(SimpleResourcesServer, RankerMixin):\n    pass\n",
	})
	v := build(t, root, gym.Options{})
	m := module(t, v, "resources_servers/mix/app.py")

	good := v.Lookup(class(t, m, "Good"), method)
	if !good.Found() || good.Class.Class.Name != "RankerMixin" || good.Method == nil || good.ShadowedBy != nil || good.Uncertain {
		t.Errorf("Lookup(Good) = %+v, want found on RankerMixin", good)
	}
	if good.Class.Module == nil || good.Class.Module.Path != "resources_servers/mix/mixin.py" {
		t.Errorf("Lookup(Good) module = %+v", good.Class.Module)
	}

	wrong := v.Lookup(class(t, m, "Wrong"), method)
	if wrong.Found() {
		t.Errorf("Lookup(Wrong) found %+v; the framework base comes first", wrong.Class)
	}
	if wrong.ShadowedBy == nil || wrong.ShadowedBy.Kind != gym.FrameworkServer || wrong.ShadowedBy.Name != srsName {
		t.Errorf("ShadowedBy = %+v", wrong.ShadowedBy)
	}
	if wrong.Shadowed == nil || wrong.Shadowed.Class.Class == nil || wrong.Shadowed.Class.Class.Name != "RankerMixin" || wrong.Shadowed.Method == nil {
		t.Errorf("Shadowed = %+v, want RankerMixin's method", wrong.Shadowed)
	}
	if wrong.Uncertain {
		t.Errorf("Lookup(Wrong) is Uncertain")
	}
	mro, ok := v.MRO(class(t, m, "Wrong"))
	if got := mroNames(mro); !ok || !equalStrings(got, []string{"Wrong", srsName, "RankerMixin"}) {
		t.Errorf("MRO(Wrong) = %v, %v", got, ok)
	}

	// A name no class defines: not found, not shadowed by anything found.
	none := v.Lookup(class(t, m, "Good"), "no_such_method")
	if none.Found() || none.Shadowed != nil || none.Uncertain {
		t.Errorf("Lookup(no_such_method) = %+v", none)
	}
}

func TestLookupClassAttributeOverride(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/attr/app.py": importSRS + "\n\ndef some_func(self):\n    return \"no\"\n\n\n" +
			"class ByAttr(SimpleResourcesServer):\n    " + method + " = some_func\n\n\n" +
			"class ByAnnotated(SimpleResourcesServer):\n    " + method + ": ClassVar = some_func\n\n\n" +
			"class MethodThenAttr(SimpleResourcesServer):\n    def " + method + "(self):\n        return 1\n\n    " + method + " = some_func\n\n\n" +
			"class AttrThenMethod(SimpleResourcesServer):\n    " + method + " = some_func\n\n    def " + method + "(self):\n        return 1\n\n\n" +
			"class Child(ByAttr):\n    pass\n",
	})
	v := build(t, root, gym.Options{})
	m := module(t, v, "resources_servers/attr/app.py")
	for _, name := range []string{"ByAttr", "ByAnnotated", "MethodThenAttr"} {
		d := v.Lookup(class(t, m, name), method)
		if !d.Found() || d.Attr == nil || d.Method != nil || d.Class.Class.Name != name {
			t.Errorf("Lookup(%s) = %+v, want the class attribute", name, d)
		}
	}
	d := v.Lookup(class(t, m, "AttrThenMethod"), method)
	if !d.Found() || d.Method == nil || d.Attr != nil {
		t.Errorf("Lookup(AttrThenMethod) = %+v, want the later method", d)
	}
	d = v.Lookup(class(t, m, "Child"), method)
	if !d.Found() || d.Class.Class.Name != "ByAttr" || d.Attr == nil {
		t.Errorf("Lookup(Child) = %+v, want ByAttr's attribute", d)
	}
}

// Python refuses class Z(X, Y) when X and Y order A and B differently.
func TestMROInconsistent(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/bad/app.py": importSRS + "\n\nclass O(SimpleResourcesServer):\n    pass\n\n\n" +
			"class A(O):\n    pass\n\n\nclass B(O):\n    pass\n\n\n" +
			"class X(A, B):\n    def " + method + "(self):\n        return \"x\"\n\n\n" +
			"class Y(B, A):\n    pass\n\n\nclass Z(X, Y):\n    pass\n\n\n" +
			// The simplest failure: a base listed before its own subclass.
			"class W(A, O):\n    pass\n\n\nclass V(O, A):\n    pass\n",
	})
	v := build(t, root, gym.Options{})
	m := module(t, v, "resources_servers/bad/app.py")

	if _, ok := v.MRO(class(t, m, "W")); !ok {
		t.Errorf("MRO(W) with W(A, O) failed; that order is consistent")
	}
	mro, ok := v.MRO(class(t, m, "V"))
	if ok {
		t.Errorf("MRO(V) with V(O, A) ok; C3 fails for it")
	}
	if got := mroNames(mro); !containsAll(got, "V", "O", "A", srsName) {
		t.Errorf("fallback MRO(V) = %v, want every ancestor", got)
	}

	mro, ok = v.MRO(class(t, m, "Z"))
	if ok {
		t.Errorf("MRO(Z) ok; C3 fails for Z(X, Y)")
	}
	// The fallback order is depth-first without repeats: it must still
	// list every ancestor.
	if got := mroNames(mro); !containsAll(got, "Z", "X", "Y", "A", "B", "O", srsName) {
		t.Errorf("fallback MRO(Z) = %v, want every ancestor (Z X Y A B O and the framework base)", got)
	}
	d := v.Lookup(class(t, m, "Z"), method)
	if !d.Uncertain {
		t.Errorf("Lookup(Z) not Uncertain: %+v", d)
	}
	if d.Class.Class == nil || d.Class.Class.Name != "X" {
		t.Errorf("Lookup(Z) = %+v, want X's override (depth-first)", d)
	}
	// The entrypoint is still analysed.
	e := entry(t, v, "resources_servers/bad/app.py")
	if e.Module == nil {
		t.Fatal("not parsed")
	}
}

func containsAll(have []string, want ...string) bool {
	set := map[string]bool{}
	for _, h := range have {
		set[h] = true
	}
	for _, w := range want {
		if !set[w] {
			return false
		}
	}
	return true
}

func TestMROCycleAcrossModules(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/cyc/a.py":    "from resources_servers.cyc.b import B\n\n\nclass A(B):\n    pass\n",
		"resources_servers/cyc/b.py":    "from resources_servers.cyc.a import A\n\n\nclass B(A):\n    pass\n",
		"resources_servers/cyc/app.py":  importSRS + "from resources_servers.cyc.a import A\n\n\nclass S(A, SimpleResourcesServer):\n    pass\n",
		"resources_servers/self/app.py": importSRS + "\n\nclass Me(Me):\n    pass\n",
	})
	v := buildWithin(t, 20*time.Second, root, gym.Options{})
	m := module(t, v, "resources_servers/cyc/app.py")
	var (
		mro []gym.Ancestor
		ok  bool
		d   gym.Definition
	)
	within(t, 10*time.Second, "MRO of a cyclic hierarchy", func() {
		mro, ok = v.MRO(class(t, m, "S"))
		d = v.Lookup(class(t, m, "S"), method)
	})
	if ok {
		t.Errorf("MRO(S) ok for a cyclic hierarchy: %v", mroNames(mro))
	}
	if !d.Uncertain {
		t.Errorf("Lookup(S) not Uncertain: %+v", d)
	}
	a := module(t, v, "resources_servers/cyc/a.py")
	if _, ok := v.MRO(class(t, a, "A")); ok {
		t.Errorf("MRO(A) ok for A(B), B(A)")
	}
	me := module(t, v, "resources_servers/self/app.py")
	if _, ok := v.MRO(class(t, me, "Me")); ok {
		t.Errorf("MRO(Me) ok for class Me(Me)")
	}
}

func TestLookupUnresolvableBaseIsUncertain(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/unres/helpers.py": "def make():\n    return object\n\n\nMade = make()\n",
		"resources_servers/unres/app.py": importSRS +
			"from resources_servers.unres.helpers import Missing, Made\n" +
			"import resources_servers.unres.helpers as helpers\nimport external_factory\n\n\n" +
			"class Undefined(undefined_name, SimpleResourcesServer):\n    pass\n\n\n" +
			"class FromMissing(Missing, SimpleResourcesServer):\n    pass\n\n\n" +
			"class FromMade(Made, SimpleResourcesServer):\n    pass\n\n\n" +
			"class ViaModuleAttr(helpers.Missing, SimpleResourcesServer):\n    pass\n\n\n" +
			"class ViaModuleAttrMade(helpers.Made, SimpleResourcesServer):\n    pass\n\n\n" +
			"class FromCall(helpers.make(), SimpleResourcesServer):\n    pass\n\n\n" +
			"class FromExternalCall(external_factory.make_base(), SimpleResourcesServer):\n    pass\n\n\n" +
			// After the framework base an unresolved class does not matter.
			"class After(SimpleResourcesServer, undefined_name):\n    pass\n",
	})
	v := build(t, root, gym.Options{})
	m := module(t, v, "resources_servers/unres/app.py")
	for _, name := range []string{"Undefined", "FromMissing", "FromMade", "ViaModuleAttr", "ViaModuleAttrMade", "FromCall", "FromExternalCall"} {
		c := class(t, m, name)
		d := v.Lookup(c, method)
		if !d.Uncertain {
			bases := v.Bases(c)
			t.Errorf("Lookup(%s) not Uncertain; first base %q is kind %v", name, bases[0].Name, bases[0].Kind)
		}
		if d.Found() {
			t.Errorf("Lookup(%s) found %+v", name, d)
		}
	}
	d := v.Lookup(class(t, m, "After"), method)
	if d.Uncertain || d.ShadowedBy == nil {
		t.Errorf("Lookup(After) = %+v, want shadowed and certain", d)
	}
}

// A base class from a module with a syntax error makes the answer uncertain.
func TestLookupSyntaxErrorInParentIsUncertain(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/p/base.py": importSRS + "\n\nclass Parent(SimpleResourcesServer):\n    pass\n\n\ndef broken(:\n    pass\n",
		"resources_servers/p/app.py": "from resources_servers.p.base import Parent\n\n\nclass Child(Parent):\n    pass\n" +
			"\nif __name__ == \"__main__\":\n    Child.run_webserver()\n",
	})
	v := build(t, root, gym.Options{})
	e := entry(t, v, "resources_servers/p/app.py")
	if got := serverNames(e); !equalStrings(got, []string{"Child"}) {
		t.Fatalf("servers = %v", got)
	}
	d := v.Lookup(e.Servers[0].Class, method)
	if !d.Uncertain || d.Found() {
		t.Errorf("Lookup(Child) = %+v, want uncertain", d)
	}
	findDiag(t, v, "GL001", "resources_servers/p/base.py")
}
