package pyscan

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// dump renders a node as an S-expression, for tests: the node's type, then
// its fields in declaration order (spans left out, strings quoted, nil
// fields and empty lists omitted).
func dump(n any) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(n))
	return b.String()
}

var spanType = reflect.TypeOf(Span{})

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
			if fv.IsZero() {
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
