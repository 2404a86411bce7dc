package sessions

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gymlint/gymlint/analyzers/pyfix"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
)

// SeedWithoutClose is rule GL302.
var SeedWithoutClose = &diag.Rule{
	Code: "GL302", Name: "seed-without-close", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.CloseSession},
	Summary: "A resources server keeps per-session state in seed_session but has no close_resources_session override.",
	Doc:     ruleDoc("GL302"),
}

func runSeedWithoutClose(v *gym.View) []diag.Diagnostic {
	type group struct {
		seed    *facts.Func
		writes  []*facts.Access
		servers []gym.Server
		// unshadowed counts the servers with no close override at all
		// (not one the framework's default shadows).
		unshadowed int
		notes      []string
		// reorder and adHoc are the remedies of the notes: the bases to
		// list in another order, the methods to serve as the close.
		reorder []string
		adHoc   []string
		related []diag.Related
	}
	f := facts.Of(v)
	var order []*facts.Func
	groups := map[*facts.Func]*group{}
	for _, s := range ResourcesServers(v) {
		seed := f.Override(s.Class, contract.SeedMethod)
		if seed == nil {
			continue
		}
		reach := map[*facts.Func]bool{}
		for _, r := range f.Reach(s.Class, seed) {
			reach[r.Func] = true
		}
		var seedWrites []*facts.Access
		for _, sc := range f.SessionState(s.Class) {
			for _, w := range sc.Writes {
				if reach[w.Func] {
					seedWrites = append(seedWrites, w)
				}
			}
		}
		if len(seedWrites) == 0 {
			continue
		}
		sort.SliceStable(seedWrites, func(i, j int) bool { return seedWrites[i].Node.Range().Start < seedWrites[j].Node.Range().Start })
		d := v.Lookup(s.Class, contract.CloseMethod)
		if d.Uncertain || d.Found() {
			continue
		}
		g := groups[seed]
		if g == nil {
			g = &group{seed: seed, writes: seedWrites}
			groups[seed] = g
			order = append(order, seed)
		}
		g.servers = append(g.servers, s)
		if d.Shadowed != nil && d.Shadowed.Method != nil {
			sh := d.Shadowed.Class
			by := d.ShadowedBy.Name
			if i := strings.LastIndexByte(by, '.'); i >= 0 {
				by = by[i+1:] // the base as the class statement names it
			}
			note := fmt.Sprintf("%s.close_resources_session is shadowed by %s's default", sh.Class.Name, by)
			if !slices.Contains(g.notes, note) {
				g.notes = append(g.notes, note)
				g.reorder = append(g.reorder, fmt.Sprintf("list %s before %s in the bases of %s", sh.Class.Name, by, s.Class.Class.Name))
				g.related = append(g.related, gym.Related(sh.Module, d.Shadowed.Method.NameSpan, "close_resources_session on "+sh.Class.Name+" is shadowed by "+d.ShadowedBy.Name))
			}
		} else {
			g.unshadowed++
		}
		for _, meth := range f.Methods(s.Class) {
			if f.Words().Has(facts.WordAdHocClose, meth.Fn.Name) {
				note := "/close_session does not call " + meth.Name()
				if !slices.Contains(g.notes, note) {
					g.notes = append(g.notes, note)
					g.adHoc = append(g.adHoc, meth.Name())
					g.related = append(g.related, gym.Related(meth.Module, meth.Fn.NameSpan, meth.Name()+" looks like a close, but /close_session does not call it"))
				}
				break
			}
		}
	}
	var out []diag.Diagnostic
	for _, seed := range order {
		g := groups[seed]
		var names []string
		for _, s := range g.servers {
			names = append(names, s.Class.Class.Name)
		}
		list := serverList(names)
		who, keeps, has := seed.Class.Name, "keeps", "has"
		if len(g.servers) != 1 || g.servers[0].Class.Class != seed.Class {
			who = fmt.Sprintf("%s (seed_session of %s)", list, seed.Class.Name)
		}
		if len(g.servers) > 1 {
			keeps, has = "keep", "have"
		}
		w := g.writes[0]
		state := access(w)
		if w.Func != seed {
			state += " in " + w.Func.Name()
		}
		msg := fmt.Sprintf("%s %s per-session state in seed_session (%s) but %s no close_resources_session override", who, keeps, state, has)
		if len(g.notes) > 0 {
			msg += "; " + strings.Join(g.notes, "; ")
		}
		start, end := gym.Range(seed.Module, seed.Class.NameSpan)
		d := SeedWithoutClose.New(seed.Module.Path, start, end, msg)
		var help []string
		if g.unshadowed > 0 {
			override := "override close_resources_session"
			if len(g.adHoc) > 0 {
				override = "serve the close of " + strings.Join(g.adHoc, ", ") + " as a close_resources_session override"
			}
			r := remedyOf(f, g.servers[0], keptState(f, g.servers[0].Class))
			release := "release the state by body.resources_session_id"
			if p := r.pops(r.key("body.resources_session_id")); p != "" {
				release = "release the state (" + p + r.stopClause() + ")"
			}
			if r.releaser != "" && r.minted == "" && r.bodyKey == "" {
				release = "release the state with the server's own " + strings.Replace(r.releaser, "(session_id)", "(body.resources_session_id)", 1)
			}
			if r.minted != "" {
				override += " (it may take the body your own close takes)"
			}
			help = append(help, fmt.Sprintf("%s: %s, %s, and raise when releasing fails%s",
				override, release, fenceHelp(v, "fence the session with ResourcesSessionFences.fence", ""), r.mintedClause("body.resources_session_id")+r.bodyClause("body.resources_session_id")))
		}
		help = append(help, g.reorder...)
		d.Help = strings.Join(help, "; ")
		d.Related = append(d.Related, writesRelated(g.writes)...)
		for _, s := range g.servers {
			if s.Class.Class != seed.Class && len(d.Related) < 2*maxRelated {
				d.Related = append(d.Related, gym.Related(s.Class.Module, s.Class.Class.NameSpan, "server "+s.Class.Class.Name+" inherits this seed_session and has no close"))
			}
		}
		d.Related = append(d.Related, g.related...)
		if len(g.notes) == 0 {
			if fix, ok := seedCloseFix(v, f, g.seed, g.servers); ok {
				d.Fixes = []diag.Fix{fix}
			}
		}
		out = append(out, d)
	}
	return out
}

// seedCloseFixMessage is GL302's fix.
const seedCloseFixMessage = "Override close_resources_session to release the seeded state and fence the session"

// seedCloseFix adds a close_resources_session override after the seed, in
// the class that defines it:
//
//	async def close_resources_session(self, body: ResourcesCloseSessionRequest):
//	    self.counters.pop(body.resources_session_id, None)
//	    self._fences.fence(body.resources_session_id, body.episode_id)
//	    return await super().close_resources_session(body)
//
// releasing what the servers keep per session (releaseLines: the
// server's own release helper called with the id when it has one, else
// each container popped by it, with a TODO to stop first what the server
// stops elsewhere), fencing the session as GL303 asks, and answering with
// the framework's response. The seed starts with the fence check and the
// fences are built in model_post_init when the server has none
// (seedFenceCheck, fenceSetup). It is unsafe: the close changes what
// /close_session does, and a late seed is refused from then on.
//
// No fix when the framework has no close or no fences, when the servers
// of the seed keep different containers, when the state is not keyed by
// the session's id itself (an id the seed mints, a body field, a key made
// from the id), when the seed does not take the framework's
// ResourcesSeedSessionRequest alone, or when, with a close to interleave
// with, the seed would be reported by GL310 (it reads, awaits, then
// writes the session's record without a lock).
func seedCloseFix(v *gym.View, f *facts.Facts, seed *facts.Func, servers []gym.Server) (diag.Fix, bool) {
	cls := seed.Owner()
	if lacks(v, contract.SessionFences) != "" || lacks(v, contract.CloseSession) != "" || seed.Outer != nil || seed.Recv == "" ||
		seed.Class == nil || !editable(v, cls) || !sameStateKeys(f, servers) {
		return diag.Fix{}, false
	}
	s := servers[0]
	for _, o := range servers[1:] {
		if f.AttrHolding(o.Class, contract.SessionFencesClass) != f.AttrHolding(s.Class, contract.SessionFencesClass) {
			return diag.Fix{}, false
		}
	}
	const body = "body"
	release, _, ok := releaseLines(f, s, keptState(f, s.Class), body+"."+contract.SessionIDField)
	if !ok {
		return diag.Fix{}, false
	}
	h := hook{f: f, server: s, fn: seed}
	if len(unserialized(h, sessionState(f, s.Class))) > 0 {
		return diag.Fix{}, false
	}
	m := seed.Module
	names := []string{contract.CloseRequestClass}
	if fencesNeeded(f, s.Class) {
		names = append(names, contract.SessionFencesClass)
	}
	written, edits, ok := pyfix.ImportFrameworkNames(v, m, names, cls.Class.Span.Start)
	if !ok {
		return diag.Fix{}, false
	}
	path, method, setup, ok := fenceSetup(v, f, s.Class, cls, written[contract.SessionFencesClass])
	if !ok {
		return diag.Fix{}, false
	}
	edits = append(edits, setup...)
	check, ok := seedFenceCheck(h, path)
	if !ok {
		return diag.Fix{}, false
	}
	edits = append(edits, check...)
	block := []string{"async def " + contract.CloseMethod + "(self, " + body + ": " + written[contract.CloseRequestClass] + "):"}
	for _, l := range release {
		block = append(block, "\t"+l)
	}
	block = append(block,
		"\tself"+path+".fence("+body+"."+contract.SessionIDField+", "+body+"."+contract.EpisodeIDField+")",
		"\treturn await super()."+contract.CloseMethod+"("+body+")")
	closeEdit, ok := methodAfter(m, seed.Class.Body, seed.Fn, block)
	if !ok {
		return diag.Fix{}, false
	}
	edits = append(edits, closeEdit)
	if method != nil {
		es, ok := pyfix.AppendToClass(m, cls.Class, method, true)
		if !ok {
			return diag.Fix{}, false
		}
		edits = append(edits, es...)
	}
	return diag.Fix{Message: seedCloseFixMessage, Edits: joinInserts(edits), Applicability: diag.Unsafe}, true
}
