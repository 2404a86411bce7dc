package facts

import (
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// Vocabulary is the framework's registered failure kinds, as its
// BaseVerifyResponse validates them.
type Vocabulary struct {
	// Kinds are the registered kinds, in the order the collection lists
	// them.
	Kinds []string
	// Name is the name of the collection in the module that binds it
	// ("FAILURE_KINDS"), Module that module and Binding its binding.
	Name    string
	Module  *pyscan.Module
	Binding *pyscan.Binding
}

// Has reports whether kind is registered.
func (v *Vocabulary) Has(kind string) bool {
	for _, k := range v.Kinds {
		if k == kind {
			return true
		}
	}
	return false
}

// FailureKinds returns the vocabulary that base, the framework's
// BaseVerifyResponse defined in the repository, registers: its validator
// _warn_on_unregistered_failure_kind tests the value's membership (`in`,
// `not in`) of one module-scope collection, a set, frozenset, tuple, list
// or dict (its keys) literal, or frozenset/set/tuple/list of one, whose
// items are string literals or names of module-scope string constants.
// Nil when any of that cannot be read, or when the collection is open: it
// is bound more than once, or the module that binds it adds to it (a
// method call such as FAILURE_KINDS.add(...), an augmented assignment, an
// item assignment).
func FailureKinds(v *gym.View, base gym.ClassRef) *Vocabulary {
	if base.Class == nil || base.Module == nil {
		return nil
	}
	return v.Shared(vocabKey{base.Class}, func() any { return failureKinds(v, base) }).(*Vocabulary)
}

type vocabKey struct{ c *pyscan.Class }

func failureKinds(v *gym.View, base gym.ClassRef) *Vocabulary {
	fn := base.Class.Method(contract.FailureValidator)
	if fn == nil {
		return nil
	}
	var coll string
	several := false
	pyscan.InspectBody(fn.Body, func(n pyscan.Node, _ []pyscan.Node) bool {
		c, ok := n.(*pyscan.Compare)
		if !ok {
			return true
		}
		for i, op := range c.Ops {
			if op != pyscan.In && op != pyscan.NotIn {
				continue
			}
			d := pyscan.Dotted(c.Comparators[i])
			if d == "" || (coll != "" && coll != d) {
				several = true
				continue
			}
			coll = d
		}
		return true
	})
	if coll == "" || several {
		return nil
	}
	sym := v.Resolve(base.Module, coll)
	if sym.Kind != gym.RepoValue || sym.Binding == nil || sym.Binding.Value == nil || sym.Module == nil {
		return nil
	}
	m, name := sym.Module, sym.Binding.Name
	items, ok := collectionItems(v, m, sym.Binding.Value)
	if !ok || mutated(m, name) {
		return nil
	}
	var kinds []string
	for _, e := range items {
		k, ok := stringValue(v, m, e)
		if !ok {
			return nil
		}
		kinds = append(kinds, k)
	}
	return &Vocabulary{Kinds: kinds, Name: name, Module: m, Binding: sym.Binding}
}

// collectionItems returns the items of a collection literal, or of
// frozenset/set/tuple/list applied to one; a dict gives its keys.
func collectionItems(v *gym.View, m *pyscan.Module, e pyscan.Expr) ([]pyscan.Expr, bool) {
	switch e := e.(type) {
	case *pyscan.Set:
		return e.Elts, true
	case *pyscan.List:
		return e.Elts, true
	case *pyscan.Tuple:
		return e.Elts, true
	case *pyscan.Dict:
		var keys []pyscan.Expr
		for _, it := range e.Items {
			if it.Key == nil {
				return nil, false
			}
			keys = append(keys, it.Key)
		}
		return keys, true
	case *pyscan.Call:
		switch v.QualifiedName(m, e.Func) {
		case "builtins.frozenset", "builtins.set", "builtins.tuple", "builtins.list":
		default:
			return nil, false
		}
		if len(e.Args) != 1 || e.Args[0].Kind != pyscan.Positional {
			return nil, false
		}
		if _, ok := e.Args[0].Value.(*pyscan.Call); ok {
			return nil, false
		}
		return collectionItems(v, m, e.Args[0].Value)
	}
	return nil, false
}

// stringValue is the value of a string literal, or of a name bound once
// at module scope to one.
func stringValue(v *gym.View, m *pyscan.Module, e pyscan.Expr) (string, bool) {
	if c, ok := e.(*pyscan.Constant); ok {
		return c.Value, c.Kind == pyscan.ConstStr
	}
	d := pyscan.Dotted(e)
	if d == "" {
		return "", false
	}
	sym := v.Resolve(m, d)
	if sym.Kind != gym.RepoValue || sym.Binding == nil || sym.Module == nil {
		return "", false
	}
	if c, ok := sym.Binding.Value.(*pyscan.Constant); ok && c.Kind == pyscan.ConstStr && bindings(sym.Module, sym.Binding.Name) == 1 {
		return c.Value, true
	}
	return "", false
}

func bindings(m *pyscan.Module, name string) int {
	n := 0
	for _, b := range m.Bindings {
		if b.Name == name {
			n++
		}
	}
	return n
}

// mutators are the methods that add to a set, list or dict.
var mutators = map[string]bool{"add": true, "update": true, "append": true, "extend": true, "insert": true, "setdefault": true, "__setitem__": true, "__ior__": true}

// mutated reports whether a module binds name more than once or adds to
// the collection it names anywhere in its code.
func mutated(m *pyscan.Module, name string) bool {
	if bindings(m, name) != 1 {
		return true
	}
	found := false
	pyscan.InspectBody(m.Body, func(n pyscan.Node, _ []pyscan.Node) bool {
		switch n := n.(type) {
		case *pyscan.Call:
			if a, ok := n.Func.(*pyscan.Attribute); ok && mutators[a.Attr] && pyscan.Dotted(a.Value) == name {
				found = true
			}
		case *pyscan.AugAssign:
			if pyscan.Dotted(n.Target) == name {
				found = true
			}
		case *pyscan.Assign:
			for _, t := range n.Targets {
				if s, ok := t.(*pyscan.Subscript); ok && pyscan.Dotted(s.Value) == name {
					found = true
				}
			}
		case *pyscan.Global:
			for _, g := range n.Names {
				if g == name {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
