package pyscan

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// dump renders a node as an S-expression, for tests: the node's type, then
// its fields in declaration order (spans left out, strings quoted, enums by
// name, nil fields, empty lists and zero values omitted but for the enums
// of alwaysShown).
func dump(n any) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(n))
	return b.String()
}

var (
	spanType = reflect.TypeOf(Span{})
	// alwaysShown are the enums whose zero value is shown (None, Add,
	// And, Not, ListComp), not omitted.
	alwaysShown = map[reflect.Type]bool{
		reflect.TypeOf(ConstKind(0)): true, reflect.TypeOf(CompKind(0)): true, reflect.TypeOf(BinOpKind(0)): true,
		reflect.TypeOf(BoolOpKind(0)): true, reflect.TypeOf(UnaryOpKind(0)): true,
	}
)

// enumName names the values of the model's enums that have no String
// method.
func enumName(v any) (string, bool) {
	switch v := v.(type) {
	case ConstKind:
		return [...]string{"None", "True", "False", "Ellipsis", "Int", "Float", "Complex", "Str", "Bytes"}[v], true
	case ParamKind:
		return [...]string{"Normal", "PosOnly", "KwOnly", "VarArgs", "VarKwargs"}[v], true
	case ArgKind:
		return [...]string{"Positional", "Keyword", "StarArg", "StarStarArg"}[v], true
	case CompKind:
		return [...]string{"ListComp", "SetComp", "DictComp", "GeneratorExp"}[v], true
	case UnaryOpKind:
		return [...]string{"Not", "USub", "UAdd", "Invert"}[v], true
	}
	return "", false
}

func dumpValue(b *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		dumpValue(b, v.Elem())
	case reflect.Struct:
		t := v.Type()
		b.WriteString("(" + t.Name())
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() || f.Type == spanType {
				continue
			}
			fv := v.Field(i)
			if fv.IsZero() && !alwaysShown[f.Type] {
				continue
			}
			b.WriteString(" " + f.Name + "=")
			dumpValue(b, fv)
		}
		b.WriteString(")")
	case reflect.Slice:
		b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(" ")
			}
			dumpValue(b, v.Index(i))
		}
		b.WriteString("]")
	case reflect.String:
		fmt.Fprintf(b, "%q", v.String())
	case reflect.Uint8:
		if s, ok := enumName(v.Interface()); ok {
			b.WriteString(s)
			return
		}
		if s, ok := v.Interface().(fmt.Stringer); ok {
			b.WriteString(s.String())
			return
		}
		fmt.Fprint(b, v.Interface())
	default:
		fmt.Fprint(b, v.Interface())
	}
}

// sortedKeys is for stable test output.
func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
