// What the suggested fixes of GL305-GL309 share: which expressions are
// known to be dicts (GL308's safety), how a verify writes its masked
// sample (GL306, GL307), how a tool route raises for a lost session
// (GL309), and the close's request body (GL305). The rules decide from
// facts; these only say how to write what they decided.

package sessions

import (
	"slices"
	"strings"

	"github.com/gymlint/gymlint/analyzers/pyfix"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// knownDict reports whether e evaluates to a dict, so that `e | other`
// merges as `**e, **other` spreads: a pydantic dump (`x.model_dump(...)`),
// a dict display, the builtin dict(...), or a local of fn every binding of
// which is one of these.
func knownDict(f *facts.Facts, m *pyscan.Module, fn *facts.Func, e pyscan.Expr, depth int) bool {
	if depth > 4 {
		return false
	}
	switch e := e.(type) {
	case *pyscan.Dict:
		return true
	case *pyscan.Call:
		if a, ok := e.Func.(*pyscan.Attribute); ok && a.Attr == "model_dump" {
			return true
		}
		if n, ok := e.Func.(*pyscan.Name); ok && n.Id == "dict" && (fn == nil || !f.IsLocal(fn, "dict")) {
			return f.View().QualifiedName(m, n) == "builtins.dict"
		}
	case *pyscan.Name:
		if fn == nil {
			return false
		}
		vs := f.Values(fn, e.Id)
		if len(vs) == 0 {
			return false
		}
		for _, v := range vs {
			if v.Expr == nil || v.Param != nil || v.Aug || v.Enter || v.Def != nil || v.Iter != nil ||
				!knownDict(f, v.Func.Module, v.Func, v.Expr, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// lostReason is the reason a fix writes for a lost session when the code
// it replaces says none.
const lostReason = "session is gone"

// messageOf returns the source of the message an answer for a lost
// session carries, for the fix to keep: a string or f-string returned or
// given as the exception's message (detail= of an HTTPException), or the
// string value of an "error", "message", "detail" or "observation" key of
// a returned dict
// (or of a response's content=). "" when there is none.
func messageOf(f *facts.Facts, m *pyscan.Module, e pyscan.Expr) string {
	isStr := func(x pyscan.Expr) bool {
		switch x := x.(type) {
		case *pyscan.FString:
			return true
		case *pyscan.Constant:
			return x.Kind == pyscan.ConstStr
		}
		return false
	}
	switch e := e.(type) {
	case *pyscan.Constant, *pyscan.FString:
		if isStr(e) {
			return m.Text(e)
		}
	case *pyscan.Dict:
		for _, it := range e.Items {
			switch k, _ := pyscan.Str(it.Key); k {
			case "error", "message", "detail", "observation":
				if isStr(it.Value) {
					return m.Text(it.Value)
				}
			}
		}
	case *pyscan.Call:
		if x := f.ExcOf(m, e); x.IsHTTP() {
			if d := e.Arg(1, "detail"); d != nil && isStr(d) {
				return m.Text(d)
			}
			return ""
		}
		if c := e.Keyword("content"); c != nil {
			return messageOf(f, m, c)
		}
		if a := e.Positional(0); a != nil && len(e.Args) == 1 && isStr(a) {
			return m.Text(a)
		}
	}
	return ""
}

// callersOutsideTry reports whether every call of fn in the server's code
// lies outside a try statement, and nothing refers to fn without calling
// it: what fn raises then leaves the route that reached it.
func callersOutsideTry(f *facts.Facts, server gym.ClassRef, fn *facts.Func) bool {
	called := false
	for _, x := range f.StateOf(server).Funcs() {
		for _, c := range f.Calls(server, x) {
			if c.Target != fn {
				continue
			}
			called = true
			if len(c.Ctx().Tries) > 0 {
				return false
			}
		}
		if slices.Contains(f.MethodRefs(server, x), fn) {
			return false
		}
	}
	return called
}

// verifyAnswer is how a verify writes its answer: the response class it
// returns (as written, `BaseVerifyResponse`) and the dump of its request
// (`body.model_dump()`), for a masked sample written as its other returns
// are: `Resp(**(dump | lost_session_verification(reason)))`. class and
// request are the expressions that name them: the callee or the return
// annotation, and the dumped parameter's annotation (nil when it has
// none).
type verifyAnswer struct {
	resp, dump     string
	class, request pyscan.Expr
}

// verifyAnswerOf reads a verify's answer from its own returns of a call
// of a named class with a reward or a spread (they must agree on the
// class; else its return annotation names it), and the spread of a dump of
// a parameter among them (else the parameter annotated as the framework's
// verify request, dumped). false when either is unknown.
func verifyAnswerOf(f *facts.Facts, fn *facts.Func) (verifyAnswer, bool) {
	m := fn.Module
	var out verifyAnswer
	agree := true
	pyscan.InspectBody(fn.Fn.Body, func(n pyscan.Node, _ []pyscan.Node) bool {
		switch n := n.(type) {
		case *pyscan.Function, *pyscan.Class, *pyscan.Lambda:
			return false
		case *pyscan.Return:
			c, ok := n.Value.(*pyscan.Call)
			if !ok || pyscan.Dotted(c.Func) == "" {
				return false
			}
			spread := false
			for _, a := range c.Args {
				if a.Kind != pyscan.StarStarArg {
					continue
				}
				spread = true
				if p := paramDump(f, fn, a.Value); out.dump == "" && p != nil {
					out.dump, out.request = m.Text(a.Value), p.Annotation
				}
			}
			if !spread && c.Keyword(contract.RewardField) == nil {
				return false
			}
			if out.resp != "" && out.resp != pyscan.Dotted(c.Func) {
				agree = false
			}
			out.resp, out.class = pyscan.Dotted(c.Func), c.Func
			return false
		}
		return true
	})
	if !agree {
		return verifyAnswer{}, false
	}
	if out.resp == "" && pyscan.Dotted(fn.Fn.ReturnType) != "" {
		out.resp, out.class = pyscan.Dotted(fn.Fn.ReturnType), fn.Fn.ReturnType
	}
	if out.dump == "" {
		for _, p := range fn.Fn.Params {
			if p.Name != fn.Recv && p.Kind == pyscan.ParamNormal && isFrameworkClass(f.View(), m, p.Annotation, contract.VerifyRequestClass) {
				out.dump, out.request = p.Name+".model_dump()", p.Annotation
				break
			}
		}
	}
	return out, out.resp != "" && out.dump != ""
}

// completes reports whether the masked sample `Resp(**(dump |
// lost_session_verification(...)))` gives every required field of the
// response class: each one its repository classes declare without a
// default is a lost-session field or a field of the dumped request.
func (a verifyAnswer) completes(v *gym.View, m *pyscan.Module) bool {
	resp, ok := modelFields(v, m, a.class)
	if !ok {
		return false
	}
	req := map[string]bool{}
	if a.request != nil {
		req, _ = modelFields(v, m, a.request)
	}
	for name, required := range resp {
		if _, given := req[name]; required && !lostFields[name] && !given {
			return false
		}
	}
	return true
}

// modelFields returns the fields that the repository classes in the MRO
// of the class e names declare (name → required: annotated, with no value
// or a pydantic Field(...) with no default, and no ClassVar), the nearest
// declaration winning. A framework class adds none of its own (its verify
// models' fields are the request's and the lost-session ones). false when
// e names no class gymlint reads this way: one outside the repository and
// the framework, or one with a base it cannot follow other than
// pydantic's BaseModel.
func modelFields(v *gym.View, m *pyscan.Module, e pyscan.Expr) (map[string]bool, bool) {
	sym := v.ResolveExpr(m, e)
	if sym.Kind != gym.RepoClass || sym.Class == nil {
		return map[string]bool{}, v.SymbolFrameworkName(sym) != ""
	}
	mro, ok := v.MRO(gym.ClassRef{Module: sym.Module, Class: sym.Class})
	if !ok {
		return nil, false
	}
	out := map[string]bool{}
	for _, a := range mro {
		switch a.Kind {
		case gym.Framework, gym.FrameworkServer:
			continue
		case gym.Foreign:
			if a.Name == "pydantic.BaseModel" || a.Name == "pydantic.main.BaseModel" {
				continue
			}
			return nil, false
		case gym.Own:
		default:
			return nil, false
		}
		cm := a.Class.Module
		for _, at := range a.Class.Class.Attrs {
			if at.Annotation == nil {
				continue
			}
			if _, seen := out[at.Name]; seen {
				continue
			}
			ann := at.Annotation
			if s, ok := ann.(*pyscan.Subscript); ok {
				ann = s.Value
			}
			if v.QualifiedName(cm, ann) == "typing.ClassVar" {
				continue
			}
			out[at.Name] = at.Value == nil || requiredField(v, cm, at.Value)
		}
	}
	return out, true
}

// requiredField reports whether a field's value is pydantic's Field(...)
// with no default: `Field(...)`, `Field(description="x")`.
func requiredField(v *gym.View, m *pyscan.Module, e pyscan.Expr) bool {
	c, ok := e.(*pyscan.Call)
	if !ok || c.Keyword("default") != nil || c.Keyword("default_factory") != nil {
		return false
	}
	if q := v.QualifiedName(m, c.Func); q != "pydantic.Field" && q != "pydantic.fields.Field" {
		return false
	}
	d := c.Positional(0)
	return d == nil || pyscan.IsConst(d, pyscan.ConstEllipsis)
}

// paramDump returns the parameter p of fn when e is `p.model_dump(...)`,
// else nil.
func paramDump(f *facts.Facts, fn *facts.Func, e pyscan.Expr) *pyscan.Param {
	c, ok := e.(*pyscan.Call)
	if !ok {
		return nil
	}
	a, ok := c.Func.(*pyscan.Attribute)
	if !ok || a.Attr != "model_dump" {
		return nil
	}
	n, ok := a.Value.(*pyscan.Name)
	if !ok || n.Id == fn.Recv {
		return nil
	}
	if vs := f.Values(fn, n.Id); len(vs) == 1 && vs[0].Param != nil && vs[0].Func == fn {
		return vs[0].Param
	}
	return nil
}

// maskedSample returns how verify fn answers a lost session, merged as the
// framework documents lost_session_verification
// (`Resp(**(body.model_dump() | lost_session_verification(reason)))`),
// with the edits that import the function before offset before. false
// when the repository's framework has no lost_session_verification (its
// verify response may lack the masked sample's fields), or the answer's
// class or request is unknown, or the class requires a field the sample
// would not give (verifyAnswer.completes).
func maskedSample(f *facts.Facts, fn *facts.Func, reason string, before int32) (string, []diag.TextEdit, bool) {
	v := f.View()
	if lacks(v, contract.LostSession) != "" {
		return "", nil, false
	}
	ans, ok := verifyAnswerOf(f, fn)
	if !ok || !ans.completes(v, fn.Module) {
		return "", nil, false
	}
	name, imp, ok := pyfix.ImportFramework(v, fn.Module, contract.LostSessionFunc, before)
	if !ok {
		return "", nil, false
	}
	return ans.resp + "(**(" + ans.dump + " | " + name + "(" + reason + ")))", imp, true
}

// lostFields are the verify response's fields lost_session_verification
// gives: a call that writes the masked sample drops its own.
var lostFields = map[string]bool{"reward": true, "mask_sample": true, "failure_kind": true, "failure_reason": true}

// withLostFields rewrites the arguments of a verify response's call
// `Resp(**x, reward=0.0, extra=y)` so that it answers a lost session:
// `Resp(**(x | lost(reason)), extra=y)`, or, without a spread,
// `Resp(extra=y, **lost(reason))`: the lost-session fields replace the
// call's own (lostFields), and the other arguments stay as written, with
// the separators (line breaks, comments) between them. It returns the
// span of the arguments and their new text; false for a call with
// positional or * arguments, more than one spread, or a spread of what is
// not known to be a dict.
func withLostFields(f *facts.Facts, fn *facts.Func, c *pyscan.Call, lost string) (pyscan.Span, string, bool) {
	m := fn.Module
	spreads := 0
	for _, a := range c.Args {
		switch a.Kind {
		case pyscan.Positional, pyscan.StarArg:
			return pyscan.Span{}, "", false
		case pyscan.StarStarArg:
			spreads++
			if !knownDict(f, m, fn, a.Value, 0) {
				return pyscan.Span{}, "", false
			}
		}
	}
	if spreads > 1 || len(c.Args) == 0 {
		return pyscan.Span{}, "", false
	}
	var b strings.Builder
	kept := 0
	sep := ", "
	for i, a := range c.Args {
		if i > 0 {
			between := pyscan.Span{Start: c.Args[i-1].Span.End, End: a.Span.Start}
			if m.HasComment(between) {
				return pyscan.Span{}, "", false // a comment the rewrite could drop or misplace
			}
			sep = m.SpanText(between)
		}
		if a.Kind == pyscan.Keyword && lostFields[a.Name] {
			if m.HasComment(a.Span) {
				return pyscan.Span{}, "", false
			}
			continue
		}
		if kept > 0 {
			b.WriteString(sep)
		}
		kept++
		if a.Kind == pyscan.StarStarArg {
			b.WriteString("**(" + splatSource(m, a.Value) + " | " + lost + ")")
		} else {
			b.WriteString(m.SpanText(a.Span))
		}
	}
	if spreads == 0 {
		if kept > 0 {
			b.WriteString(sep)
		}
		b.WriteString("**" + lost)
	}
	span := pyscan.Span{Start: c.Args[0].Span.Start, End: c.Args[len(c.Args)-1].Span.End}
	return span, b.String(), true
}
