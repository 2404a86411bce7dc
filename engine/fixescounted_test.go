package engine

import "testing"

// FixesCounted reaches the view's options, and through them the cache's
// context key: a check that shows fixes never reads the findings of one
// that only counted them (gym.Options.FixesCounted).
func TestFixesCountedKeysTheCache(t *testing.T) {
	root := writeTree(t, map[string]string{"resources_servers/calc/app.py": "import os\n"})
	key := func(counted bool) string {
		t.Helper()
		e, err := New(Options{Root: root, NoGo: true, FixesCounted: counted})
		if err != nil {
			t.Fatal(err)
		}
		if e.GymOptions().FixesCounted != counted {
			t.Fatalf("GymOptions().FixesCounted = %v, want %v", e.GymOptions().FixesCounted, counted)
		}
		k, ok := e.contextKey()
		if !ok {
			t.Fatal("no context key")
		}
		return k
	}
	if key(true) == key(false) {
		t.Error("the context key is the same with and without FixesCounted")
	}
}
