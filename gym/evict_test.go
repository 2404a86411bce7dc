package gym_test

import (
	"slices"
	"testing"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// Two servers whose classes derive from one base module: what Evict keeps
// (what two views read), what it drops, and that a view in use keeps the
// modules it read whatever the cache evicts.
func TestCacheEvictKeepsWhatSeveralViewsRead(t *testing.T) {
	const a, b, base = "resources_servers/a/app.py", "resources_servers/b/app.py", "common/base.py"
	root := writeRepo(t, map[string]string{
		base: importSRS + "\n\nclass Base(SimpleResourcesServer):\n    pass\n",
		a:    "from common.base import Base\n\n\nclass A(Base):\n    pass\n" + "\nif __name__ == \"__main__\":\n    A.run_webserver()\n",
		b:    "from common.base import Base\n\n\nclass B(Base):\n    pass\n" + "\nif __name__ == \"__main__\":\n    B.run_webserver()\n",
	})
	c, err := gym.NewCache(root, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	mod := func(v *gym.View, p string) *pyscan.Module {
		t.Helper()
		m, err := v.Module(p)
		if err != nil || m == nil {
			t.Fatalf("%s: %v", p, err)
		}
		return m
	}

	va := c.View([]string{a})
	a1, base1 := mod(va, a), mod(va, base)
	c.Evict(va) // only va read them
	if got := mod(va, a); got != a1 {
		t.Error("a view's module changed after the cache evicted it")
	}
	vb := c.View([]string{b})
	base2 := mod(vb, base)
	if base2 == base1 {
		t.Error("the base module was not evicted after the one view that read it")
	}
	c.Evict(vb) // base.py: read by two views now
	vb2 := c.View([]string{b})
	if mod(vb2, base) != base2 {
		t.Error("a module that two views read was evicted")
	}
	if e := vb2.Entrypoints[0]; len(e.Servers) != 1 || e.Servers[0].Class.Class.Name != "B" {
		t.Errorf("after eviction: servers %v", serverNames(e))
	}
	if mod(c.View([]string{a}), a) == a1 {
		t.Error("an entrypoint only one view read was kept")
	}
	if src, err := c.Source(a); err != nil || len(src) == 0 {
		t.Errorf("Source of an evicted module: %q, %v", src, err)
	}

	// Pin keeps what a family's view read but the entrypoint itself; Unpin
	// lets Evict drop it.
	c2, err := gym.NewCache(root, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	vp := c2.View([]string{a})
	pinned := c2.Pin(vp)
	if !slices.Contains(pinned, base) || slices.Contains(pinned, a) {
		t.Errorf("pinned %v: want the base module, not the entrypoint", pinned)
	}
	baseP := mod(vp, base)
	other := c2.View([]string{a})
	if mod(other, base) != baseP {
		t.Error("a pinned module was not kept")
	}
	if all := c2.PinAll(c2.View([]string{a})); !slices.Contains(all, a) || !slices.Contains(all, base) {
		t.Errorf("PinAll pinned %v: want the entrypoint and the base module", all)
	} else {
		c2.Unpin(all)
	}
	c2.Unpin(pinned)
	c2.Evict(other)
	if mod(c2.View([]string{a}), base) == baseP {
		t.Error("an unpinned module that one view read was kept")
	}
}

// A framework module that one server's view read stays after its eviction:
// the next server's view takes it, not a parse of its own.
func TestCacheEvictKeepsFrameworkModules(t *testing.T) {
	const a, b, util = "resources_servers/a/app.py", "resources_servers/b/app.py", "nemo_gym/util.py"
	server := func(cls string) string {
		return importSRS + "\nfrom nemo_gym.util import helper\n\n\nclass " + cls + "(SimpleResourcesServer):\n    pass\n" +
			"\nif __name__ == \"__main__\":\n    " + cls + ".run_webserver()\n"
	}
	root := writeRepo(t, map[string]string{
		util: "def helper():\n    return 1\n",
		a:    server("A"),
		b:    server("B"),
	})
	c, err := gym.NewCache(root, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	va := c.View([]string{a})
	ma, err := va.Module(util)
	if err != nil || ma == nil {
		t.Fatalf("%s: %v", util, err)
	}
	own, err := va.Module(a)
	if err != nil || own == nil {
		t.Fatalf("%s: %v", a, err)
	}
	parsed := c.Parsed()
	c.Evict(va)
	vb := c.View([]string{b})
	if mb, err := vb.Module(util); err != nil || mb != ma {
		t.Errorf("the framework module was parsed again after the first view's eviction (%v)", err)
	}
	if c.Parsed() != parsed+1 { // b's entrypoint alone
		t.Errorf("%d parses after the second view, want %d", c.Parsed(), parsed+1)
	}
	// A server's own module is still evicted.
	if m, err := c.View([]string{a}).Module(a); err != nil || m == own {
		t.Errorf("the entrypoint that one view read was kept (%v)", err)
	}
}
