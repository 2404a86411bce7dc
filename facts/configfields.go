package facts

import (
	"strings"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// FieldKind says what values a config field's annotation admits.
type FieldKind int

// The kinds of config field.
const (
	// FieldOther: the annotation admits something other than numbers (or
	// gymlint cannot tell what it admits).
	FieldOther FieldKind = iota
	// FieldNumeric: the annotation admits only numbers (and None):
	// int, float, Optional[int], int | None, Annotated[int, ...],
	// pydantic's PositiveInt and its kin.
	FieldNumeric
)

// ConfigFields are the annotated fields of a pydantic config class and of
// its ancestors in the repository (the framework's classes included when
// the framework is part of the repository), by name; a field declared on
// a class wins over the same field of its bases.
type ConfigFields struct {
	Fields map[string]FieldKind
	// Complete is false when a base could not be followed (a class from
	// outside the repository other than pydantic's BaseModel, a name
	// gymlint cannot resolve, the depth bound): a field not in Fields may
	// then still be declared.
	Complete bool
}

// maxConfigDepth bounds the chain of config base classes followed.
const maxConfigDepth = 32

// ConfigFieldsOf returns the fields of a config class.
func ConfigFieldsOf(v *gym.View, c gym.ClassRef) ConfigFields {
	out := ConfigFields{Fields: map[string]FieldKind{}, Complete: true}
	seen := map[*pyscan.Class]bool{}
	var walk func(c gym.ClassRef, depth int)
	walk = func(c gym.ClassRef, depth int) {
		if depth > maxConfigDepth {
			out.Complete = false
			return
		}
		if seen[c.Class] {
			return
		}
		seen[c.Class] = true
		for _, at := range c.Class.Attrs {
			if at.Annotation == nil || isClassVarAnnotation(v, c.Module, at.Annotation) {
				continue
			}
			if _, ok := out.Fields[at.Name]; !ok {
				out.Fields[at.Name] = annotationKind(v, c.Module, at.Annotation, 0)
			}
		}
		for _, b := range c.Class.Bases {
			s := v.Resolve(c.Module, gym.BaseName(b))
			switch {
			case s.Kind == gym.RepoClass:
				walk(gym.ClassRef{Module: s.Module, Class: s.Class}, depth+1)
			case s.Dotted == "pydantic.BaseModel" || s.Dotted == "pydantic.main.BaseModel" || s.Dotted == "builtins.object":
			default:
				out.Complete = false
			}
		}
	}
	walk(c, 0)
	return out
}

// ServerConfigClass returns the class that a server class's `config`
// field is annotated with (`config: EchoConfig`), looked up through the
// server's repository ancestors, the framework's included when it is part
// of the repository. ok is false when no such annotation names a
// repository class.
func ServerConfigClass(v *gym.View, server gym.ClassRef) (gym.ClassRef, bool) {
	seen := map[*pyscan.Class]bool{}
	var find func(c gym.ClassRef, depth int) (gym.ClassRef, bool)
	find = func(c gym.ClassRef, depth int) (gym.ClassRef, bool) {
		if depth > maxConfigDepth || seen[c.Class] {
			return gym.ClassRef{}, false
		}
		seen[c.Class] = true
		if at := c.Class.Attr("config"); at != nil && at.Annotation != nil {
			s := v.ResolveExpr(c.Module, at.Annotation)
			if s.Kind == gym.RepoClass {
				return gym.ClassRef{Module: s.Module, Class: s.Class}, true
			}
			return gym.ClassRef{}, false
		}
		for _, b := range c.Class.Bases {
			s := v.Resolve(c.Module, gym.BaseName(b))
			if s.Kind != gym.RepoClass {
				continue
			}
			if r, ok := find(gym.ClassRef{Module: s.Module, Class: s.Class}, depth+1); ok {
				return r, true
			}
		}
		return gym.ClassRef{}, false
	}
	return find(server, 0)
}

// numericNames are the classes an annotation may name for a field that
// holds only numbers.
var numericNames = map[string]bool{
	"builtins.int": true, "builtins.float": true,
	"pydantic.PositiveInt": true, "pydantic.NonNegativeInt": true, "pydantic.NegativeInt": true, "pydantic.NonPositiveInt": true,
	"pydantic.PositiveFloat": true, "pydantic.NonNegativeFloat": true, "pydantic.NegativeFloat": true, "pydantic.NonPositiveFloat": true,
	"pydantic.StrictInt": true, "pydantic.StrictFloat": true,
	"pydantic.conint": true, "pydantic.confloat": true,
}

// annotationKind classifies an annotation; none reports None itself
// (Optional's other half).
func annotationKind(v *gym.View, m *pyscan.Module, e pyscan.Expr, depth int) FieldKind {
	k, _ := kindOf(v, m, e, depth)
	return k
}

// kindOf returns the kind of an annotation, and whether it is None alone.
func kindOf(v *gym.View, m *pyscan.Module, e pyscan.Expr, depth int) (FieldKind, bool) {
	if depth > 8 {
		return FieldOther, false
	}
	switch e := e.(type) {
	case *pyscan.Constant:
		return FieldOther, e.Kind == pyscan.ConstNone
	case *pyscan.Name, *pyscan.Attribute:
		q := v.QualifiedName(m, e)
		if q == "builtins.None" {
			return FieldOther, true
		}
		if numericNames[q] {
			return FieldNumeric, false
		}
	case *pyscan.Call: // conint(ge=1)
		if numericNames[v.QualifiedName(m, e.Func)] {
			return FieldNumeric, false
		}
	case *pyscan.BinOp: // int | None
		if e.Op == pyscan.BitOr {
			return unionKind(v, m, []pyscan.Expr{e.Left, e.Right}, depth)
		}
	case *pyscan.Subscript:
		args := []pyscan.Expr{e.Index}
		if t, ok := e.Index.(*pyscan.Tuple); ok {
			args = t.Elts
		}
		switch typingName(v.QualifiedName(m, e.Value)) {
		case "Optional":
			if len(args) == 1 {
				return kindOf(v, m, args[0], depth+1)
			}
		case "Union":
			return unionKind(v, m, args, depth)
		case "Annotated":
			if len(args) >= 1 {
				return kindOf(v, m, args[0], depth+1)
			}
		}
	}
	return FieldOther, false
}

// unionKind: numeric when every member is numeric or None, and one is
// numeric.
func unionKind(v *gym.View, m *pyscan.Module, members []pyscan.Expr, depth int) (FieldKind, bool) {
	numeric := false
	for _, x := range members {
		k, none := kindOf(v, m, x, depth+1)
		switch {
		case none:
		case k == FieldNumeric:
			numeric = true
		default:
			return FieldOther, false
		}
	}
	if numeric {
		return FieldNumeric, false
	}
	return FieldOther, false
}

// typingName is the name of a typing construct ("typing.Optional",
// "typing_extensions.Annotated" → "Optional", "Annotated"), "" for other
// names.
func typingName(q string) string {
	for _, p := range []string{"typing.", "typing_extensions."} {
		if rest, ok := strings.CutPrefix(q, p); ok {
			return rest
		}
	}
	return ""
}

func isClassVarAnnotation(v *gym.View, m *pyscan.Module, e pyscan.Expr) bool {
	if s, ok := e.(*pyscan.Subscript); ok {
		e = s.Value
	}
	return typingName(v.QualifiedName(m, e)) == "ClassVar"
}
