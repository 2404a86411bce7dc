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
	Doc: `## What it does
Reports, as information, a server whose ` + "`multiple_workers_unsupported_reason()`" + ` returns a reason on every
path although gymlint finds nothing that needs one process:

- it keeps per-session state (a dictionary or set attribute of the server with a write keyed by the
  session), and every access by key of every attribute container of its code is keyed by the routed
  session: the session cookie's ` + "`request.session[SESSION_ID_KEY]`" + ` or ` + "`body.resources_session_id`" + ` (and what
  derives from them, as in rule GL105). A key from a body field, a minted id or an untraced local
  keeps it silent; so does a module-level container, and an access of a whole container (iterating,
  passing it on, ` + "`len()`" + `) outside start-up;
- no hazard rule (GL107 and the multi-worker hazard rules after it) and not GL105 finds anything in
  it;
- its code (the winning methods, what they reach, nested functions) and the modules that hold it
  import none of ` + "`ray`" + `, ` + "`subprocess`" + `, ` + "`multiprocessing`" + `, ` + "`socket`" + `, ` + "`threading`" + `, ` + "`concurrent`" + `, ` + "`docker`" + `,
  ` + "`random`" + `, ` + "`shutil`" + `, ` + "`tempfile`" + `, file-lock modules and the like; make no call that writes files or starts a
  process (` + "`open(..., \"w\")`" + `, ` + "`json.dump`" + `, ` + "`os.makedirs`" + `, ` + "`Path.write_text`" + `, ` + "`asyncio.create_subprocess_exec`" + `);
  store no attribute of the server (` + "`self.count += 1`" + `) outside start-up; and have no ` + "`global`" + ` statement.

A refusal under a condition is not reported, nor one gymlint cannot read. The finding is at the
override, with the session-keyed writes as related positions.

## Why it matters
A refusal makes a server run in one process whatever the config asks. When the only state it keeps
between requests is per session, under the id session routing follows, each worker serves its own
sessions and nothing is lost with several workers: the refusal may be left from before the state
was keyed by the session. The seed's review said this of three servers. This is a hint, not a
proof: the owners know what else ties the server to one process.

## Example
` + "```python" + `
class NotesServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:   # reported
        return "Notes live in the server's memory."

    async def seed_session(self, request, body):
        self.notes[request.session[SESSION_ID_KEY]] = []

    async def verify(self, request, body):
        return {"reward": float(len(self.notes.get(request.session[SESSION_ID_KEY], [])))}
` + "```" + `

## How to fix
If nothing else ties the server to one process, drop the override (or return ` + "`None`" + `) and give the
entrypoint a module-level ` + "`app`" + `. If something does, keep the refusal and name that in its reason; to
silence the hint, suppress it with the reason.`,
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
