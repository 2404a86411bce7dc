package sessions

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// MultiRewardWithoutScalar is rule GL315.
var MultiRewardWithoutScalar = &diag.Rule{
	Code: "GL315", Name: "multi-reward-without-scalar", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.MultiRewardResponse},
	Summary: "A verify answers with a BaseMultiRewardVerifyResponse and never sets the scalar reward that single-reward consumers read.",
	Doc:     ruleDoc("GL315"),
}

func runMultiRewardWithoutScalar(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, h := range hooks(v, contract.VerifyMethod) {
		calls, cls, ok := multiRewardReturns(h.f, h.fn)
		if !ok {
			continue
		}
		m := h.fn.Module
		start, end := gym.Range(m, calls[0].Span)
		d := MultiRewardWithoutScalar.New(m.Path, start, end, fmt.Sprintf(
			"%s returns %s, a multi-reward response, without reward on every path; single-reward consumers read the scalar", h.fn.Name(), cls))
		d.Help = "set reward= to the scalar aggregate of the reward_components (as the environment defines it) in every " + cls + "(...) the verify returns"
		for _, c := range calls[1:] {
			d.Related = append(d.Related, gym.Related(m, c.Span, "another return without reward"))
		}
		d.Related = append(d.Related, h.inherited(contract.VerifyMethod)...)
		out = append(out, d)
	}
	return out
}

// multiRewardReturns returns the calls a verify returns when every return
// of its body (nested functions and classes aside) constructs a
// multi-reward response with keyword arguments only and none sets reward
// or spreads a mapping; cls names the first one's class.
func multiRewardReturns(f *facts.Facts, fn *facts.Func) (calls []*pyscan.Call, cls string, ok bool) {
	v := f.View()
	ok = true
	pyscan.InspectBody(fn.Fn.Body, func(n pyscan.Node, _ []pyscan.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *pyscan.Function, *pyscan.Class, *pyscan.Lambda:
			return false
		case *pyscan.Return:
			c, isCall := n.Value.(*pyscan.Call)
			if !isCall || !withoutReward(f, fn, c) || !multiRewardClass(f, fn, c.Func) {
				ok = false
				return false
			}
			if cls == "" {
				cls = clip(v.QualifiedName(fn.Module, c.Func), 60)
				if d := pyscan.Dotted(c.Func); d != "" {
					cls = clip(d, 60)
				}
			}
			calls = append(calls, c)
		}
		return true
	})
	return calls, cls, ok && len(calls) > 0
}

// withoutReward reports whether a call passes keyword arguments only,
// none of them reward, and spreads no mapping but the dump of the
// verify's request (requestDump).
func withoutReward(f *facts.Facts, fn *facts.Func, c *pyscan.Call) bool {
	for _, a := range c.Args {
		switch {
		case a.Kind == pyscan.Keyword && a.Name != contract.RewardField:
		case a.Kind == pyscan.StarStarArg && requestDump(f, fn, a.Value):
		default:
			return false
		}
	}
	return true
}

// requestDump reports whether e is `body.model_dump()` of a parameter body
// of fn that fn never rebinds, annotated with a verify request that cannot
// carry reward: its method resolution order reaches only the framework's
// BaseVerifyRequest or BaseRunRequest, and no repository class in it
// declares reward or model_config (which could allow extra fields).
func requestDump(f *facts.Facts, fn *facts.Func, e pyscan.Expr) bool {
	c, ok := e.(*pyscan.Call)
	if !ok || len(c.Args) != 0 {
		return false
	}
	at, ok := c.Func.(*pyscan.Attribute)
	if !ok || at.Attr != "model_dump" {
		return false
	}
	name, ok := at.Value.(*pyscan.Name)
	if !ok {
		return false
	}
	p := fn.Fn.Param(name.Id)
	if p == nil || p.Annotation == nil || rebinds(fn.Fn, name.Id) {
		return false
	}
	v := f.View()
	sym := v.ResolveExpr(fn.Module, p.Annotation)
	switch v.SymbolFrameworkName(sym) {
	case contract.VerifyRequestClass, contract.RunRequestClass:
		return true
	}
	if sym.Kind != gym.RepoClass || sym.Class == nil || v.IsFrameworkModule(sym.Module.Name) {
		return false
	}
	mro, ok := v.MRO(gym.ClassRef{Module: sym.Module, Class: sym.Class})
	if !ok {
		return false
	}
	request := false
	for _, a := range mro {
		switch a.Kind {
		case gym.Own:
			if a.Class.Class == nil || a.Class.Class.Attr(contract.RewardField) != nil || a.Class.Class.Attr("model_config") != nil {
				return false
			}
		case gym.Framework, gym.FrameworkServer:
			name := a.Name
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				name = name[i+1:]
			}
			if name != contract.VerifyRequestClass && name != contract.RunRequestClass {
				return false
			}
			request = true
		default:
			if a.Kind != gym.Foreign || !knownForeign(a.Name) {
				return false
			}
		}
	}
	return request
}

// rebinds reports whether a function's body assigns name (nested
// functions aside).
func rebinds(fn *pyscan.Function, name string) bool {
	found := false
	is := func(t pyscan.Expr) {
		pyscan.Inspect(t, func(n pyscan.Node, _ []pyscan.Node) bool {
			if nm, ok := n.(*pyscan.Name); ok && nm.Id == name {
				found = true
			}
			return !found
		})
	}
	pyscan.InspectBody(fn.Body, func(n pyscan.Node, _ []pyscan.Node) bool {
		switch n := n.(type) {
		case *pyscan.Function, *pyscan.Class, *pyscan.Lambda:
			return false
		case *pyscan.Assign:
			for _, t := range n.Targets {
				is(t)
			}
		case *pyscan.AnnAssign:
			is(n.Target)
		case *pyscan.AugAssign:
			is(n.Target)
		case *pyscan.For:
			is(n.Target)
		case *pyscan.NamedExpr:
			is(n.Target)
		}
		return !found
	})
	return found
}

// multiRewardClass reports whether a callee names, at the scope of fn, a
// class that is a multi-reward response and whose repository classes
// neither declare reward nor define a method.
func multiRewardClass(f *facts.Facts, fn *facts.Func, e pyscan.Expr) bool {
	d := pyscan.Dotted(e)
	if d == "" {
		return false
	}
	first, _, _ := strings.Cut(d, ".")
	if f.IsLocal(fn, first) {
		return false
	}
	v := f.View()
	sym := v.Resolve(fn.Module, d)
	if v.SymbolFrameworkName(sym) == contract.MultiRewardResponseClass {
		return true
	}
	if sym.Kind != gym.RepoClass || sym.Class == nil || v.IsFrameworkModule(sym.Module.Name) {
		return false
	}
	ref := gym.ClassRef{Module: sym.Module, Class: sym.Class}
	_, isMulti, ok := responseKind(v, ref)
	if !ok || !isMulti {
		return false
	}
	mro, _ := v.MRO(ref)
	for _, a := range mro {
		if a.Kind == gym.Own && a.Class.Class != nil && (a.Class.Class.Attr(contract.RewardField) != nil || len(a.Class.Class.Methods) > 0) {
			return false
		}
	}
	return true
}
