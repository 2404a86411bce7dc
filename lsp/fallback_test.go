package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// With a configuration error the editor gets the defaults, but not
// without what gymlint reads from other tools' files: ruff's and isort's
// known-first-party still places the imports that fixes add.
func TestBadConfigurationKeepsKnownFirstParty(t *testing.T) {
	root := t.TempDir()
	for name, content := range map[string]string{
		".gymlint.yaml": "no_such_key: 1\n",
		"ruff.toml":     "[lint.isort]\nknown-first-party = [\"helpers\", \"tools_*\"]\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := openEngine(root, Options{NoGo: true}, clientSettings{})
	if err == nil || e == nil {
		t.Fatalf("engine %v, error %v: want the defaults and the configuration error", e, err)
	}
	if got := e.GymOptions().KnownFirstParty; !slices.Equal(got, []string{"helpers", "tools_*"}) {
		t.Errorf("known-first-party with a configuration error: %q", got)
	}
}
