package pyscan

import (
	"fmt"
	"strings"
	"testing"
)

// The old model kept per-function lists of returns, raises, stores,
// subscripts, tries, withs and awaits; these tests ask the same questions
// of the typed model, through Inspect and ContextOf.

func guardText(m *Module, gs []Guard) string {
	var parts []string
	for _, g := range gs {
		if g.Negated {
			parts = append(parts, "not("+m.Text(g.Test)+")")
		} else {
			parts = append(parts, m.Text(g.Test))
		}
	}
	return strings.Join(parts, " & ")
}

func TestReturnsAndGuards(t *testing.T) {
	src := `class S(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        if self.config.metrics_source == "prometheus":
            return "metrics snapshot in memory"
        elif self.config.compute_comet:
            if self.config.num_gpus > 1:
                raise ValueError("too many")
            return None
        else:
            return
        return "unreachable"
`
	m := parseSrc(t, src)
	f := m.Classes[0].Methods[0]
	var rets, raises []string
	InspectBody(f.Body, func(n Node, stack []Node) bool {
		switch n := n.(type) {
		case *Return:
			v := "<bare>"
			if n.Value != nil {
				v = m.Text(n.Value)
				if s, ok := Str(n.Value); ok {
					v += fmt.Sprintf(" (str %q)", s)
				}
				if IsNone(n.Value) {
					v += " (None)"
				}
			}
			rets = append(rets, fmt.Sprintf("%d %s [%s]", m.Line(n.Start), v, guardText(m, ContextOf(stack).Guards)))
		case *Raise:
			raises = append(raises, fmt.Sprintf("%s [%s]", m.Text(n.Exc), guardText(m, ContextOf(stack).Guards)))
		}
		return true
	})
	checkLines(t, "returns", rets, []string{
		`4 "metrics snapshot in memory" (str "metrics snapshot in memory") [self.config.metrics_source == "prometheus"]`,
		`8 None (None) [not(self.config.metrics_source == "prometheus") & self.config.compute_comet]`,
		`10 <bare> [not(self.config.metrics_source == "prometheus") & not(self.config.compute_comet)]`,
		`11 "unreachable" (str "unreachable") []`,
	})
	checkLines(t, "raises", raises, []string{
		`ValueError("too many") [not(self.config.metrics_source == "prometheus") & self.config.compute_comet & self.config.num_gpus > 1]`,
	})
	// A guard's test is typed: the comparison's parts are there to read.
	test := f.Body[0].(*If).Test.(*Compare)
	if Dotted(test.Left) != "self.config.metrics_source" || test.Ops[0] != Eq || test.Ops[0].Negate() != NotEq {
		t.Errorf("guard test %s", dump(test))
	}
}

func TestStoresAndSubscripts(t *testing.T) {
	src := `class S(SimpleResourcesServer):
    async def seed_session(self, request, body):
        self._envs[body.env_id] = make_env()
        self.count += 1
        self.ray_enabled = True
        a, self.b = 1, 2
        x = self._envs[body.env_id]
        del self._envs[body.env_id]
        local = 3
        if body.reset:
            self._state[request.session["id"]] = {}
        return self._envs.get(body.env_id)
`
	m := parseSrc(t, src)
	f := m.Classes[0].Methods[0]
	// Stores: the targets of assignments and del statements that are
	// attributes of self or subscripts of them.
	var stores []string
	targets := map[Node]bool{}
	store := func(t Expr, op, value string, stack []Node) {
		targets[t] = true
		key := ""
		if s, ok := t.(*Subscript); ok {
			key = " key=" + m.Text(s.Index)
			t = s.Value
		}
		if r := Root(t); r == nil || r.Id != "self" {
			return
		}
		stores = append(stores, fmt.Sprintf("%d %s %s%s%s [%s]", m.Line(t.Range().Start), Dotted(t), op, key, value, guardText(m, ContextOf(stack).Guards)))
	}
	InspectBody(f.Body, func(n Node, stack []Node) bool {
		switch n := n.(type) {
		case *Assign:
			for _, tg := range n.Targets {
				if tup, ok := tg.(*Tuple); ok {
					for _, e := range tup.Elts {
						store(e, "=", "", stack)
					}
					continue
				}
				store(tg, "=", " value="+m.Text(n.Value), stack)
			}
		case *AugAssign:
			store(n.Target, n.Op.String()+"=", " value="+m.Text(n.Value), stack)
		case *Delete:
			for _, tg := range n.Targets {
				store(tg, "del", "", stack)
			}
		}
		return true
	})
	checkLines(t, "stores", stores, []string{
		"3 self._envs = key=body.env_id value=make_env() []",
		"4 self.count += value=1 []",
		"5 self.ray_enabled = value=True []",
		"6 self.b = []",
		"8 self._envs del key=body.env_id []",
		`11 self._state = key=request.session["id"] value={} [body.reset]`,
	})
	// Subscript reads: every subscript that is not a store's target.
	var reads []string
	InspectBody(f.Body, func(n Node, stack []Node) bool {
		if s, ok := n.(*Subscript); ok && !targets[s] {
			reads = append(reads, fmt.Sprintf("%d %s[%s]", m.Line(s.Start), Dotted(s.Value), m.Text(s.Index)))
		}
		return true
	})
	checkLines(t, "subscript reads", reads, []string{`7 self._envs[body.env_id]`, `11 request.session["id"]`})
}

func TestTriesWithsAwaits(t *testing.T) {
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
	w, ok := f.Body[1].(*With)
	if !ok || !w.Async || len(w.Items) != 2 || Dotted(w.Items[0].Context.(*Call).Func) != "self.locks.locked" || w.Items[0].Target != nil || w.Items[1].Target.(*Name).Id != "fh" {
		t.Fatalf("with: %s", dump(f.Body[1]))
	}
	if m.Line(w.BodySpan.Start) != 5 || m.Line(w.BodySpan.End) != 13 {
		t.Errorf("with body lines %d-%d", m.Line(w.BodySpan.Start), m.Line(w.BodySpan.End))
	}
	tr := w.Body[0].(*Try)
	var hs []string
	for _, h := range tr.Handlers {
		var types []string
		for _, ty := range h.Types() {
			types = append(types, Dotted(ty))
		}
		reraises := false
		for _, s := range h.Body {
			if r, ok := s.(*Raise); ok && r.Exc == nil {
				reraises = true
			}
		}
		hs = append(hs, fmt.Sprintf("%s as %q reraises=%v line=%d", strings.Join(types, ","), h.Name, reraises, m.Line(h.Start)))
	}
	checkLines(t, "handlers", hs, []string{`KeyError,ValueError as "err" reraises=false line=7`, `Exception as "" reraises=true line=10`})
	if len(tr.Finally) != 1 || m.Line(tr.Finally[0].Range().Start) != 13 || m.Line(tr.BodySpan.Start) != 6 || tr.Star || len(tr.Else) != 0 {
		t.Errorf("try: %s", dump(tr))
	}
	var aw []string
	InspectBody(f.Body, func(n Node, stack []Node) bool {
		if a, ok := n.(*Await); ok {
			aw = append(aw, fmt.Sprintf("%d %s%s", m.Line(a.Start), Dotted(a.Value.(*Call).Func), dumpCtx(m, stack)))
		}
		return true
	})
	checkLines(t, "awaits", aw, []string{"6 self.release try with", "14 asyncio.sleep"})
	// Reads of attributes: the old Refs.
	var refs []string
	InspectBody(f.Body, func(n Node, stack []Node) bool {
		if a, ok := n.(*Attribute); ok {
			refs = append(refs, Dotted(a))
			return false // the longest chain only
		}
		return true
	})
	checkLines(t, "attribute chains", refs, []string{
		"body.resources_session_id", "self.locks.locked", "self.release", "logger.warning", "self.count", "asyncio.sleep", "request.session",
	})
}
