package workers

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/contract"

	"github.com/gymlint/gymlint/analyzers/workers/refusal"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// LateWorkerRefusal is rule GL102.
var LateWorkerRefusal = &diag.Rule{
	Code: "GL102", Name: "late-worker-refusal", Analyzer: "workers", Severity: diag.Error,
	Needs:   []string{contract.WorkerRefusal},
	Summary: "A server that can refuse several workers does setup in model_post_init before refuse_unsupported_num_workers(self).",
	Doc:     ruleDoc("GL102"),
}

func runLateRefusal(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	seen := map[placeKey]bool{}
	for _, e := range v.Entrypoints {
		if !usable(e) {
			continue
		}
		for _, s := range e.Servers {
			d, ok := lateRefusal(v, s.Class)
			if !ok {
				continue
			}
			if k := placeOf(d); !seen[k] {
				seen[k] = true
				out = append(out, d)
			}
		}
	}
	return out
}

func lateRefusal(v *gym.View, server gym.ClassRef) (diag.Diagnostic, bool) {
	r := refusal.Of(v, server)
	if r.Uncertain || r.Kind == refusal.Never {
		return diag.Diagnostic{}, false
	}
	fx := facts.Of(v)
	post := fx.Override(server, contract.ModelPostInitMethod)
	if post == nil {
		return diag.Diagnostic{}, false
	}
	res := latePostInit(fx, server, post, 0)
	if res.work == nil {
		return diag.Diagnostic{}, false
	}
	fn, m := post.Fn, post.Module
	reasonRel := gym.Related(r.Def.Class.Module, defSpan(r.Def),
		fmt.Sprintf("%s.%s() can refuse several workers", r.Def.Class.Class.Name, Method))
	what := callName(res.work)
	var related []diag.Related
	if res.viaSuper != nil {
		// The work is in a parent's model_post_init that the super call runs.
		w := res.viaSuper
		what = fmt.Sprintf("super().%s() (which runs %s() in %s.%s first)", contract.ModelPostInitMethod, callName(w), w.In.Class.Name, contract.ModelPostInitMethod)
		related = append(related, gym.Related(w.In.Module, w.Call.Span,
			fmt.Sprintf("%s.%s calls %s() before any refusal", w.In.Class.Name, contract.ModelPostInitMethod, callName(w))))
	} else {
		what += "()"
	}
	cls := post.Class.Name
	var d diag.Diagnostic
	if res.refusal != nil {
		start, end := gym.Range(m, res.work.Call.Span)
		d = LateWorkerRefusal.New(m.Path, start, end, fmt.Sprintf(
			"%s.%s calls %s before %s(self) at line %d",
			cls, contract.ModelPostInitMethod, what, contract.RefuseWorkersFunc, m.Line(res.refusal.Call.Span.Start)))
		d.Help = fmt.Sprintf("call %s(self) first in %s.%s", contract.RefuseWorkersFunc, cls, contract.ModelPostInitMethod)
		related = append(related, gym.Related(m, res.refusal.Call.Span, "the refusal comes only here"))
	} else {
		start, end := gym.Range(m, fn.NameSpan)
		d = LateWorkerRefusal.New(m.Path, start, end, fmt.Sprintf(
			"%s.%s calls %s at line %d but never %s(self), though %s can refuse several workers",
			cls, contract.ModelPostInitMethod, what, m.Line(res.work.Call.Span.Start), contract.RefuseWorkersFunc, server.Class.Name))
		d.Help = fmt.Sprintf("call %s(self) (from %s) first in %s.%s", contract.RefuseWorkersFunc, v.Options.Framework.ImportOf(contract.RefuseWorkersFunc, v.Options.FrameworkPackage), cls, contract.ModelPostInitMethod)
		related = append([]diag.Related{gym.Related(m, res.work.Call.Span, "first work in "+contract.ModelPostInitMethod)}, related...)
	}
	d.Related = append(related, reasonRel)
	if f, ok := lateFix(v, post, res); ok {
		d.Fixes = []diag.Fix{f}
	}
	return d, true
}

// lateResult is what one model_post_init does first.
type lateResult struct {
	refused bool        // the refusal comes before any work
	work    *facts.Call // the first work call, when work comes first
	// viaSuper is set when work is a super().model_post_init call whose
	// parent does work first: the parent's first work call.
	viaSuper *facts.Call
	// refusal is a refusal call after the work, in the same method.
	refusal *facts.Call
}

// maxPostInitDepth bounds the super() chains followed.
const maxPostInitDepth = 16

func latePostInit(fx *facts.Facts, server gym.ClassRef, fn *facts.Func, depth int) lateResult {
	var res lateResult
	calls := fx.Calls(server, fn)
	skip := notWork(fn.Fn)
	for i, c := range calls {
		switch {
		case skip[c.Call]:
		case isRefusal(fx, fn, c.Call):
			res.refused = true
			return res
		case isSuperOf(c, contract.ModelPostInitMethod):
			// The framework's model_post_init (CallFramework) does no
			// setup of the server's; one gymlint cannot find is taken to
			// do none either.
			if c.How != facts.CallSuper || c.Target == nil || depth > maxPostInitDepth {
				continue
			}
			pres := latePostInit(fx, server, c.Target, depth+1)
			if pres.refused {
				res.refused = true
				return res
			}
			if pres.work != nil {
				w := pres.work
				if pres.viaSuper != nil {
					w = pres.viaSuper
				}
				res.work, res.viaSuper = c, w
				res.refusal = laterRefusal(fx, fn, calls[i+1:])
				return res
			}
		case harmless(fx, fn, c.Call):
		default:
			res.work = c
			res.refusal = laterRefusal(fx, fn, calls[i+1:])
			return res
		}
	}
	return res
}

// notWork are the calls of fn's own body that set nothing up when they
// run: the exception a raise statement builds (`raise ValueError(...)`,
// not its arguments), and every call in a lambda (it runs later, if at
// all).
func notWork(fn *pyscan.Function) map[*pyscan.Call]bool {
	out := map[*pyscan.Call]bool{}
	pyscan.InspectBody(fn.Body, func(n pyscan.Node, _ []pyscan.Node) bool {
		switch n := n.(type) {
		case *pyscan.Function, *pyscan.Class:
			return false
		case *pyscan.Raise:
			if c, ok := n.Exc.(*pyscan.Call); ok {
				out[c] = true
			}
		case *pyscan.Lambda:
			pyscan.Inspect(n.Body, func(n pyscan.Node, _ []pyscan.Node) bool {
				if c, ok := n.(*pyscan.Call); ok {
					out[c] = true
				}
				return true
			})
			return false
		}
		return true
	})
	return out
}

func laterRefusal(fx *facts.Facts, fn *facts.Func, calls []*facts.Call) *facts.Call {
	for _, c := range calls {
		if isRefusal(fx, fn, c.Call) {
			return c
		}
	}
	return nil
}

var lateLogMethods = map[string]bool{
	"debug": true, "info": true, "warning": true, "warn": true, "error": true,
	"exception": true, "critical": true, "log": true,
}

// lateBuiltins are builtins that compute values and set nothing up.
var lateBuiltins = map[string]bool{
	"isinstance": true, "issubclass": true, "len": true, "str": true, "int": true, "float": true,
	"bool": true, "dict": true, "list": true, "set": true, "tuple": true, "frozenset": true,
	"range": true, "enumerate": true, "zip": true, "sorted": true, "reversed": true, "min": true,
	"max": true, "sum": true, "abs": true, "round": true, "any": true, "all": true, "repr": true,
	"format": true, "type": true, "print": true,
	"super": true, // the super() of super().model_post_init(...), listed after it
}

// harmless reports whether a call is logging, or a builtin (not shadowed
// by a local or a module name) that sets nothing up.
func harmless(fx *facts.Facts, fn *facts.Func, c *pyscan.Call) bool {
	if n, ok := c.Func.(*pyscan.Name); ok {
		return lateBuiltins[n.Id] && !fx.IsLocal(fn, n.Id) && fx.View().Resolve(fn.Module, n.Id).Kind == gym.Builtin
	}
	d := pyscan.Dotted(c.Func)
	if d == "" {
		return false
	}
	parts := strings.Split(strings.TrimPrefix(d, fn.Recv+"."), ".")
	return len(parts) == 2 && fx.Words().Has(facts.WordLogger, parts[0]) && lateLogMethods[parts[1]]
}

// isRefusal reports whether a call in fn is refuse_unsupported_num_workers(self):
// the framework's function by any name or path it is imported under
// (`server_utils.refuse_unsupported_num_workers(self)`, an alias), or a
// function of that name, with the receiver as an argument.
func isRefusal(fx *facts.Facts, fn *facts.Func, c *pyscan.Call) bool {
	d := pyscan.Dotted(c.Func)
	if d == "" {
		return false
	}
	named := lastName(d) == contract.RefuseWorkersFunc
	if !named && !fx.IsLocal(fn, rootName(d)) {
		named = lastName(fx.View().Resolve(fn.Module, d).Dotted) == contract.RefuseWorkersFunc
	}
	if !named || fn.Recv == "" {
		return false
	}
	for _, a := range c.Args {
		if n, ok := a.Value.(*pyscan.Name); ok && n.Id == fn.Recv && (a.Kind == pyscan.Positional || a.Kind == pyscan.Keyword) {
			return true
		}
	}
	return false
}

// callName is how a message names a call of fn: its dotted callee, or its
// callee's source, shortened.
func callName(c *facts.Call) string {
	if d := pyscan.Dotted(c.Call.Func); d != "" {
		return d
	}
	t := c.In.Module.Text(c.Call.Func)
	if len(t) > 60 {
		t = t[:57] + "..."
	}
	return t
}

// lastName is the last component of a dotted name.
func lastName(d string) string { return d[strings.LastIndexByte(d, '.')+1:] }

// rootName is the first component of a dotted name.
func rootName(d string) string {
	if i := strings.IndexByte(d, '.'); i >= 0 {
		return d[:i]
	}
	return d
}

// placeKey identifies a diagnostic's place, so that a finding in a class
// that several entrypoints share is reported once.
type placeKey struct {
	code, path string
	offset     int
}

func placeOf(d diag.Diagnostic) placeKey { return placeKey{d.Code, d.Path, d.Start.Offset} }

// isSuperOf reports whether a call is super().name(...) (or the
// two-argument super(Cls, self).name(...)).
func isSuperOf(c *facts.Call, name string) bool {
	attr, ok := pyscan.SuperAttr(c.Call.Func)
	return ok && attr == name
}
