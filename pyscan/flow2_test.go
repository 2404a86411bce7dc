package pyscan

import (
	"fmt"
	"strings"
	"testing"
)

func TestTriesWithsAwaitsRefs(t *testing.T) {
	src := `class S(SimpleResourcesServer):
    async def close_resources_session(self, request, body):
        sid = body.resources_session_id
        async with self.locks.locked(sid), open(p) as fh:
            try:
                await self.release(sid)
            except (KeyError, ValueError) as err:
                logger.warning("release failed: %s", err)
                return CloseResponse()
            except Exception:
                raise
            finally:
                self.count -= 1
        await asyncio.sleep(0)
        return request.session["id"]
`
	m := parseSrc(t, src)
	f := m.Classes[0].Methods[0]
	if len(f.Withs) != 1 || !f.Withs[0].Async || len(f.Withs[0].Items) != 2 || f.Withs[0].Items[0].Dotted != "self.locks.locked" || !f.Withs[0].Items[0].Call {
		t.Errorf("withs: %+v", f.Withs)
	}
	if len(f.Tries) != 1 {
		t.Fatalf("tries: %+v", f.Tries)
	}
	tr := f.Tries[0]
	var hs []string
	for _, h := range tr.Handlers {
		var types []string
		for _, ty := range h.Types {
			types = append(types, ty.Dotted)
		}
		hs = append(hs, fmt.Sprintf("%s as %q reraises=%v line=%d", strings.Join(types, ","), h.Name, h.Reraises, h.Span.Start.Line))
	}
	want := []string{`KeyError,ValueError as "err" reraises=false line=7`, `Exception as "" reraises=true line=10`}
	if strings.Join(hs, "|") != strings.Join(want, "|") {
		t.Errorf("handlers: %v, want %v", hs, want)
	}
	if tr.Finally == nil || tr.Finally.Start.Line != 12 || tr.Body.Start.Line != 6 {
		t.Errorf("try spans: %+v", tr)
	}
	var aw []string
	for _, a := range f.Awaits {
		aw = append(aw, fmt.Sprintf("%d %s", a.Span.Start.Line, a.Value.Dotted))
	}
	if strings.Join(aw, "|") != "6 self.release|14 asyncio.sleep" {
		t.Errorf("awaits: %v", aw)
	}
	var refs []string
	for _, r := range f.Refs {
		refs = append(refs, r.Dotted)
	}
	for _, wantRef := range []string{"body.resources_session_id", "self.locks.locked", "request.session"} {
		if !strings.Contains(strings.Join(refs, " "), wantRef) {
			t.Errorf("refs %v lack %s", refs, wantRef)
		}
	}
	checkInvariants(t, m, []byte(src))
}
