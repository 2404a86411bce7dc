package configs

import (
	"testing"

	"github.com/gymlint/gymlint/configscan"
)

func parseSnippet(t *testing.T, s string) *configscan.Node {
	t.Helper()
	f := configscan.Parse("x.yaml", []byte(s), configscan.Options{})
	if len(f.Docs) != 1 {
		t.Fatalf("%q: %d docs", s, len(f.Docs))
	}
	return f.Docs[0].Get("port")
}
