package facts_test

import (
	"testing"

	"github.com/gymlint/gymlint/facts"
)

func TestLockValue(t *testing.T) {
	f := build(t, app(`    async def seed_session(self, body):
        self.locks[body.resources_session_id] = asyncio.Lock()
        self.games[body.resources_session_id] = dict()
`))
	s := server(t, f)
	got := map[string]bool{}
	for _, c := range f.StateOf(s).Containers {
		for _, a := range c.Accesses {
			if a.Kind == facts.Write {
				got[c.Name] = f.LockValue(a.Func.Module, a.Value)
			}
		}
	}
	if !got["self.locks"] || got["self.games"] || len(got) != 2 {
		t.Fatalf("LockValue by container = %v, want self.locks true, self.games false", got)
	}
}
