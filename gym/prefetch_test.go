package gym_test

import (
	"testing"

	"github.com/gymlint/gymlint/gym"
)

// Prefetch parses the modules it is given, once, with the shared budget;
// a view then finds them parsed. Without a shared budget it parses
// nothing.
func TestCachePrefetch(t *testing.T) {
	const a, base = "resources_servers/a/app.py", "common/base.py"
	root := writeRepo(t, map[string]string{
		base: importSRS + "\n\nclass Base(SimpleResourcesServer):\n    pass\n",
		a:    "from common.base import Base\n\n\nclass A(Base):\n    pass\n" + "\nif __name__ == \"__main__\":\n    A.run_webserver()\n",
	})
	c, err := gym.NewCache(root, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Prefetch([]string{a, base})()
	if n := c.Parsed(); n != 0 {
		t.Fatalf("Prefetch before ShareBudget parsed %d modules, want 0", n)
	}
	c.ShareBudget()
	c.Prefetch([]string{base, a, base, "common/absent.py"})()
	if n := c.Parsed(); n != 2 {
		t.Fatalf("Prefetch parsed %d modules, want 2", n)
	}
	v := c.View([]string{a})
	if e := v.Entrypoints[0]; len(e.Servers) != 1 || e.Servers[0].Class.Class.Name != "A" {
		t.Fatalf("servers %v", serverNames(e))
	}
	if _, err := v.Module(base); err != nil {
		t.Fatal(err)
	}
	if n := c.Parsed(); n != 2 {
		t.Fatalf("after a view read the prefetched modules, %d were parsed, want 2", n)
	}
}

// Parsed counts parses; ModulesParsed counts modules, each once, however
// often it was parsed again.
func TestModulesParsedCountsEachOnce(t *testing.T) {
	const a = "resources_servers/a/app.py"
	root := writeRepo(t, map[string]string{
		a: "class A:\n    pass\n",
	})
	c, err := gym.NewCache(root, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.View([]string{a})
	c.Changed(a)
	c.View([]string{a})
	if p, m := c.Parsed(), c.ModulesParsed(); p != 2 || m != 1 {
		t.Errorf("after a change: %d parses, %d modules; want 2 and 1", p, m)
	}
}
