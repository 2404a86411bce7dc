package sessions

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gymlint/gymlint/analyzers/pyfix"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// StateNotRetired is rule GL317.
var StateNotRetired = &diag.Rule{
	Code: "GL317", Name: "state-not-retired", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.CheckpointHooks},
	Summary: "A resources server keeps per-session state but its retire_session_state does not release it, or it has none.",
	Doc:     ruleDoc("GL317"),
}

func runStateNotRetired(v *gym.View) []diag.Diagnostic {
	f := facts.Of(v)
	var out []diag.Diagnostic
	// Servers with no override are grouped by where their state is first
	// written (a base's seed that several served subclasses inherit is
	// reported once, at the base, as GL302 does).
	type group struct {
		first   *facts.Access
		servers []gym.Server
		state   []facts.SessionContainer
	}
	var order []*facts.Func
	groups := map[*facts.Func]*group{}
	done := map[*facts.Func]bool{}
	for _, s := range ResourcesServers(v) {
		state := keptState(f, s.Class)
		if len(state) == 0 {
			continue
		}
		w := firstWrite(f, s.Class, state)
		retire := f.Override(s.Class, contract.RetireMethod)
		if retire == nil {
			if d := v.Lookup(s.Class, contract.RetireMethod); d.Uncertain || d.Found() {
				continue
			}
			g := groups[w.Func]
			if g == nil {
				g = &group{first: w, state: state}
				groups[w.Func] = g
				order = append(order, w.Func)
			}
			g.servers = append(g.servers, s)
			continue
		}
		if retire.Module.SyntaxError != nil {
			continue
		}
		h := hook{f: f, server: s, fn: retire}
		reach := f.Reach(s.Class, retire)
		xs := releases(h, reach)
		if handsOn(f, s.Class, reach) {
			continue
		}
		if len(xs) > 0 {
			// Per server: what an inherited retire leaves depends on the
			// server's own state.
			// It releases something: is every container of the state
			// among what it empties? (A retire inherited from a shared
			// base empties the base's container, not the subclass's own.)
			if d, ok := partlyRetired(h, s, state, xs); ok {
				out = append(out, d)
			}
			continue
		}
		if done[retire] {
			continue
		}
		done[retire] = true
		msg := fmt.Sprintf("%s.retire_session_state releases nothing, but %s keeps per-session state (%s)", retire.Class.Name, s.Class.Class.Name, where(w))
		start, end := gym.Range(retire.Module, retire.Fn.NameSpan)
		d := StateNotRetired.New(retire.Module.Path, start, end, msg)
		d.Help = retireHelp(remedyOf(f, s, state), "release the session's state by the session_id it is given")
		d.Related = append(d.Related, h.inherited(contract.RetireMethod)...)
		for _, sc := range state {
			d.Related = append(d.Related, writesRelated(sc.Writes)...)
		}
		if len(d.Related) > 2*maxRelated {
			d.Related = d.Related[:2*maxRelated]
		}
		if fix, ok := retireAppendFix(v, f, s, retire, state); ok {
			d.Fixes = []diag.Fix{fix}
		}
		out = append(out, d)
	}
	for _, fn := range order {
		g := groups[fn]
		owner := fn.Class
		var names []string
		for _, s := range g.servers {
			names = append(names, s.Class.Class.Name)
		}
		list := serverList(names)
		who, keeps, has := list, "keeps", "has"
		if len(g.servers) > 1 {
			keeps, has = "keep", "have"
		}
		mod, span := g.servers[0].Class.Module, g.servers[0].Class.Class.NameSpan
		if owner != nil && !v.IsServerClass(gym.ClassRef{Module: fn.Module, Class: owner}) {
			owner = nil // an object the server holds: report at the server
		}
		if owner != nil && (len(g.servers) > 1 || owner != g.servers[0].Class.Class) {
			mod, span = fn.Module, owner.NameSpan
			if len(g.servers) > 1 || owner != g.servers[0].Class.Class {
				who = fmt.Sprintf("%s (state of %s)", list, owner.Name)
			}
		}
		msg := fmt.Sprintf("%s %s per-session state (%s) but %s no retire_session_state override to release it", who, keeps, where(g.first), has)
		start, end := gym.Range(mod, span)
		d := StateNotRetired.New(mod.Path, start, end, msg)
		d.Help = retireHelp(remedyOf(f, g.servers[0], g.state), "override retire_session_state(self, session_id) and release the session's state there")
		for _, sc := range g.state {
			d.Related = append(d.Related, writesRelated(sc.Writes)...)
		}
		if len(d.Related) > maxRelated {
			d.Related = d.Related[:maxRelated]
		}
		for _, s := range g.servers {
			if s.Class.Class != owner && len(d.Related) < 2*maxRelated {
				d.Related = append(d.Related, gym.Related(s.Class.Module, s.Class.Class.NameSpan, "server "+s.Class.Class.Name+" keeps this state and has no retire_session_state"))
			}
		}
		cls := g.servers[0].Class
		if owner != nil && mod == fn.Module && span == owner.NameSpan {
			cls = gym.ClassRef{Module: fn.Module, Class: owner}
		}
		if fix, ok := retireOverrideFix(v, f, cls, g.servers, g.state, ""); ok {
			d.Fixes = []diag.Fix{fix}
		}
		out = append(out, d)
	}
	return out
}

// partlyRetired reports a retire that empties some containers of the state
// but not others; a release call (not a container removal) on the way may
// release anything, and gives the finding up.
func partlyRetired(h hook, s gym.Server, state []facts.SessionContainer, xs []release) (diag.Diagnostic, bool) {
	emptied := map[*facts.Container]bool{}
	for _, x := range xs {
		if x.call != nil && !x.followed {
			return diag.Diagnostic{}, false
		}
		for _, sc := range state {
			for _, a := range sc.Accesses {
				if a.Node == x.node {
					emptied[sc.Container] = true
				}
			}
		}
	}
	var kept []facts.SessionContainer
	var keptNames, emptiedNames []string
	for _, x := range xs {
		if x.call == nil && !slices.Contains(emptiedNames, x.what) {
			emptiedNames = append(emptiedNames, x.what)
		}
	}
	for _, sc := range state {
		if !emptied[sc.Container] {
			kept = append(kept, sc)
			keptNames = append(keptNames, sc.Container.Name)
		}
	}
	if len(kept) == 0 {
		return diag.Diagnostic{}, false
	}
	retire := h.fn
	w := kept[0].Writes[0]
	msg := fmt.Sprintf("%s.retire_session_state releases only %s, not %s, which %s keeps per session (%s)",
		retire.Class.Name, strings.Join(emptiedNames, ", "), strings.Join(keptNames, ", "), s.Class.Class.Name, where(w))
	start, end := gym.Range(s.Class.Module, s.Class.Class.NameSpan)
	path := s.Class.Module.Path
	if retire.Class == s.Class.Class {
		start, end = gym.Range(retire.Module, retire.Fn.NameSpan)
		path = retire.Module.Path
	}
	d := StateNotRetired.New(path, start, end, msg)
	d.Help = retireHelp(remedyOf(h.f, s, kept), "release the rest of the session's state too (override retire_session_state, call super(), then release it)")
	d.Related = append(d.Related, gym.Related(retire.Module, retire.Fn.NameSpan, "the retire_session_state that runs ("+retire.Name()+")"))
	for _, sc := range kept {
		d.Related = append(d.Related, writesRelated(sc.Writes)...)
	}
	if len(d.Related) > 2*maxRelated {
		d.Related = d.Related[:2*maxRelated]
	}
	v := h.f.View()
	if retire.Class == s.Class.Class {
		if fix, ok := retireAppendFix(v, h.f, s, retire, kept); ok {
			d.Fixes = []diag.Fix{fix}
		}
	} else if !retire.Fn.Async {
		// The override would await a super() that returns no awaitable.
	} else if fix, ok := retireOverrideFix(v, h.f, s.Class, []gym.Server{s}, kept, retire.Fn.Name); ok {
		d.Fixes = []diag.Fix{fix}
	}
	return d, true
}

// firstWrite is the write that shows the state: the first in the seed's
// reach, else the first of any.
func firstWrite(f *facts.Facts, server gym.ClassRef, state []facts.SessionContainer) *facts.Access {
	if seed := f.Override(server, contract.SeedMethod); seed != nil {
		in := map[*facts.Func]bool{}
		for _, r := range f.Reach(server, seed) {
			in[r.Func] = true
		}
		for _, sc := range state {
			for _, w := range sc.Writes {
				if in[w.Func] {
					return w
				}
			}
		}
	}
	return state[0].Writes[0]
}

// retireHelp is GL317's help for a server: what to empty, by which key,
// and what to stop first, from the server's own release.
func retireHelp(r remedy, lead string) string {
	if r.releaser != "" && r.minted == "" && r.bodyKey == "" {
		return lead + ": " + r.releaser + ", the server's own release"
	}
	help := lead + ": " + r.pops(r.key("session_id")) + r.stopClause()
	if r.closeReleases && r.stop == "" {
		help += ", as the close does"
	}
	return help + r.mintedClause("session_id") + r.bodyClause("session_id")
}

// handsOn reports whether a function of reach calls a method of an object
// the server holds (`self.pool.forget(...)`, `self.x.y.z(...)`) that
// gymlint cannot resolve, other than a container of the server's state:
// it may release the state there.
func handsOn(f *facts.Facts, server gym.ClassRef, reach []facts.Reached) bool {
	for _, r := range reach {
		if r.Func.Recv == "" {
			continue
		}
		for _, c := range f.Calls(server, r.Func) {
			if c.Target != nil || c.How == facts.CallFramework {
				continue
			}
			a, ok := c.Call.Func.(*pyscan.Attribute)
			if !ok || f.ContainerOf(server, r.Func, a.Value) != nil {
				continue
			}
			depth, x := 0, a.Value
			for {
				at, ok := x.(*pyscan.Attribute)
				if !ok {
					break
				}
				x, depth = at.Value, depth+1
			}
			if n, ok := x.(*pyscan.Name); ok && n.Id == r.Func.Recv && depth > 0 {
				return true
			}
		}
	}
	return false
}

// The messages of GL317's fixes, by how the release is written.
const (
	retirePopsMessage     = "Override retire_session_state to pop the session's state"
	retireReleaserMessage = "Override retire_session_state to release the session with the server's own release"
	retireStopMessage     = "Override retire_session_state to pop the session's state (a TODO says what to stop first)"
	retireAddPopsMessage  = "Release the rest of the session's state in retire_session_state"
)

// retireMessage names a fix by its release (releaseLines): a call of the
// server's own release, pops after a TODO, or pops.
func retireMessage(lines []string, app diag.Applicability) string {
	switch {
	case app == diag.Safe:
		return retirePopsMessage
	case strings.HasPrefix(lines[0], "#"):
		return retireStopMessage
	}
	return retireReleaserMessage
}

// retireOverrideFix adds to class cls an override of retire_session_state,
// as the framework declares it (`async def retire_session_state(self,
// session_id: str) -> None`), that releases the state the servers keep
// (releaseLines: pops by session_id, the server's own release helper, or
// pops after a TODO that says what to stop first). When the servers
// inherit a retire that releases part of the state (super, the name of
// the method), the override calls it first. The pops alone are safe: they
// drop only the records of a session the framework has retired, whose
// requests it refuses from then on; calling the server's release (which
// stops what it holds and may raise for a session it does not know) or
// leaving a TODO is unsafe.
func retireOverrideFix(v *gym.View, f *facts.Facts, cls gym.ClassRef, servers []gym.Server, state []facts.SessionContainer, super string) (diag.Fix, bool) {
	if !editable(v, cls) || len(servers) == 0 || !sameStateKeys(f, servers) {
		return diag.Fix{}, false
	}
	lines, app, ok := releaseLines(f, servers[0], state, "session_id")
	if !ok {
		return diag.Fix{}, false
	}
	block := []string{"async def " + contract.RetireMethod + "(self, session_id: str) -> None:"}
	msg := retireMessage(lines, app)
	if super != "" {
		block = append(block, "\tawait super()."+super+"(session_id)")
		msg = retireAddPopsMessage
	}
	for _, l := range lines {
		block = append(block, "\t"+l)
	}
	edits, ok := pyfix.AppendToClass(cls.Module, cls.Class, block, true)
	if !ok {
		return diag.Fix{}, false
	}
	return diag.Fix{Message: msg, Edits: edits, Applicability: app}, true
}

// retireAppendFix releases the state at the end of a retire_session_state
// override that releases none or part of it, by the session id parameter
// it takes and on its receiver. false when a return in it could skip the
// release, when the release is awaited and the override is not async,
// when it takes no session id parameter, or when the override is a base's
// that other servers inherit with state of their own (its class writes
// none of the state).
func retireAppendFix(v *gym.View, f *facts.Facts, s gym.Server, retire *facts.Func, state []facts.SessionContainer) (diag.Fix, bool) {
	fn := retire.Fn
	if !editable(v, retire.Owner()) || retire.Outer != nil || retire.Recv == "" || len(fn.Params) < 2 || len(fn.Body) == 0 || returns(fn.Body) {
		return diag.Fix{}, false
	}
	if retire.Class != s.Class.Class {
		for _, sc := range state {
			for _, w := range sc.Writes {
				if w.Func.Owner().Class != retire.Class {
					return diag.Fix{}, false
				}
			}
		}
	}
	p := fn.Params[1]
	if p.Kind != pyscan.ParamNormal && p.Kind != pyscan.ParamPosOnly {
		return diag.Fix{}, false
	}
	lines, app, ok := releaseLinesOn(f, s, state, retire.Recv, p.Name)
	if !ok || !fn.Async && strings.HasPrefix(lines[len(lines)-1], "await ") {
		return diag.Fix{}, false
	}
	e, ok := linesAfter(retire.Module, fn.Body, len(fn.Body)-1, lines)
	if !ok {
		return diag.Fix{}, false
	}
	return diag.Fix{Message: retireAddPopsMessage, Edits: []diag.TextEdit{e}, Applicability: app}, true
}
