//go:build ignore

package workers

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

func init() {
	Checks = append(Checks, gym.Check{Rule: LateWorkerRefusal, Run: runLateRefusal})
}

func runLateRefusal(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	seen := map[string]bool{}
	for _, e := range v.Entrypoints {
		if !mwUsable(e) {
			continue
		}
		for _, s := range e.Servers {
			d, ok := lateRefusal(v, s.Class)
			if !ok {
				continue
			}
			k := mwKey(d)
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

func lateRefusal(v *gym.View, server gym.ClassRef) (diag.Diagnostic, bool) {
	reason := v.Lookup(server, Method)
	if r := Analyze(v, gym.Server{Class: server}); r.Uncertain || r.Kind == RefusesNever {
		return diag.Diagnostic{}, false
	}
	def := v.Lookup(server, mwPostInit)
	if !def.Found() || def.Uncertain || def.Method == nil {
		return diag.Diagnostic{}, false
	}
	owner := def.Class
	res := latePostInit(v, server, owner, def.Method, 0)
	if res.work == nil {
		return diag.Diagnostic{}, false
	}
	fn := def.Method
	path := owner.Module.Path
	reasonRel := diag.Related{
		Path: reason.Class.Module.Path, Start: gym.PyPos(mwDefSpan(reason).Start), End: gym.PyPos(mwDefSpan(reason).End),
		Message: fmt.Sprintf("%s.%s() can refuse several workers", reason.Class.Class.Name, Method),
	}
	what := mwCallName(res.work)
	var related []diag.Related
	if res.viaSuper != nil {
		// The work is in a parent's model_post_init that the super call runs.
		what = fmt.Sprintf("super().%s(), which runs %s() in %s.%s first,", mwPostInit, mwCallName(res.viaSuper.call), res.viaSuper.owner.Class.Name, mwPostInit)
		related = append(related, diag.Related{
			Path: res.viaSuper.owner.Module.Path, Start: gym.PyPos(res.viaSuper.call.Span.Start), End: gym.PyPos(res.viaSuper.call.Span.End),
			Message: fmt.Sprintf("%s.%s calls %s() before any refusal", res.viaSuper.owner.Class.Name, mwPostInit, mwCallName(res.viaSuper.call)),
		})
	} else {
		what += "()"
	}
	cls := owner.Class.Name
	var d diag.Diagnostic
	if res.refusal != nil {
		d = LateWorkerRefusal.New(path, gym.PyPos(res.work.Span.Start), gym.PyPos(res.work.Span.End), fmt.Sprintf(
			"%s.%s calls %s before %s(self) at line %d, so with num_workers > 1 this setup runs (and may fail) before the worker count is refused: call %s(self) first in %s",
			cls, mwPostInit, what, RefuseFunc, res.refusal.Span.Start.Line, RefuseFunc, mwPostInit))
		related = append(related, diag.Related{
			Path: path, Start: gym.PyPos(res.refusal.Span.Start), End: gym.PyPos(res.refusal.Span.End),
			Message: "the refusal comes only here",
		})
	} else {
		d = LateWorkerRefusal.New(path, gym.PyPos(fn.NameSpan.Start), gym.PyPos(fn.NameSpan.End), fmt.Sprintf(
			"%s.%s never calls %s(self) though %s can refuse several workers, and it calls %s at line %d, which then runs (and may fail) before run_webserver refuses the worker count: call %s(self) (from nemo_gym.server_utils) first in %s",
			cls, mwPostInit, RefuseFunc, server.Class.Name, what, res.work.Span.Start.Line, RefuseFunc, mwPostInit))
		related = append([]diag.Related{{
			Path: path, Start: gym.PyPos(res.work.Span.Start), End: gym.PyPos(res.work.Span.End),
			Message: "first work in " + mwPostInit,
		}}, related...)
	}
	d.Related = append(related, reasonRel)
	return d, true
}

// lateResult is what one model_post_init does first.
type lateResult struct {
	refused bool         // the refusal comes before any work
	work    *pyscan.Call // the first work call, when work comes first
	// viaSuper is set when work is a super().model_post_init call whose
	// parent does work first: the parent's first work call.
	viaSuper *lateWork
	// refusal is a refusal call after the work, in the same method.
	refusal *pyscan.Call
}

type lateWork struct {
	owner gym.ClassRef
	call  *pyscan.Call
}

func latePostInit(v *gym.View, server, owner gym.ClassRef, fn *pyscan.Function, depth int) lateResult {
	var res lateResult
	raised := map[int]bool{} // the exceptions that raise statements build
	for _, r := range fn.Raises {
		if r.Exc != nil && r.Exc.Call {
			raised[r.Exc.Span.Start.Offset] = true
		}
	}
	for i, c := range fn.Calls {
		switch {
		case raised[c.Span.Start.Offset]:
		case mwIsRefusal(owner.Module, c):
			res.refused = true
			return res
		case mwIsSuperCall(c, mwPostInit):
			if depth > 16 {
				continue
			}
			pOwner, pfn, uncertain := mwNextDef(v, server, owner.Class, mwPostInit)
			if uncertain {
				// Something gymlint cannot see may run here: assume no work.
				continue
			}
			if pfn == nil {
				continue // the framework's
			}
			pres := latePostInit(v, server, pOwner, pfn, depth+1)
			if pres.refused {
				res.refused = true
				return res
			}
			if pres.work != nil {
				w := &lateWork{owner: pOwner, call: pres.work}
				if pres.viaSuper != nil {
					w = pres.viaSuper
				}
				res.work, res.viaSuper = c, w
				res.refusal = laterRefusal(owner.Module, fn.Calls[i+1:])
				return res
			}
		case lateHarmless(c):
		default:
			res.work = c
			res.refusal = laterRefusal(owner.Module, fn.Calls[i+1:])
			return res
		}
	}
	return res
}

func laterRefusal(m *pyscan.Module, calls []*pyscan.Call) *pyscan.Call {
	for _, c := range calls {
		if mwIsRefusal(m, c) {
			return c
		}
	}
	return nil
}

var lateLoggers = map[string]bool{"logger": true, "log": true, "LOG": true, "LOGGER": true, "_logger": true, "_log": true, "logging": true}

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

// lateHarmless reports whether a call is logging or a builtin that sets
// nothing up.
func lateHarmless(c *pyscan.Call) bool {
	d := c.Callee.Dotted
	if d == "" {
		return false
	}
	if lateBuiltins[d] {
		return true
	}
	parts := strings.Split(strings.TrimPrefix(d, "self."), ".")
	return len(parts) == 2 && lateLoggers[parts[0]] && lateLogMethods[parts[1]]
}

// mwUsable reports whether an entrypoint's server classes can be checked:
// it is read, parses and is not exempt.
func mwUsable(e *gym.Entrypoint) bool {
	return e.Exemption == nil && e.Module != nil && e.Module.SyntaxError == nil
}

// mwKey identifies a diagnostic's place, so that a finding in a class that
// several entrypoints share is reported once.
func mwKey(d diag.Diagnostic) string {
	return fmt.Sprintf("%s\x00%s\x00%d", d.Code, d.Path, d.Start.Offset)
}

// mwDefSpan is the name of a definition found by Lookup.
func mwDefSpan(d gym.Definition) pyscan.Span {
	if d.Method != nil {
		return d.Method.NameSpan
	}
	return d.Attr.Span
}

// mwCallName is how a message names a call: its dotted callee, or its text.
func mwCallName(c *pyscan.Call) string {
	if c.Callee.Dotted != "" {
		return c.Callee.Dotted
	}
	t := c.Callee.Text
	if len(t) > 60 {
		t = t[:57] + "..."
	}
	return t
}

// mwIsRefusal reports whether a call in module m is
// refuse_unsupported_num_workers(self): by name, through a module
// (`server_utils.refuse_unsupported_num_workers(self)`), or under a name
// imported as an alias of it.
func mwIsRefusal(m *pyscan.Module, c *pyscan.Call) bool {
	d := c.Callee.Dotted
	if d == "" {
		return false
	}
	named := d == RefuseFunc || strings.HasSuffix(d, "."+RefuseFunc)
	if !named && !strings.Contains(d, ".") {
		for _, imp := range m.Imports {
			if imp.Bound == d && imp.Name == RefuseFunc {
				named = true
			}
		}
	}
	if !named {
		return false
	}
	for _, a := range c.Args {
		if a.Text == "self" {
			return true
		}
	}
	for _, k := range c.Kwargs {
		if k.Value.Text == "self" {
			return true
		}
	}
	return false
}

// mwIsSuperCall reports whether a call is super().name(...) (or the
// two-argument super(Cls, self).name(...)).
func mwIsSuperCall(c *pyscan.Call, name string) bool {
	t := c.Callee.Text
	return strings.HasPrefix(t, "super(") && strings.HasSuffix(strings.ReplaceAll(t, " ", ""), ")."+name)
}

// mwNextDef finds the method that super().name() in class after reaches:
// the next repository class after it in server's method resolution order
// that defines name, before any framework server class. pfn is nil when the
// framework's definition comes first; uncertain is set when the way there
// passes a class gymlint could not resolve.
func mwNextDef(v *gym.View, server gym.ClassRef, after *pyscan.Class, name string) (owner gym.ClassRef, fn *pyscan.Function, uncertain bool) {
	mro, ok := v.MRO(server)
	if !ok {
		return owner, nil, true
	}
	i := 0
	for ; i < len(mro); i++ {
		if mro[i].Class.Class == after {
			break
		}
	}
	for i++; i < len(mro); i++ {
		a := mro[i]
		switch a.Kind {
		case gym.Own:
			if m := a.Class.Class.Method(name); m != nil {
				return a.Class, m, false
			}
			if a.Class.Class.Attr(name) != nil {
				return owner, nil, true
			}
		case gym.FrameworkServer:
			return owner, nil, false
		case gym.Unresolved:
			return owner, nil, true
		}
	}
	return owner, nil, false
}
