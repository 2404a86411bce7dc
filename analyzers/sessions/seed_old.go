//go:build ignore

package sessions

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

func init() {
	Checks = append(Checks, gym.Check{Rule: PlainExceptionInSeed, Run: runPlainExceptionInSeed})
}

// badInput are the builtin exceptions that signal bad input.
var badInput = map[string]bool{
	"ValueError": true, "TypeError": true, "KeyError": true, "IndexError": true,
	"LookupError": true, "AssertionError": true,
}

// builtinBases are the builtin bases of the bad-input exceptions, for
// deciding whether a handler catches one.
var builtinBases = map[string][]string{
	"ValueError":     {"ValueError", "Exception", "BaseException"},
	"TypeError":      {"TypeError", "Exception", "BaseException"},
	"KeyError":       {"KeyError", "LookupError", "Exception", "BaseException"},
	"IndexError":     {"IndexError", "LookupError", "Exception", "BaseException"},
	"LookupError":    {"LookupError", "Exception", "BaseException"},
	"AssertionError": {"AssertionError", "Exception", "BaseException"},
}

func runPlainExceptionInSeed(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	done := map[*pyscan.Function]bool{}
	for _, s := range ResourcesServers(v) {
		owner, fn, ok := Override(v, s.Class, SeedMethod)
		if !ok || done[fn] || owner.Module.SyntaxError != nil {
			continue
		}
		done[fn] = true
		for _, r := range fn.Raises {
			what, caught := seedRaise(v, owner.Module, fn, r)
			if what == "" {
				continue
			}
			start, end := Span(r.Span)
			answer := "FastAPI answers it with HTTP 500"
			if strings.HasPrefix(what, "HTTPException") {
				answer = "that is a 5xx"
			}
			msg := fmt.Sprintf(
				"%s.seed_session raises %s for input no retry can fix; %s, which the environment server retries by dispatching the whole episode again: raise ResourcesSeedRejectedError(detail) (422) for input that fails validation, or ResourcesSessionConflictError(detail) (409) for a session bound to another episode or already closed",
				owner.Class.Name, what, answer)
			d := PlainExceptionInSeed.New(owner.Module.Path, start, end, msg)
			if caught != nil {
				d.Related = append(d.Related, RelatedAt(owner.Module, caught.Span, "the exception is caught here and re-raised"))
			}
			if owner.Class != s.Class.Class {
				d.Related = append(d.Related, RelatedAt(s.Class.Module, s.Class.Class.NameSpan,
					"server "+s.Class.Class.Name+" inherits this seed_session"))
			}
			out = append(out, d)
		}
	}
	return out
}

// seedRaise describes a raise of a bad-input exception ("ValueError", "an
// assert statement"), or returns "". For a re-raise it returns the handler.
func seedRaise(v *gym.View, m *pyscan.Module, fn *pyscan.Function, r *pyscan.Raise) (string, *pyscan.Handler) {
	if r.Assert {
		if caughtBy(v, m, fn, r, "AssertionError") {
			return "", nil
		}
		return "AssertionError (an assert statement)", nil
	}
	h := innermostHandler(fn, r.Span)
	if r.Exc == nil || (h != nil && h.Name != "" && r.Exc.Dotted == h.Name && !r.Exc.Call) {
		// A re-raise: of what the handler catches.
		if h == nil {
			return "", nil
		}
		names, kinds, ok := handlerBadInput(v, m, h)
		if !ok {
			return "", nil
		}
		if caughtBy(v, m, fn, r, kinds[0]) {
			return "", nil
		}
		return "the " + strings.Join(names, " or ") + " it catches (a re-raise)", h
	}
	dotted := r.Exc.Dotted
	if dotted == "" {
		return "", nil
	}
	abs := Absolute(v, m, dotted)
	kind := exceptionKind(v, m, abs, 0)
	switch kind {
	case "":
		return "", nil
	case "HTTPException":
		if !r.Exc.Call {
			return "", nil
		}
		code, ok := httpStatus(fn, r.Exc)
		if !ok || code < 500 || code > 599 || code >= 502 && code <= 504 {
			return "", nil
		}
		if caughtBy(v, m, fn, r, "HTTPException") {
			return "", nil
		}
		return fmt.Sprintf("HTTPException with status %d", code), nil
	}
	if caughtBy(v, m, fn, r, kind) {
		return "", nil
	}
	name := dotted
	if name != kind {
		name += " (a " + kind + ")"
	}
	return name, nil
}

// exceptionKind classifies an absolute exception name: a bad-input builtin
// ("ValueError"), "ValidationError" (pydantic's), "HTTPException", or ""
// for anything else. A repository class is classified by its bases: a
// framework exception or an HTTPException base wins over a bad-input one.
func exceptionKind(v *gym.View, m *pyscan.Module, abs string, depth int) string {
	if abs == "" || depth > maxNameDepth {
		return ""
	}
	if b, ok := strings.CutPrefix(abs, "builtins."); ok {
		if badInput[b] {
			return b
		}
		return ""
	}
	switch abs {
	case "pydantic.ValidationError", "pydantic_core.ValidationError", "pydantic.error_wrappers.ValidationError",
		"pydantic_core._pydantic_core.ValidationError", "pydantic.v1.ValidationError":
		return "ValidationError"
	case "fastapi.HTTPException", "fastapi.exceptions.HTTPException", "starlette.exceptions.HTTPException":
		return "HTTPException"
	}
	if frameworkName(v, abs, 0) != "" {
		return ""
	}
	// A repository class: look at its bases.
	i := strings.LastIndexByte(abs, '.')
	if i < 0 {
		return ""
	}
	mod, cls := abs[:i], abs[i+1:]
	file := v.ModuleFile("", 0, mod)
	if file == "" {
		return ""
	}
	cm, err := v.Module(file)
	if err != nil || cm == nil {
		return ""
	}
	var c *pyscan.Class
	for _, k := range cm.Classes {
		if k.Name == cls {
			c = k
		}
	}
	if c == nil {
		return ""
	}
	found := ""
	for _, b := range c.Bases {
		if b.Dotted == "" {
			return "" // a base gymlint cannot follow
		}
		if Framework(v, cm, b.Dotted) != "" {
			return ""
		}
		switch k := exceptionKind(v, cm, Absolute(v, cm, b.Dotted), depth+1); k {
		case "HTTPException":
			return ""
		case "":
		default:
			if found == "" {
				found = k
			}
		}
	}
	return found
}

// httpStatus returns the status code of an HTTPException(...) call: its
// status_code keyword or first argument, an integer literal or a
// status.HTTP_5xx_NAME constant.
func httpStatus(fn *pyscan.Function, exc *pyscan.Expr) (int, bool) {
	var call *pyscan.Call
	for _, c := range fn.Calls {
		if c.Span == exc.Span {
			call = c
			break
		}
	}
	if call == nil {
		return 0, false
	}
	var arg *pyscan.Expr
	for i := range call.Kwargs {
		if call.Kwargs[i].Name == "status_code" {
			arg = &call.Kwargs[i].Value
		}
	}
	if arg == nil && len(call.Args) > 0 && !strings.HasPrefix(call.Args[0].Text, "*") {
		arg = &call.Args[0]
	}
	if arg == nil {
		return 0, false
	}
	t := strings.TrimSpace(arg.Text)
	if n, err := strconv.Atoi(t); err == nil {
		return n, true
	}
	if i := strings.Index(t, "HTTP_"); i >= 0 && (arg.Dotted != "" && strings.HasSuffix(arg.Dotted, t[i:])) {
		digits := t[i+5:]
		if len(digits) >= 3 {
			if n, err := strconv.Atoi(digits[:3]); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}

// innermostHandler returns the except clause whose body holds span, the
// innermost one, or nil.
func innermostHandler(fn *pyscan.Function, span pyscan.Span) *pyscan.Handler {
	var best *pyscan.Handler
	for _, t := range fn.Tries {
		for _, h := range t.Handlers {
			if Within(span, h.Body) && (best == nil || Within(h.Body, best.Body)) {
				best = h
			}
		}
	}
	return best
}

// handlerBadInput returns the bad-input exceptions a handler catches when
// it catches nothing else; ok is false for a bare except, for
// `except Exception`, and for any type that is not a bad-input exception.
func handlerBadInput(v *gym.View, m *pyscan.Module, h *pyscan.Handler) (names, kinds []string, ok bool) {
	if len(h.Types) == 0 {
		return nil, nil, false
	}
	for _, t := range h.Types {
		if t.Dotted == "" {
			return nil, nil, false
		}
		k := exceptionKind(v, m, Absolute(v, m, t.Dotted), 0)
		if k == "" || k == "HTTPException" {
			return nil, nil, false
		}
		names = append(names, t.Dotted)
		kinds = append(kinds, k)
	}
	return names, kinds, true
}

// caughtBy reports whether a raise sits in the body of a try statement one
// of whose handlers catches an exception of kind (a bad-input builtin,
// "ValidationError" or "HTTPException"): the type itself, a builtin base,
// or a bare except.
func caughtBy(v *gym.View, m *pyscan.Module, fn *pyscan.Function, r *pyscan.Raise, kind string) bool {
	catches := map[string]bool{"builtins.Exception": true, "builtins.BaseException": true}
	for _, b := range builtinBases[kind] {
		catches["builtins."+b] = true
	}
	if kind == "ValidationError" {
		catches["builtins.ValueError"] = true // pydantic's ValidationError is a ValueError
	}
	for _, t := range fn.Tries {
		if !Within(r.Span, t.Body) {
			continue
		}
		for _, h := range t.Handlers {
			if len(h.Types) == 0 {
				return true
			}
			for _, ty := range h.Types {
				abs := Absolute(v, m, ty.Dotted)
				if catches[abs] || (abs != "" && exceptionKind(v, m, abs, 0) == kind && !strings.HasPrefix(abs, "builtins.")) {
					return true
				}
			}
		}
	}
	return false
}
