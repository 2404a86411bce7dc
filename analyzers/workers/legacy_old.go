//go:build ignore

package workers

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

func init() {
	Checks = append(Checks, gym.Check{Rule: LegacyWorkerRefusal, Run: runLegacyRefusal})
}

func runLegacyRefusal(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	seen := map[string]bool{}
	for _, e := range v.Entrypoints {
		if !mwUsable(e) {
			continue
		}
		for _, d := range legacyEntrypoint(v, e) {
			if k := mwKey(d); !seen[k] {
				seen[k] = true
				out = append(out, d)
			}
		}
	}
	return out
}

// legacyClasses are the classes checked for an entrypoint, in a stable order.
func legacyClasses(v *gym.View, e *gym.Entrypoint) []gym.ClassRef {
	var out []gym.ClassRef
	seen := map[*pyscan.Class]bool{}
	add := func(c gym.ClassRef) {
		if c.Class == nil || seen[c.Class] || v.IsFrameworkModule(c.Module.Name) || c.Module.SyntaxError != nil {
			return
		}
		seen[c.Class] = true
		out = append(out, c)
	}
	addOwn := func(c gym.ClassRef) []gym.ClassRef {
		mro, _ := v.MRO(c)
		var own []gym.ClassRef
		for _, a := range mro {
			if a.Kind == gym.Own {
				add(a.Class)
				own = append(own, a.Class)
			}
		}
		return own
	}
	for _, c := range e.Module.Classes {
		add(gym.ClassRef{Module: e.Module, Class: c})
	}
	for _, s := range e.Servers {
		for _, c := range addOwn(s.Class) {
			at := c.Class.Attr("config")
			if at == nil || at.Annotation == "" {
				continue
			}
			name := strings.Trim(strings.TrimSpace(at.Annotation), `"'`)
			if !legacyDotted.MatchString(name) {
				continue
			}
			if sym := v.Resolve(c.Module, name); sym.Kind == gym.RepoClass {
				addOwn(gym.ClassRef{Module: sym.Module, Class: sym.Class})
			}
		}
	}
	return out
}

var legacyDotted = regexp.MustCompile(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$`)

// legacyLiteral1 reports whether a num_workers annotation allows only 1
// (or None): Literal[1], Optional[Literal[1]], Literal[1] | None,
// Union[Literal[1], None], with or without a typing. prefix.
func legacyLiteral1(ann string) bool {
	a := strings.NewReplacer(" ", "", "typing.", "", "t.", "", "typing_extensions.", "").Replace(ann)
	switch a {
	case "Literal[1]", "Optional[Literal[1]]", "Literal[1]|None", "None|Literal[1]",
		"Union[Literal[1],None]", "Union[None,Literal[1]]", "Literal[1,None]", "Literal[None,1]":
		return true
	}
	return false
}

func legacyEntrypoint(v *gym.View, e *gym.Entrypoint) []diag.Diagnostic {
	var out []diag.Diagnostic
	var reason *gym.Definition
	for _, s := range e.Servers {
		if d := v.Lookup(s.Class, Method); d.Found() {
			reason = &d
			break
		}
	}
	for _, c := range legacyClasses(v, e) {
		if at := c.Class.Attr(legacyNumWorkers); at != nil && at.Annotation != "" {
			if legacyLiteral1(at.Annotation) {
				out = append(out, legacyDiag(c.Module.Path, at.Span.Start, at.StmtSpan.End, fmt.Sprintf(
					"%s declares `num_workers: %s`, which refuses several workers in pydantic validation, before the framework asks multiple_workers_unsupported_reason()", c.Class.Name, at.Annotation), reason, false))
			}
		}
		for _, fn := range c.Class.Methods {
			if r, what := legacyValidator(v, c.Module, fn); r != nil {
				out = append(out, legacyDiag(c.Module.Path, r.Span.Start, r.Span.End, fmt.Sprintf(
					"%s.%s, a %s, refuses the worker count by raising", c.Class.Name, fn.Name, what), reason, true))
				continue
			}
			if fn.Name == mwPostInit {
				if r := legacyRaise(v, c.Module, fn, []string{legacyNumWorkers}); r != nil {
					out = append(out, legacyDiag(c.Module.Path, r.Span.Start, r.Span.End, fmt.Sprintf(
						"%s.%s raises on the worker count, after the server is built and instead of through multiple_workers_unsupported_reason()", c.Class.Name, mwPostInit), reason, true))
				}
			}
		}
	}
	return out
}

// legacyDiag builds a GL103 finding. conditional is set for a check with
// a condition of its own (a validator, a raise under an if), which the
// method should keep; Literal[1] refuses always.
func legacyDiag(path string, start, end pyscan.Pos, what string, reason *gym.Definition, conditional bool) diag.Diagnostic {
	msg := what + ", so this server fails differently from the others and a dry run does not report it: "
	switch {
	case reason != nil && conditional:
		msg += fmt.Sprintf("put the same condition in %s.%s() (already overridden), returning the reason instead of raising, and remove this check", reason.Class.Class.Name, Method)
	case reason != nil:
		msg += fmt.Sprintf("%s.%s() (already overridden) returns the reason that run_webserver refuses num_workers > 1 with: make sure it always does, and remove this check", reason.Class.Class.Name, Method)
	case conditional:
		msg += fmt.Sprintf("override %s() to return the reason under the same condition (None otherwise), and remove this check; run_webserver then refuses num_workers > 1 with it", Method)
	default:
		msg += fmt.Sprintf("override %s() to return why the server cannot run with several workers, and remove this check; run_webserver then refuses num_workers > 1 with it", Method)
	}
	d := LegacyWorkerRefusal.New(path, gym.PyPos(start), gym.PyPos(end), msg)
	if reason != nil {
		d.Related = []diag.Related{{
			Path: reason.Class.Module.Path, Start: gym.PyPos(mwDefSpan(*reason).Start), End: gym.PyPos(mwDefSpan(*reason).End),
			Message: fmt.Sprintf("%s.%s() is where the condition belongs", reason.Class.Class.Name, Method),
		}}
	}
	return d
}

var legacyQuoted = regexp.MustCompile(`["']([A-Za-z_]\w*)["']`)

// legacyValidator returns the first raise of a pydantic validator that
// refuses the worker count, and what kind of validator it is.
func legacyValidator(v *gym.View, m *pyscan.Module, fn *pyscan.Function) (*pyscan.Raise, string) {
	for _, d := range fn.Decorators {
		name := d.Dotted
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		switch name {
		case "field_validator", "validator":
			if !d.Call {
				continue
			}
			var fields []string
			for _, q := range legacyQuoted.FindAllStringSubmatch(d.Text, -1) {
				if q[1] != "mode" && q[1] != "before" && q[1] != "after" && q[1] != "wrap" && q[1] != "plain" {
					fields = append(fields, q[1])
				}
			}
			has := false
			for _, f := range fields {
				if f == legacyNumWorkers {
					has = true
				}
			}
			if !has {
				continue
			}
			mentions := []string{legacyNumWorkers}
			if len(fields) == 1 {
				if p := legacyValueParam(fn); p != "" {
					mentions = append(mentions, p)
				}
			}
			if r := legacyRaise(v, m, fn, mentions); r != nil {
				return r, "validator of num_workers"
			}
		case "model_validator", "root_validator":
			if r := legacyRaise(v, m, fn, []string{legacyNumWorkers}); r != nil {
				return r, "model validator"
			}
		}
	}
	return nil, ""
}

// legacyValueParam is the parameter that holds the validated value: the
// first after cls or self.
func legacyValueParam(fn *pyscan.Function) string {
	for i, p := range fn.Params {
		if i == 0 && (p == "cls" || p == "self") {
			continue
		}
		if strings.HasPrefix(p, "*") {
			return ""
		}
		return p
	}
	return ""
}

// legacyRaise returns the first raise under a guard that mentions one of
// the names, or the first assert whose text mentions one.
func legacyRaise(v *gym.View, m *pyscan.Module, fn *pyscan.Function, names []string) *pyscan.Raise {
	var src []byte
	for _, r := range fn.Raises {
		if r.Assert {
			if src == nil {
				b, err := v.Source(m.Path)
				if err != nil {
					continue
				}
				src = b
			}
			if r.Span.End.Offset <= len(src) && legacyMentions(string(src[r.Span.Start.Offset:r.Span.End.Offset]), names) {
				return r
			}
		}
		for _, g := range r.Guards {
			if legacyMentions(g.Cond.Text, names) {
				return r
			}
		}
	}
	return nil
}

// legacyMentions reports whether text mentions one of the names as a whole
// identifier (or attribute).
func legacyMentions(text string, names []string) bool {
	for _, n := range names {
		for i := 0; ; {
			j := strings.Index(text[i:], n)
			if j < 0 {
				break
			}
			j += i
			before := j == 0 || !legacyIdent(text[j-1])
			after := j+len(n) == len(text) || !legacyIdent(text[j+len(n)])
			if before && after {
				return true
			}
			i = j + len(n)
		}
	}
	return false
}

func legacyIdent(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
