package gym_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

const preparsedBase = "nemo_gym/base_resources_server.py"

const preparsedText = `class SimpleResourcesServer:
    def seed_session(self, request, body):
        return {"seeded": True}


def helper(x: int) -> int:
    return x * 2
`

// preparse parses text as contract detection does: with a budget of its
// own that counts the steps.
func preparse(t *testing.T, path, text string) contract.Parsed {
	t.Helper()
	p := pyscan.NewParser(pyscan.Options{})
	defer p.Close()
	b := pyscan.NewBudget(1 << 40)
	m := p.ParseWithin(path, []byte(text), b)
	if m.SyntaxError != nil || b.Spent() <= 0 {
		t.Fatalf("preparse: %v, %d steps", m.SyntaxError, b.Spent())
	}
	return contract.Parsed{Module: m, Steps: b.Spent()}
}

func newCacheWith(t *testing.T, root string, opts gym.Options) *gym.Cache {
	t.Helper()
	c, err := gym.NewCache(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// A module parsed before the cache was made stands for the parse of its
// file when the text is the same and the budget has room for its steps,
// once; otherwise the file is parsed, as without it.
func TestCacheTakesPreparsedModules(t *testing.T) {
	root := writeRepo(t, map[string]string{preparsedBase: preparsedText})
	pre := preparse(t, preparsedBase, preparsedText)

	t.Run("taken", func(t *testing.T) {
		c := newCacheWith(t, root, gym.Options{Preparsed: gym.NewPreparsed([]contract.Parsed{pre})})
		m, err := c.View([]string{}).Module(preparsedBase)
		if err != nil || m != pre.Module {
			t.Fatalf("the view's module is not the one parsed before (%v)", err)
		}
		if c.Parsed() != 0 || c.ModulesParsed() != 1 {
			t.Fatalf("%d parses, %d modules; want 0 and 1", c.Parsed(), c.ModulesParsed())
		}
		// Taken once: a second cache with the same modules parses.
		c2 := newCacheWith(t, root, gym.Options{Preparsed: gym.NewPreparsed(nil)})
		if m2, _ := c2.View([]string{}).Module(preparsedBase); m2 == pre.Module || c2.Parsed() != 1 {
			t.Fatal("an empty Preparsed gave a module")
		}
	})

	t.Run("taken once", func(t *testing.T) {
		pp := gym.NewPreparsed([]contract.Parsed{preparse(t, preparsedBase, preparsedText)})
		c1 := newCacheWith(t, root, gym.Options{Preparsed: pp})
		c2 := newCacheWith(t, root, gym.Options{Preparsed: pp})
		m1, _ := c1.View([]string{}).Module(preparsedBase)
		m2, _ := c2.View([]string{}).Module(preparsedBase)
		if m1 == m2 || c1.Parsed()+c2.Parsed() != 1 {
			t.Fatalf("two caches share the module, or parsed %d times", c1.Parsed()+c2.Parsed())
		}
	})

	t.Run("the file changed since", func(t *testing.T) {
		edited := writeRepo(t, map[string]string{preparsedBase: preparsedText + "\nX = 1\n"})
		c := newCacheWith(t, edited, gym.Options{Preparsed: gym.NewPreparsed([]contract.Parsed{preparse(t, preparsedBase, preparsedText)})})
		m, err := c.View([]string{}).Module(preparsedBase)
		if err != nil || m.Binding("X") == nil || c.Parsed() != 1 {
			t.Fatalf("the module of the old text was taken (%v)", err)
		}
	})

	t.Run("an editor's buffer", func(t *testing.T) {
		c := newCacheWith(t, root, gym.Options{
			Overlay:   map[string][]byte{preparsedBase: []byte(preparsedText)},
			Preparsed: gym.NewPreparsed([]contract.Parsed{preparse(t, preparsedBase, preparsedText)}),
		})
		if _, err := c.View([]string{}).Module(preparsedBase); err != nil || c.Parsed() != 1 {
			t.Fatalf("an overlaid file was not parsed (%v)", err)
		}
	})

	t.Run("no room in the budget", func(t *testing.T) {
		p := preparse(t, preparsedBase, preparsedText)
		// Room for all but one step: the view's own parse stops, and so
		// must the view's module.
		c := newCacheWith(t, root, gym.Options{ParseBudget: p.Steps - 1, Preparsed: gym.NewPreparsed([]contract.Parsed{p})})
		m, err := c.View([]string{}).Module(preparsedBase)
		if err != nil || m == p.Module || m.SyntaxError == nil || m.SyntaxError.Stopped == nil ||
			m.SyntaxError.Stopped.Reason != pyscan.ScanBudgetRanOut {
			t.Fatalf("with no room, the module is %+v (%v)", m.SyntaxError, err)
		}
		// Room for every step: taken.
		p = preparse(t, preparsedBase, preparsedText)
		c = newCacheWith(t, root, gym.Options{ParseBudget: p.Steps, Preparsed: gym.NewPreparsed([]contract.Parsed{p})})
		if m, _ := c.View([]string{}).Module(preparsedBase); m != p.Module {
			t.Fatal("with room for every step, the module was not taken")
		}
	})

	t.Run("dropped", func(t *testing.T) {
		p := preparse(t, preparsedBase, preparsedText)
		c := newCacheWith(t, root, gym.Options{Preparsed: gym.NewPreparsed([]contract.Parsed{p})})
		c.DropPreparsed()
		if m, _ := c.View([]string{}).Module(preparsedBase); m == p.Module || c.Parsed() != 1 {
			t.Fatal("a dropped module was taken")
		}
	})
}

// The cache compares the module's text with the file's bytes, not the
// file's name: a file replaced by another of the same size is parsed.
func TestCachePreparsedComparesText(t *testing.T) {
	root := writeRepo(t, map[string]string{preparsedBase: preparsedText})
	p := preparse(t, preparsedBase, preparsedText)
	same := []byte(preparsedText)
	same[len(same)-2] = '3' // "x * 3"
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(preparsedBase)), same, 0o644); err != nil {
		t.Fatal(err)
	}
	c := newCacheWith(t, root, gym.Options{Preparsed: gym.NewPreparsed([]contract.Parsed{p})})
	if m, _ := c.View([]string{}).Module(preparsedBase); m == p.Module || string(m.Source()) != string(same) {
		t.Fatal("the module of another text was taken")
	}
}
