package engine

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The repository's known-first-party (settings.ReadKnownFirstParty)
// reaches the view's options, and through them the cache's context key:
// a scan after the setting changed does not reuse what was found before.
func TestKnownFirstPartyReachesTheView(t *testing.T) {
	root := writeTree(t, map[string]string{
		"pyproject.toml":                "[tool.gymlint]\ndisable = [\"GL205\"]\n",
		"resources_servers/calc/app.py": "import os\n",
	})
	open := func() (*Engine, string) {
		t.Helper()
		e, err := New(Options{Root: root, NoGo: true})
		if err != nil {
			t.Fatal(err)
		}
		key, ok := e.contextKey()
		if !ok {
			t.Fatal("no context key")
		}
		return e, key
	}
	e, before := open()
	if e.GymOptions().KnownFirstParty != nil {
		t.Fatalf("KnownFirstParty = %q without a setting", e.GymOptions().KnownFirstParty)
	}
	var keys []string
	for _, c := range []struct {
		file, text string
		want       []string
	}{
		{"pyproject.toml", "[tool.gymlint]\ndisable = [\"GL205\"]\n[tool.isort]\nknown_first_party = \"my_gym, tools\"\n", []string{"my_gym", "tools"}},
		{"ruff.toml", "[lint.isort]\nknown-first-party = [\"my_gym\"]\n", []string{"my_gym"}},
		{"ruff.toml", "[lint.isort]\nknown-first-party = [\"my_gym.servers\"]\n", []string{"my_gym.servers"}},
	} {
		if err := os.WriteFile(filepath.Join(root, c.file), []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		e, key := open()
		if got := e.GymOptions().KnownFirstParty; !slices.Equal(got, c.want) {
			t.Errorf("%s: KnownFirstParty = %q, want %q", c.text, got, c.want)
		}
		if key == before || slices.Contains(keys, key) {
			t.Errorf("%s: the cache's context key did not change", c.text)
		}
		keys = append(keys, key)
	}
}
