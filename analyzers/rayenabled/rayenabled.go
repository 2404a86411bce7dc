// Package rayenabled is the rayenabled analyzer: it checks that every server
// that uses Ray declares `ray_enabled = True` where the server supervisor
// reads it, on the server class in the entrypoint's own source, in a form
// that it can read and that pydantic accepts, and that no server declares
// it for nothing.
//
// Its rules, each documented in full (what it does, why it matters, an
// example, how to fix) in its Doc in rules.go, which `gymlint explain`
// prints and docs/rules.md renders:
//
//   - GL201 undeclared-ray (error): the server uses Ray, the entrypoint does
//     not declare it;
//   - GL202 inherited-ray-enabled (error): the declaration is inherited
//     from a class in another module;
//   - GL203 unreadable-ray-enabled (error): the declaration cannot be read
//     from source (a computed value, set in a function or with setattr, on
//     a class of the entrypoint that is not the server);
//   - GL204 unannotated-ray-enabled (error): a bare `ray_enabled = ...`,
//     which pydantic rejects at import;
//   - GL205 unneeded-ray-enabled (warning): declared, but no Ray use found.
//
// Status gives what the analyzer knows of one server, for the `gymlint
// servers` inventory.
//
// Every server of every entrypoint is analysed once per view, and the five
// rules share that analysis (View.Shared). Entrypoints that do not parse
// and exempt ones (a module that starts no server) get no diagnostics;
// Status still answers for their servers.
//
// The analysis reads pyscan's typed model, the view's resolver and MRO,
// and package facts (the functions, their locals and receivers), never
// source text: use.go finds Ray use, walking each module of a server's
// import closure once; decl.go reads the declaration and the places that
// set ray_enabled at run time; fix.go makes GL204's fix from spans;
// config.go reads the settings configscan gives.
//
// The rayenabled analyzer has no Go counterpart, and needs none: Ray is a
// Python runtime, and the supervisor reads `ray_enabled` only from Python
// entrypoints. Native Go servers are checked by the goworkers and
// gosessions analyzers (go/analysis), which have no Ray rule.
package rayenabled

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// Attr is the class attribute the supervisor reads.
const Attr = "ray_enabled"

// fix is the declaration every message asks for.
const fix = "`ray_enabled: ClassVar[bool] = True`"

// Checks are the rules of this analyzer, in code order.
var Checks = []gym.Check{
	{Rule: UndeclaredRay, Run: runCode(UndeclaredRay.Code)},
	{Rule: InheritedRayEnabled, Run: runCode(InheritedRayEnabled.Code)},
	{Rule: UnreadableRayEnabled, Run: runCode(UnreadableRayEnabled.Code)},
	{Rule: UnannotatedRayEnabled, Run: runDeclOnly(UnannotatedRayEnabled.Code)},
	{Rule: UnneededRayEnabled, Run: runCode(UnneededRayEnabled.Code)},
}

// RayStatus is what gymlint knows of one server's Ray needs.
type RayStatus struct {
	Declared bool          // ray_enabled = True readable on the server class in the entrypoint
	Needed   bool          // Ray use found (see GL201)
	Use      *diag.Related // the first use found, when Needed
}

// Status returns what gymlint knows of a server's Ray needs. s is one of
// the Servers of one of v's entrypoints; a server that is not is analysed
// as if its class's module were its entrypoint.
func Status(v *gym.View, s gym.Server) RayStatus {
	a := analysisOf(v)
	for _, r := range a.servers {
		if r.server.Class.Class == s.Class.Class && r.server.Call == s.Call {
			return r.status
		}
	}
	if s.Class.Module == nil || s.Class.Class == nil {
		return RayStatus{}
	}
	e := &gym.Entrypoint{Path: s.Class.Module.Path, Module: s.Class.Module, Servers: []gym.Server{s}}
	return analyseServer(v, a.scanner, e, s).status
}

func runCode(code string) func(v *gym.View) []diag.Diagnostic {
	return func(v *gym.View) []diag.Diagnostic {
		var out []diag.Diagnostic
		for _, d := range analysisOf(v).diags {
			if d.Code == code {
				out = append(out, d)
			}
		}
		return out
	}
}

// analysis is the result for one view.
type analysis struct {
	scanner *scanner
	servers []*serverResult
	diags   []diag.Diagnostic
}

type serverResult struct {
	server gym.Server
	status RayStatus
	diags  []diag.Diagnostic
}

// analysisKey keeps the analysis of a view in the view (gym.View.Shared),
// so that the five rules and Status share one run.
type analysisKey struct{}

func analysisOf(v *gym.View) *analysis {
	return v.Shared(analysisKey{}, func() any {
		a := &analysis{scanner: newScanner(v)}
		a.run(v, true)
		return a
	}).(*analysis)
}

// declOnlyKey keeps the analysis without the search for Ray use: GL204
// (a bare ray_enabled) is a matter of the declaration alone, and when it
// is the only rule of the analyzer that runs (the contract of a framework
// that predates the Ray declaration lets no other apply), the modules of
// the servers' import closures are not parsed for it.
type declOnlyKey struct{}

func declOnlyOf(v *gym.View) *analysis {
	return v.Shared(declOnlyKey{}, func() any {
		a := &analysis{scanner: newScanner(v)}
		a.run(v, false)
		return a
	}).(*analysis)
}

// runDeclOnly is runCode for a rule whose findings do not depend on the
// servers' Ray use: from the declaration-only analysis.
func runDeclOnly(code string) func(v *gym.View) []diag.Diagnostic {
	return func(v *gym.View) []diag.Diagnostic {
		var out []diag.Diagnostic
		for _, d := range declOnlyOf(v).diags {
			if d.Code == code {
				out = append(out, d)
			}
		}
		return out
	}
}

// run analyses every server of every parsed entrypoint, in parallel;
// without withUse, as if no server used Ray (the findings that depend on
// Ray use are then not to be read).
func (a *analysis) run(v *gym.View, withUse bool) {
	type job struct {
		e *gym.Entrypoint
		s gym.Server
	}
	var jobs []job
	for _, e := range v.Entrypoints {
		if e.Module == nil {
			continue
		}
		for _, s := range e.Servers {
			jobs = append(jobs, job{e, s})
		}
	}
	results := make([]*serverResult, len(jobs))
	workers := v.Options.Jobs
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = analyseServerWith(v, a.scanner, jobs[i].e, jobs[i].s, withUse)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	a.servers = results
	seen := map[string]bool{}
	for _, r := range results {
		for _, d := range r.diags {
			k := fmt.Sprintf("%s\x00%s\x00%d", d.Code, d.Path, d.Start.Offset)
			if !seen[k] {
				seen[k] = true
				a.diags = append(a.diags, d)
			}
		}
	}
	diag.Sort(a.diags)
}

// analyseServer finds what the rules say about one server of e.
func analyseServer(v *gym.View, sc *scanner, e *gym.Entrypoint, s gym.Server) *serverResult {
	return analyseServerWith(v, sc, e, s, true)
}

// analyseServerWith is analyseServer, without the search for Ray use
// unless search.
func analyseServerWith(v *gym.View, sc *scanner, e *gym.Entrypoint, s gym.Server, withUse bool) *serverResult {
	m := e.Module
	r := &serverResult{server: s}
	var found search
	if withUse {
		found = sc.search(m, s.Class)
	}
	var own *ownDecl
	if s.Class.Module == m {
		own = ownDeclOf(s.Class.Class)
	}
	r.status = RayStatus{Declared: own != nil && isTrue(own.attr.Value), Needed: found.use != nil, Use: found.related()}
	if m.SyntaxError != nil || e.Exemption != nil {
		return r
	}
	if !withUse {
		// The declaration alone: GL204, as checkOwn finds it.
		d := &decl{v: v, e: e, s: s}
		if own != nil && own.attr.Annotation == nil && own.attr.Value != nil {
			if dg, ok := d.unannotated(own); ok {
				r.diags = []diag.Diagnostic{dg}
			}
		}
		return r
	}
	d := &decl{v: v, e: e, s: s, found: found, sets: sc.module(m, true).sets}
	r.diags = d.check(own)
	return r
}
