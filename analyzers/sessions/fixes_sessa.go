// What the suggested fixes of GL305-GL309 share: which expressions are
// known to be dicts (GL308's safety), how a verify writes its masked
// sample (GL306, GL307), how a tool route raises for a lost session
// (GL309), and the close's request body (GL305). The rules decide from
// facts; these only say how to write what they decided.

package sessions

import (
	"slices"

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
