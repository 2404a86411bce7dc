package pyscan

import "reflect"

// Equal reports whether two nodes are the same syntax: the same kinds of
// node with the same names, operators and values, their children equal in
// order, whatever their spans (and so wherever they are written, with
// whatever spacing, comments or parentheses).
func Equal(a, b Node) bool {
	return equalValue(reflect.ValueOf(a), reflect.ValueOf(b), 0)
}

var spanT = reflect.TypeOf(Span{})

func equalValue(a, b reflect.Value, depth int) bool {
	if depth > maxDepth {
		return false
	}
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case reflect.Interface, reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Kind() == reflect.Interface && a.Elem().Type() != b.Elem().Type() {
			return false
		}
		return equalValue(a.Elem(), b.Elem(), depth+1)
	case reflect.Struct:
		if a.Type() != b.Type() {
			return false
		}
		for i := 0; i < a.NumField(); i++ {
			f := a.Type().Field(i)
			if f.Type == spanT || !f.IsExported() {
				continue
			}
			if !equalValue(a.Field(i), b.Field(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !equalValue(a.Index(i), b.Index(i), depth+1) {
				return false
			}
		}
		return true
	}
	return a.Interface() == b.Interface()
}
