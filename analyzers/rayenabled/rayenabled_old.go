//go:build ignore

package rayenabled

import (
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// Checks are the rules of this analyzer.
var Checks = []gym.Check{
	{Rule: UndeclaredRay, Run: runCode(UndeclaredRay.Code)},
	{Rule: InheritedRayEnabled, Run: runCode(InheritedRayEnabled.Code)},
	{Rule: UnreadableRayEnabled, Run: runCode(UnreadableRayEnabled.Code)},
	{Rule: UnannotatedRayEnabled, Run: runCode(UnannotatedRayEnabled.Code)},
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
	return analyseServer(v, newScanner(v), e, s).status
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
	servers []*serverResult
	diags   []diag.Diagnostic
}

type serverResult struct {
	entry  *gym.Entrypoint
	server gym.Server
	status RayStatus
	diags  []diag.Diagnostic
}

// analysisKey keeps the analysis of a view in the view (gym.View.Shared),
// so that the five rules and Status share one run.
type analysisKey struct{}

func analysisOf(v *gym.View) *analysis {
	return v.Shared(analysisKey{}, func() any {
		a := &analysis{}
		a.run(v)
		return a
	}).(*analysis)
}

func (a *analysis) run(v *gym.View) {
	sc := newScanner(v)
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
				results[i] = analyseServer(v, sc, jobs[i].e, jobs[i].s)
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

// search is the outcome of the search for Ray use of one server.
type search struct {
	use *use
	rec *gym.Imported // the module record the use is in
	// ancestor says which class's module each root other than the
	// entrypoint is ("ancestor class X", "server class X"), by path.
	ancestor map[string]string
	// complete: every module on the way was read and parsed, and the
	// ancestry resolved.
	complete bool
}

func searchUse(v *gym.View, sc *scanner, m *pyscan.Module, cls gym.ClassRef) search {
	res := search{ancestor: map[string]string{}, complete: true}
	roots := []*pyscan.Module{m}
	mro, ok := v.MRO(cls)
	if !ok {
		res.complete = false
	}
	for _, a := range mro {
		switch a.Kind {
		case gym.Own:
			if a.Class.Module != m {
				if _, dup := res.ancestor[a.Class.Module.Path]; !dup {
					what := "ancestor class "
					if a.Class.Class == cls.Class {
						what = "server class "
					}
					res.ancestor[a.Class.Module.Path] = what + a.Class.Class.Name
				}
				roots = append(roots, a.Class.Module)
			}
		case gym.Unresolved:
			res.complete = false
		}
	}
	for _, rec := range sc.graph.Closure(roots...) {
		if rec.Module == nil {
			res.complete = false
			continue
		}
		if rec.Module.SyntaxError != nil {
			res.complete = false
		}
		if res.use != nil {
			continue
		}
		if u := sc.firstUse(rec.Module, rec.Module == m); u != nil {
			res.use, res.rec = u, rec
		}
	}
	return res
}

// describe says where the use is: "resources_servers/x/app.py:3 imports
// ray", and how the entrypoint reaches that module.
func (s search) describe(entry string) string {
	u := s.use
	out := fmt.Sprintf("%s:%d %s", u.path, u.span.Start.Line, u.what)
	if s.rec == nil {
		return out
	}
	var hops []string
	r := s.rec
	for ; r.By != nil; r = r.By {
		hops = append([]string{fmt.Sprintf("%s:%d", r.By.Path, r.Import.Span.Start.Line)}, hops...)
	}
	root := r.Path
	if name, ok := s.ancestor[root]; ok {
		if len(hops) == 0 {
			return out + fmt.Sprintf(", in the module of %s", name)
		}
		return out + fmt.Sprintf(", imported from the module of %s through %s", name, strings.Join(hops, ", "))
	}
	if len(hops) > 0 && root == entry {
		return out + ", imported through " + strings.Join(hops, ", ")
	}
	return out
}

func (s search) related() *diag.Related {
	if s.use == nil {
		return nil
	}
	return &diag.Related{Path: s.use.path, Start: gym.PyPos(s.use.span.Start), End: gym.PyPos(s.use.span.End),
		Message: "Ray is used here: " + s.use.what}
}

// analyseServer finds what the rules say about one server of e.
func analyseServer(v *gym.View, sc *scanner, e *gym.Entrypoint, s gym.Server) *serverResult {
	m := e.Module
	cls := s.Class
	r := &serverResult{entry: e, server: s}
	found := searchUse(v, sc, m, cls)
	inEntry := cls.Module == m
	var own *pyscan.ClassAttr
	if inEntry {
		own = cls.Class.Attr(Attr)
	}
	r.status = RayStatus{Declared: own != nil && literal(own.Value) == "True", Needed: found.use != nil, Use: found.related()}
	if m.SyntaxError != nil || e.Exemption != nil {
		return r
	}
	d := &decl{v: v, e: e, s: s, found: found}
	r.diags = d.check(own)
	return r
}

// literal returns "True" or "False" when e is that literal (in parentheses
// or not), else "".
func literal(e *pyscan.Expr) string {
	if e == nil {
		return ""
	}
	t := strings.TrimSpace(e.Text)
	for strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	if t == "True" || t == "False" {
		return t
	}
	return ""
}
