package facts_test

import (
	"testing"

	"github.com/gymlint/gymlint/facts"
)

// TestGroupWaits: an add to an entry looked up by key, then an await of
// the entry's event or of a future added to it, is a group wait; a cache
// filled without waiting, a local list, and an await of something else
// are not.
func TestGroupWaits(t *testing.T) {
	f := build(t, map[string]string{"resources_servers/s/app.py": header + `
from collections import defaultdict

BUF = defaultdict(list)


class S(SimpleResourcesServer):
    async def ev(self, body):
        g = self.groups[body.group]
        g.rows.append(1)
        await g.event.wait()

    async def fut(self, body):
        f = asyncio.get_running_loop().create_future()
        BUF[body.prompt_id].append((body, f))
        return await asyncio.wait_for(f, 5)

    async def cache(self, body):
        self.cache.setdefault(body.k, []).append(1)
        await asyncio.sleep(0)

    async def local(self, body):
        xs = []
        xs.append(asyncio.sleep(0))
        await asyncio.gather(*xs)

    async def before(self, request, body):
        g = self.groups[request.session[SESSION_ID_KEY]]
        await g.event.wait()
        g.rows.append(1)
`})
	s := server(t, f)
	for name, want := range map[string]string{"ev": "group", "fut": "prompt_id", "cache": "", "local": "", "before": ""} {
		ws := f.GroupWaits(s, method(t, f, s, name))
		switch {
		case want == "" && len(ws) > 0:
			t.Errorf("%s: %d group waits, want none", name, len(ws))
		case want != "" && len(ws) != 1:
			t.Errorf("%s: %d group waits, want 1", name, len(ws))
		case want != "":
			if k := ws[0].Lookup.KeyOf; k.Kind != facts.KeyBody || k.Field != want {
				t.Errorf("%s: key %v %q, want the body field %q", name, k.Kind, k.Field, want)
			}
		}
	}
}
