package workers

import (
	"fmt"
	"path"
	"strings"

	"github.com/gymlint/gymlint/analyzers/pyfix"
	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// GL101's two suggested fixes, both unsafe (which one is right is the
// author's call): a module-level app in an elif branch of the __main__
// guard, and an override of the refusal method with a TODO reason (or,
// for a server that refuses several workers the legacy way, GL103's
// conversion of that check, so that the two rules' fixes agree). Their
// edits are computed from the model: where the guard's body and the class
// body end, the module's import insertion point, the indentation and line
// endings of the lines around them.
//
// Which fix comes first (the one gymlint --fix --unsafe-fixes applies)
// is decided for all the findings together, so that the first fixes,
// applied together, create no GL101, GL104 or GL106 finding
// (planUndeclaredFixes).

const (
	appFixMessage      = "Add a module-level app (the server is safe with several workers)"
	overrideFixMessage = "Override multiple_workers_unsupported_reason() to refuse several workers"
	overrideReason     = "TODO: say why this server cannot run with several workers"
)

// undeclaredFinding is a GL101 finding with servers, whose fixes
// planUndeclaredFixes decides.
type undeclaredFinding struct {
	d       *diag.Diagnostic
	e       *gym.Entrypoint
	missing []*gym.Server
	app     diag.Fix
	hasApp  bool
	ov      plannedOverride
	first   firstFix
	// inherited is the class whose override, which another finding's
	// first fix adds, the server inherits (first == firstInherited).
	inherited *pyscan.Class
	// orig is the first fix before any is borrowed from an ancestor.
	orig firstFix
}

type firstFix int

const (
	firstNone firstFix = iota
	firstApp
	firstOverride
	firstInherited
)

// plannedOverride is the override fix of a finding: its edits, and the
// classes they give an override, each with whether it refuses always and
// whether it is a stub of GL101's own (not a legacy check's conversion).
type plannedOverride struct {
	edits   []diag.TextEdit
	targets []overrideTarget
	ok      bool
	// legacyAlways: the server's legacy check refuses always, and the
	// override replaces it.
	legacyAlways bool
}

type overrideTarget struct {
	class  gym.ClassRef
	always bool
	stub   bool
	edits  []diag.TextEdit // the edits that give this class its override
}

// planUndeclaredFixes gives the GL101 findings their fixes. A finding's
// first fix is its app, unless it has none (several servers, no __main__
// guard), or its server's legacy check refuses always (the app would
// never be served once GL103's fix makes that check an override), or the
// app would expose what a multi-worker hazard rule finds in the server
// (GL105, GL107-GL117: the server is not safe with several workers as it
// is); then it is the override. An override first fix is dropped when it
// would make a server refuse that a config asks several workers of
// (GL104), or whose module-level app exists (GL106). Last, a finding
// whose server inherits a class that another finding's first fix gives
// an override that refuses always takes that same override first (the
// planner applies identical edits once): its app would never be served,
// and a stub of its own would add nothing.
//
// With gym.Options.FixesCounted, the hazards are not looked for (the app
// comes first where they would decide). That changes which fix comes
// first, and through the borrowed overrides which edits, but not whether
// a finding has fixes nor their applicability: a finding whose hazards
// would decide has both its app and its override, every fix here is
// unsafe, and each of the later steps (overrideHarms, a borrowed
// override) only trades one fix of a finding for another it has.
func planUndeclaredFixes(v *gym.View, found []*undeclaredFinding) {
	conv := legacyConversions(v)
	for _, f := range found {
		if len(f.missing) == 1 {
			// One app can start one server only.
			f.app, f.hasApp = appFix(v, f.e.Module, f.missing[0])
		}
		f.ov = overrideFor(v, conv, f.missing)
		switch {
		case f.ov.ok && (f.ov.legacyAlways || !f.hasApp):
			f.first = firstOverride
		case f.ov.ok && !v.Options.FixesCounted && appExposes(v, f.e, f.missing[0].Class):
			// Only the order of the finding's two fixes depends on
			// this, and the hazard checks are most of the plan's work:
			// a check that counts the fixes leaves them out.
			f.first = firstOverride
		case f.hasApp:
			f.first = firstApp
		}
	}
	servers := startedServers(v)
	for _, f := range found {
		if f.first != firstOverride || f.ov.legacyAlways {
			continue
		}
		for _, t := range f.ov.targets {
			if t.stub && t.always && overrideHarms(v, t.class.Class, servers) {
				f.first = firstNone
				if f.hasApp {
					f.first = firstApp
				}
				break
			}
		}
	}
	// The classes the first fixes give an override that refuses always,
	// and the findings whose server inherits one: an app-first finding
	// (its app would never be served), or one whose first fix is a stub
	// on its own class (a second stub says nothing more). A finding that
	// takes an ancestor's override gives its own class none, so the
	// search runs again until no finding moves.
	for _, f := range found {
		f.orig = f.first
	}
	var given map[*pyscan.Class]overrideTarget
	for round := 0; ; round++ {
		given = givenOverrides(found)
		moved := false
		for _, f := range found {
			if !f.mayInherit() {
				continue
			}
			t, ok := inheritedOverride(v, f.missing[0].Class, given, f.orig == firstOverride)
			switch {
			case ok:
				moved = moved || f.first != firstInherited
				f.first, f.inherited = firstInherited, t.class.Class
			case f.first == firstInherited:
				// The ancestor's override went to an ancestor this
				// server does not take it from: back to its own.
				f.first, f.inherited, moved = f.orig, nil, true
			}
		}
		if !moved || round > len(found) {
			break
		}
	}
	given = givenOverrides(found)
	for _, f := range found {
		if f.first == firstInherited && given[f.inherited].edits == nil {
			f.first = f.orig // the search did not settle: no borrowed override
		}
	}
	for _, f := range found {
		f.d.Fixes = f.fixes(given)
	}
}

// givenOverrides are the classes that the findings' first fixes give an
// override that refuses on every path.
func givenOverrides(found []*undeclaredFinding) map[*pyscan.Class]overrideTarget {
	given := map[*pyscan.Class]overrideTarget{}
	for _, f := range found {
		if f.first != firstOverride {
			continue
		}
		for _, t := range f.ov.targets {
			if t.always {
				given[t.class.Class] = t
			}
		}
	}
	return given
}

// mayInherit reports whether a finding's first fix may be another
// finding's override, on a class its server inherits: its own first fix
// is its app, or the stub on its own class alone.
func (f *undeclaredFinding) mayInherit() bool {
	switch f.orig {
	case firstApp:
		return true
	case firstOverride:
		return len(f.missing) == 1 && !f.ov.legacyAlways && len(f.ov.targets) == 1 &&
			f.ov.targets[0].stub && f.ov.targets[0].class.Class == f.missing[0].Class.Class
	}
	return false
}

// fixes lists a finding's fixes, its first fix first.
func (f *undeclaredFinding) fixes(given map[*pyscan.Class]overrideTarget) []diag.Fix {
	ov := diag.Fix{Message: overrideFixMessage, Edits: f.ov.edits, Applicability: diag.Unsafe}
	switch f.first {
	case firstApp:
		out := []diag.Fix{f.app}
		if f.ov.ok {
			out = append(out, ov)
		}
		return out
	case firstOverride:
		out := []diag.Fix{ov}
		if f.hasApp && !f.ov.legacyAlways {
			out = append(out, f.app)
		}
		return out
	case firstInherited:
		t := given[f.inherited]
		msg := overrideFixMessage
		if s := f.missing[0].Class.Class; s != t.class.Class {
			msg = fmt.Sprintf("Override multiple_workers_unsupported_reason() in %s, which %s inherits, to refuse several workers",
				t.class.Class.Name, s.Name)
		}
		return []diag.Fix{{Message: msg, Edits: t.edits, Applicability: diag.Unsafe}, f.app}
	}
	return nil
}

// overrideFor is the override fix for the servers of a finding: for each
// server, the conversion of its legacy check when GL103 has one, else the
// stub on its class, once per class.
func overrideFor(v *gym.View, conv *conversions, missing []*gym.Server) plannedOverride {
	var p plannedOverride
	seen := map[*pyscan.Class]bool{}
	for _, s := range missing {
		cls := s.Class
		if c := conv.byServer[cls.Class]; c != nil {
			if len(missing) == 1 && c.always {
				p.legacyAlways = true
			}
			for _, t := range c.targets {
				if !seen[t.Class] {
					seen[t.Class] = true
					p.targets = append(p.targets, overrideTarget{class: t, always: c.always, edits: c.edits})
				}
			}
			p.edits = append(p.edits, c.edits...)
			continue
		}
		if conv.byTarget[cls.Class] != nil {
			// Another server's conversion gives this class its override,
			// which may not refuse for this server: no override fix.
			return plannedOverride{}
		}
		if seen[cls.Class] {
			continue
		}
		seen[cls.Class] = true
		es, ok := overrideEdits(v, cls)
		if !ok {
			return plannedOverride{}
		}
		p.targets = append(p.targets, overrideTarget{class: cls, always: true, stub: true, edits: es})
		p.edits = append(p.edits, es...)
	}
	edits, ok := dedupFixEdits(p.edits)
	if !ok || len(edits) == 0 {
		return plannedOverride{}
	}
	p.edits, p.ok = edits, true
	return p
}

// appExposes reports whether a module-level app for server s of e would
// expose a multi-worker hazard: what the hazard rules (Hazards) or GL105
// (unroutedServer) find in the server, which they report once it accepts
// several workers.
func appExposes(v *gym.View, e *gym.Entrypoint, s gym.ClassRef) bool {
	return len(Hazards(v, e, s)) > 0 || len(unroutedServer(v, s)) > 0
}

// startedServer is a server class an entrypoint starts.
type startedServer struct {
	e *gym.Entrypoint
	s gym.ClassRef
}

func startedServers(v *gym.View) []startedServer {
	var out []startedServer
	for _, e := range v.Entrypoints {
		for _, s := range e.Servers {
			if s.Class.Class != nil {
				out = append(out, startedServer{e, s.Class})
			}
		}
	}
	return out
}

// overrideHarms reports whether an override that refuses always, added to
// class t, would make a server refuse that a config asks several workers
// of (GL104), or that a module-level app serves (GL106).
func overrideHarms(v *gym.View, t *pyscan.Class, servers []startedServer) bool {
	for _, ss := range servers {
		if !overrideWins(v, t, ss.s) {
			continue
		}
		if asksSeveralWorkers(v, ss.e) {
			return true
		}
		if !usable(ss.e) {
			continue
		}
		if app := gym.HasModuleApp(ss.e.Module); app != nil {
			if as, ok := appServer(v, ss.e, app); ok && as.Class == ss.s.Class {
				return true
			}
		}
	}
	return false
}

// overrideWins reports whether an override of the refusal method added to
// class t would be the one server s's MRO finds: t comes before any
// framework server base and any other class that defines the method.
func overrideWins(v *gym.View, t *pyscan.Class, s gym.ClassRef) bool {
	mro, ok := v.MRO(s)
	if !ok {
		return false
	}
	for _, a := range mro {
		switch a.Kind {
		case gym.Own:
			if a.Class.Class == t {
				return true
			}
			if a.Class.Class.Method(Method) != nil || a.Class.Class.Attr(Method) != nil {
				return false
			}
		case gym.FrameworkServer, gym.Unresolved:
			return false
		}
	}
	return false
}

// inheritedOverride returns the class of given whose override server s
// would inherit: the first of them in its MRO (after s's own class when
// skipOwn is set), when that override wins.
func inheritedOverride(v *gym.View, s gym.ClassRef, given map[*pyscan.Class]overrideTarget, skipOwn bool) (overrideTarget, bool) {
	mro, ok := v.MRO(s)
	if !ok {
		return overrideTarget{}, false
	}
	for _, a := range mro {
		if a.Kind != gym.Own || skipOwn && a.Class.Class == s.Class {
			continue
		}
		if t, ok := given[a.Class.Class]; ok && overrideWins(v, a.Class.Class, s) {
			return t, true
		}
	}
	return overrideTarget{}, false
}

// asksSeveralWorkers reports whether a config asks the servers of an
// entrypoint for num_workers above 1, where GL104 reads it: the config
// entries that name it, the overrides of its server directory, and the
// composed runs that start it.
func asksSeveralWorkers(v *gym.View, e *gym.Entrypoint) bool {
	several := func(inst *configscan.Instance) bool {
		if inst == nil {
			return false
		}
		pair := inst.Settings.GetPair(conflictKey)
		if pair == nil {
			return false
		}
		n, ok := conflictWorkers(pair.Value)
		return ok && n > 1
	}
	for _, ref := range e.Configs {
		if several(ref.Instance) {
			return true
		}
	}
	if typ, dir, ok := strings.Cut(e.Path, "/"); ok && e.ServerDirApp && path.Base(dir) == "app.py" {
		for _, o := range v.OverridesOf(typ, path.Dir(dir)) {
			if several(o.Instance) {
				return true
			}
		}
	}
	for _, rs := range v.RunServersOf(e.Path) {
		if !rs.Run.Fatal && several(rs.Instance) {
			return true
		}
	}
	return false
}

// appFix adds the module-level app in an elif branch of the __main__ guard
// whose body starts s.
func appFix(v *gym.View, m *pyscan.Module, s *gym.Server) (diag.Fix, bool) {
	c := s.Call
	if c == nil {
		return diag.Fix{}, false
	}
	a, ok := c.Func.(*pyscan.Attribute)
	if !ok || a.Attr != contract.RunWebserverMethod {
		return diag.Fix{}, false
	}
	recv := pyscan.Dotted(a.Value)
	if recv == "" {
		return diag.Fix{}, false
	}
	var g *pyscan.MainGuard
	for _, mg := range m.MainGuards {
		if mg.Body.Contains(c.Span) {
			g = mg
		}
	}
	if g == nil {
		return diag.Fix{}, false
	}
	guardIndent, ok := indentBefore(m, g.Span.Start)
	if !ok {
		return diag.Fix{}, false
	}
	bodyIndent, ok := indentBefore(m, g.Body.Start)
	if !ok {
		// `if __name__ == "__main__": X.run_webserver()` on one line.
		bodyIndent = guardIndent + indentUnit(guardIndent)
	}
	name, edits, ok := pyfix.ImportFramework(v, m, contract.EntrypointFunc, g.Span.Start)
	if !ok {
		return diag.Fix{}, false
	}
	at, prefix, nl := lineAfter(m, g.Body.End)
	text := prefix + guardIndent + "elif " + name + "(__file__):" + nl +
		bodyIndent + contract.ModuleApp + " = " + recv + "." + contract.RunWebserverMethod + "()" + nl
	edits = append(edits, diag.TextEdit{Path: m.Path, Start: at, End: at, NewText: text})
	return diag.Fix{Message: appFixMessage, Edits: edits, Applicability: diag.Unsafe}, true
}

// overrideEdits appends the stub override to the body of one class, and
// makes the refusal come first in the model_post_init of the servers it
// makes refuse (refuseFirstEdits).
func overrideEdits(v *gym.View, cls gym.ClassRef) ([]diag.TextEdit, bool) {
	es, ok := appendMethodEdits(v, cls, stubLines())
	if !ok {
		return nil, false
	}
	return append(es, refuseFirstEdits(v, cls.Class)...), true
}

// refuseFirstEdits are the edits of GL102's fix for the servers that an
// override added to class t makes refuse and whose model_post_init does
// work before any refusal: once they can refuse, GL102 reports that work,
// so a fix that adds the override makes the refusal come first too.
func refuseFirstEdits(v *gym.View, t *pyscan.Class) []diag.TextEdit {
	fx := facts.Of(v)
	var out []diag.TextEdit
	seen := map[*facts.Func]bool{}
	for _, ss := range startedServers(v) {
		if !overrideWins(v, t, ss.s) {
			continue
		}
		post := fx.Override(ss.s, contract.ModelPostInitMethod)
		if post == nil || seen[post] {
			continue
		}
		seen[post] = true
		if res := latePostInit(fx, ss.s, post, 0); res.work != nil {
			if f, ok := lateFix(v, post, res); ok {
				out = append(out, f.Edits...)
			}
		}
	}
	return out
}

// indentBefore, indentUnit and lineAfter are pyfix's, for the workers
// fixes' edits.
var (
	indentBefore = pyfix.IndentBefore
	indentUnit   = pyfix.IndentUnit
)

func lineAfter(m *pyscan.Module, off int32) (at diag.Pos, prefix, nl string) {
	o, prefix, nl := pyfix.LineAfter(m, off)
	return gym.Pos(m, o), prefix, nl
}
