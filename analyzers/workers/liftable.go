package workers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gymlint/gymlint/analyzers/workers/refusal"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// LiftableRefusal is rule GL114.
var LiftableRefusal = &diag.Rule{
	Code: "GL114", Name: "liftable-refusal", Analyzer: "workers", Severity: diag.Info,
	Needs:   []string{contract.WorkerRefusal},
	Summary: "A server refuses several workers always, yet its per-session state is keyed by the routed session and nothing else gymlint sees ties it to one process.",
	Doc:     ruleDoc("GL114"),
}

// liftPlace identifies a refusal override.
type liftPlace struct {
	m   *pyscan.Module
	off int32
}

type liftFinding struct {
	res     *refusal.Result
	servers []string
	writes  []*facts.Access
	noApp   bool
	bad     bool
}

func runLiftable(v *gym.View) []diag.Diagnostic {
	by := map[liftPlace]*liftFinding{}
	var order []liftPlace
	for _, e := range v.Entrypoints {
		if !usable(e) {
			continue
		}
		for _, s := range e.Servers {
			r := refusal.Of(v, s.Class)
			if r.Uncertain || r.Kind != refusal.Always || r.Method == nil {
				continue
			}
			k := liftPlace{r.Class.Module, r.Method.NameSpan.Start}
			f := by[k]
			if f == nil {
				f = &liftFinding{res: r}
				by[k] = f
				order = append(order, k)
			}
			ws, ok := liftable(v, e, s.Class)
			if !ok {
				f.bad = true // every server of the refusal must qualify
				continue
			}
			f.servers = append(f.servers, s.Class.Class.Name)
			f.writes = append(f.writes, ws...)
			f.noApp = f.noApp || gym.HasModuleApp(e.Module) == nil
		}
	}
	var out []diag.Diagnostic
	for _, k := range order {
		f := by[k]
		if f.bad || len(f.servers) == 0 {
			continue
		}
		out = append(out, liftDiag(f))
	}
	return out
}

func liftDiag(f *liftFinding) diag.Diagnostic {
	r := f.res
	m := r.Class.Module
	var names []string
	for _, w := range f.writes {
		if n := w.Container.Name; !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	start, end := gym.Range(m, r.Method.NameSpan)
	d := LiftableRefusal.New(m.Path, start, end, fmt.Sprintf(
		"%s refuses several workers always, but its per-session state (%s) is keyed by the routed session",
		strings.Join(f.servers, ", "), strings.Join(names, ", ")))
	d.Help = "if nothing else ties it to one process, drop the refusal (return None)"
	if f.noApp {
		d.Help += " and give the entrypoint a module-level app"
	}
	d.Help += "; otherwise name what does in the reason"
	seen := map[*facts.Access]bool{}
	for _, w := range f.writes {
		if seen[w] || len(d.Related) == 3 {
			continue
		}
		seen[w] = true
		d.Related = append(d.Related, gym.Related(w.Func.Module, w.Node.Range(),
			fmt.Sprintf("%s is keyed by the session here in %s", w.Container.Name, w.Func.Fn.Name)))
	}
	return d
}

// liftable reports whether nothing gymlint sees ties server to one process
// but state keyed by the routed session, and returns the session-keyed
// writes that show that state.
func liftable(v *gym.View, e *gym.Entrypoint, server gym.ClassRef) ([]*facts.Access, bool) {
	if mro, ok := v.MRO(server); !ok || len(mro) == 0 {
		return nil, false
	}
	if len(Hazards(v, e, server)) > 0 || len(unroutedServer(v, server)) > 0 {
		return nil, false
	}
	fx := facts.Of(v)
	routes := unroutedRoutes(fx, server)
	startupOnly := func(fn *facts.Func) bool { return routes(fn) == nil }
	for _, t := range fx.ProcessTies(server) {
		if t.Func == nil || !strings.HasPrefix(t.What, "store ") || !startupOnly(t.Func) {
			return nil, false
		}
	}
	var writes []*facts.Access
	for _, c := range fx.StateOf(server).Containers {
		if !strings.HasPrefix(c.Key, ".") {
			return nil, false // a module-level container
		}
		for _, a := range c.Accesses {
			if a.Key == nil {
				if !startupOnly(a.Func) {
					return nil, false // the whole container, in a route
				}
				continue
			}
			if a.KeyOf.Kind != facts.KeySession {
				return nil, false
			}
			if a.Kind.Writes() {
				writes = append(writes, a)
			}
		}
	}
	return writes, len(writes) > 0
}
