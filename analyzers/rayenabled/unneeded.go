package rayenabled

import (
	"fmt"
	"slices"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// UnneededRayEnabled is rule GL205.
var UnneededRayEnabled = &diag.Rule{
	Code: "GL205", Name: "unneeded-ray-enabled", Analyzer: "rayenabled", Severity: diag.Warning,
	Needs:   []string{contract.RayDeclaration},
	Summary: "A server declares ray_enabled = True but uses no Ray.",
	Doc:     ruleDoc("GL205"),
}

// runUnneededRayEnabled reports a server class whose own body in the
// entrypoint declares ray_enabled = True when the search for its Ray use
// found none and read everything on the way (an unread module may use
// Ray), and no config of the server has a Ray setting.
func runUnneededRayEnabled(v *gym.View) []diag.Diagnostic {
	return report(usesOf(v).list, func(u *serverUse) []diag.Diagnostic {
		if u.own == nil || !isTrue(u.own.attr.Value) || u.found.use != nil || !u.found.complete {
			return nil
		}
		if _, _, _, ok := raySetting(v, u.e); ok {
			return nil
		}
		m, at := u.m(), u.own.attr
		dg := UnneededRayEnabled.New(u.entryPath(), gym.Pos(m, at.Span.Start), gym.Pos(m, at.StmtSpan.End), fmt.Sprintf(
			"%s declares ray_enabled = True, but gymlint finds no Ray use in it, its ancestors or their imports, nor a Ray setting in its configs",
			u.subject()))
		dg = helped(dg, "remove the declaration, unless the server uses Ray through a library gymlint does not read")
		if f, ok := removeFix(m, u.s.Class.Class, u.own); ok {
			dg.Fixes = []diag.Fix{f}
		}
		return []diag.Diagnostic{dg}
	})
}

// removeFix is GL205's fix: the declaration's statement is removed, whole
// lines (its trailing comment goes with it); when it is the only statement
// of the class body, it becomes `pass` instead, which keeps the body. When
// the declaration comes first in the body (or after a blank line) and
// blank lines separate it from the next statement, those go too, so that
// the body does not start with blank lines. Comments on the lines above it
// stay (they may be about more than it), and so does an import of
// ClassVar that nothing else uses (a linter of imports reports it).
//
// No fix when the statement is not alone on its lines (`x = 1;
// ray_enabled = True`), is inside a compound statement of the body (an if
// or a try), is a chained assignment (`ray_enabled = other = True`), or
// when the body binds ray_enabled more than once: removing one would
// change what the other means.
//
// The fix is unsafe: gymlint may miss a use of Ray, through a library it
// does not read (a server that hands work to vLLM's Ray backend, or to a
// package that starts Ray actors), and without the declaration the server
// supervisor does not start Ray for the server, which then fails at
// startup or at its first Ray call.
func removeFix(m *pyscan.Module, c *pyscan.Class, own *ownDecl) (diag.Fix, bool) {
	n := 0
	for _, a := range c.Attrs {
		if a.Name == Attr {
			n++
		}
	}
	i := slices.Index(c.Body, own.stmt)
	if n != 1 || own.stmt == nil || i < 0 {
		return diag.Fix{}, false
	}
	if as, ok := own.stmt.(*pyscan.Assign); ok && len(as.Targets) != 1 {
		return diag.Fix{}, false
	}
	const msg = "Remove the ray_enabled declaration"
	r := own.stmt.Range()
	if len(c.Body) == 1 {
		return diag.Fix{Message: msg, Applicability: diag.Unsafe, Edits: []diag.TextEdit{{
			Path: m.Path, Start: gym.Pos(m, r.Start), End: gym.Pos(m, trailingComment(m, r.End)), NewText: "pass"}}}, true
	}
	if _, ok := indentBefore(m, r.Start); !ok {
		return diag.Fix{}, false
	}
	end := m.LineEndsAfter(r.End)
	if i+1 < len(c.Body) {
		next := c.Body[i+1].Range().Start
		if m.Line(next) <= m.Line(r.End) {
			return diag.Fix{}, false
		}
		start := m.LineStart(r.Start)
		if i == 0 || start > 0 && blank(m, m.LineStart(start-1)) {
			for end < next && blank(m, end) {
				end = m.LineEndsAfter(end)
			}
		}
	}
	return diag.Fix{Message: msg, Applicability: diag.Unsafe, Edits: []diag.TextEdit{{
		Path: m.Path, Start: gym.Pos(m, m.LineStart(r.Start)), End: gym.Pos(m, end)}}}, true
}

// raySetting returns the first config setting, among those of the config
// instances that name the entrypoint and of the overrides of those
// instances (same instance name, server type and dir, in any config file),
// that may make the server use Ray through code gymlint does not read: a
// key with the word "ray" in it (ray_address, num_ray_workers,
// VLLM_RAY_DP_PACK_STRATEGY, rayActors) or a scalar value that is exactly
// "ray" (distributed_executor_backend: ray). ok is false when there is none.
func raySetting(v *gym.View, e *gym.Entrypoint) (file string, pos configscan.Pos, key string, ok bool) {
	w := facts.Of(v).Words()
	for _, c := range e.Configs {
		if p, k, found := rayIn(w, c.Instance.Settings, ""); found {
			return c.File, p, k, true
		}
	}
	for _, o := range v.EntrypointOverrides(e) {
		if p, k, found := rayIn(w, o.Instance.Settings, ""); found {
			return o.File.Path, p, k, true
		}
	}
	return "", configscan.Pos{}, "", false
}

// rayIn searches a settings node, depth first in document order.
func rayIn(w *facts.Words, n *configscan.Node, key string) (configscan.Pos, string, bool) {
	if n == nil {
		return configscan.Pos{}, "", false
	}
	switch n.Kind {
	case configscan.MappingNode:
		for _, p := range n.Pairs {
			if w.Has(facts.WordRaySetting, p.Key) {
				return p.KeyPos, p.Key, true
			}
			if pos, k, ok := rayIn(w, p.Value, p.Key); ok {
				return pos, k, true
			}
		}
	case configscan.SequenceNode:
		for _, it := range n.Items {
			if pos, k, ok := rayIn(w, it, key); ok {
				return pos, k, true
			}
		}
	case configscan.ScalarNode:
		if w.IsWord(facts.WordRaySetting, n.Value) {
			return n.Pos, key + ": " + n.Value, true
		}
	}
	return configscan.Pos{}, "", false
}
