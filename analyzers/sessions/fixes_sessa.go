// What the suggested fixes of GL305-GL309 share: which expressions are
// known to be dicts (GL308's safety), how a verify writes its masked
// sample (GL306, GL307), how a tool route raises for a lost session
// (GL309), and the close's request body (GL305). The rules decide from
// facts; these only say how to write what they decided.

package sessions

import (
	"github.com/gymlint/gymlint/facts"
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
