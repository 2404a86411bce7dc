package policy

import (
	"testing"

	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/settings"
)

// TestCatalog checks that settings resolves every rule's code and name to
// that rule's code.
func TestCatalog(t *testing.T) {
	for _, r := range lint.Rules() {
		for _, key := range []string{r.Code, r.Name} {
			if got := settings.ResolveRule(key); len(got) != 1 || got[0] != r.Code {
				t.Errorf("ResolveRule(%q) = %v, want [%s]", key, got, r.Code)
			}
		}
	}
}
