package workers

import (
	"fmt"
	"github.com/gymlint/gymlint/contract"
	"slices"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// LegacyWorkerRefusal is rule GL103.
var LegacyWorkerRefusal = &diag.Rule{
	Code: "GL103", Name: "legacy-worker-refusal", Analyzer: "workers", Severity: diag.Warning,
	Needs:   []string{contract.WorkerRefusal},
	Summary: "A server refuses several workers in its own way (num_workers: Literal[1], a validator, model_post_init) instead of through multiple_workers_unsupported_reason().",
	Doc:     ruleDoc("GL103"),
}

const legacyNumWorkers = "num_workers"

func runLegacyRefusal(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	seen := map[placeKey]bool{}
	for _, e := range v.Entrypoints {
		if !usable(e) {
			continue
		}
		for _, d := range legacyEntrypoint(v, e) {
			if k := placeOf(d); !seen[k] {
				seen[k] = true
				if c := legacyConversions(v).at(d.Path, d.Start.Offset); c != nil {
					d.Fixes = []diag.Fix{{Message: c.message, Edits: c.edits, Applicability: diag.Unsafe}}
				}
				out = append(out, d)
			}
		}
	}
	return out
}

// legacyClasses are the classes checked for an entrypoint, in a stable
// order: the module's classes, the servers' repository ancestors, and the
// class each of those annotates config with, with its ancestors.
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
			if at == nil {
				continue
			}
			if sym := v.Resolve(c.Module, annotationName(at.Annotation)); sym.Kind == gym.RepoClass {
				addOwn(gym.ClassRef{Module: sym.Module, Class: sym.Class})
			}
		}
	}
	return out
}

// annotationName is the dotted name an annotation is: a name, an attribute
// chain, or a string annotation holding one ("QuizConfig"); "" otherwise.
func annotationName(ann pyscan.Expr) string {
	if s, ok := pyscan.Str(ann); ok {
		s = strings.TrimSpace(s)
		for _, part := range strings.Split(s, ".") {
			if !identifier(part) {
				return ""
			}
		}
		return s
	}
	return pyscan.Dotted(ann)
}

// identifier reports whether s is an ASCII Python identifier.
func identifier(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return s != ""
}

// typingNames are the modules whose Literal, Optional and Union the
// annotation check knows.
var typingNames = map[string]bool{"typing": true, "typing_extensions": true}

// typingName returns which of typing's names an expression denotes
// ("Literal", "Optional", "Union"), or "".
func typingName(v *gym.View, m *pyscan.Module, e pyscan.Expr) string {
	q := v.QualifiedName(m, e)
	i := strings.LastIndexByte(q, '.')
	if i < 0 || !typingNames[q[:i]] {
		return ""
	}
	return q[i+1:]
}

// literal1 reports whether a num_workers annotation allows only 1 (or
// None): Literal[1], Literal[1, None], Optional[Literal[1]],
// Literal[1] | None, Union[Literal[1], None], through any import of
// typing's names.
func literal1(v *gym.View, m *pyscan.Module, ann pyscan.Expr) bool {
	var only1 func(e pyscan.Expr, depth int) bool
	only1 = func(e pyscan.Expr, depth int) bool {
		if depth > 4 {
			return false
		}
		switch e := e.(type) {
		case *pyscan.Subscript:
			args := []pyscan.Expr{e.Index}
			if t, ok := e.Index.(*pyscan.Tuple); ok {
				args = t.Elts
			}
			switch typingName(v, m, e.Value) {
			case "Literal":
				one := false
				for _, a := range args {
					c, ok := a.(*pyscan.Constant)
					if !ok {
						return false
					}
					if n, ok := c.Int(); ok && n == 1 {
						one = true
					} else if c.Kind != pyscan.ConstNone {
						return false
					}
				}
				return one
			case "Optional":
				return len(args) == 1 && only1(args[0], depth+1)
			case "Union":
				return unionOf1(args, func(x pyscan.Expr) bool { return only1(x, depth+1) })
			}
		case *pyscan.BinOp:
			return e.Op == pyscan.BitOr && unionOf1([]pyscan.Expr{e.Left, e.Right}, func(x pyscan.Expr) bool { return only1(x, depth+1) })
		}
		return false
	}
	return only1(ann, 0)
}

// unionOf1 reports whether the members of a union are None and types that
// allow only 1, with at least one of the latter.
func unionOf1(members []pyscan.Expr, only1 func(pyscan.Expr) bool) bool {
	one := false
	for _, x := range members {
		switch {
		case pyscan.IsNone(x):
		case only1(x):
			one = true
		default:
			return false
		}
	}
	return one
}

// legacyCheck is one check that refuses several workers outside the
// method: a num_workers annotation that allows only 1 (attr), or the first
// raise (or assert) of a validator or of model_post_init (fn, stmt).
type legacyCheck struct {
	class gym.ClassRef
	attr  *pyscan.ClassAttr
	fn    *pyscan.Function
	stmt  pyscan.Stmt
	what  string // the message, without its ending
	// conditional is set for a check with a condition of its own.
	conditional bool
}

// span is where the check is reported.
func (c legacyCheck) span() pyscan.Span {
	if c.attr != nil {
		return pyscan.Span{Start: c.attr.Span.Start, End: c.attr.StmtSpan.End}
	}
	return c.stmt.Range()
}

// legacyChecks are the legacy checks of the classes of an entrypoint.
func legacyChecks(v *gym.View, e *gym.Entrypoint) []legacyCheck {
	var out []legacyCheck
	for _, c := range legacyClasses(v, e) {
		m := c.Module
		if at := c.Class.Attr(legacyNumWorkers); at != nil && at.Annotation != nil && literal1(v, m, at.Annotation) {
			out = append(out, legacyCheck{class: c, attr: at, what: fmt.Sprintf(
				"%s declares `num_workers: %s`, which refuses several workers in pydantic validation", c.Class.Name, m.Text(at.Annotation))})
		}
		for _, fn := range c.Class.Methods {
			if r, what := legacyValidator(fn); r != nil {
				out = append(out, legacyCheck{class: c, fn: fn, stmt: r, conditional: true, what: fmt.Sprintf(
					"%s.%s, a %s, refuses the worker count by raising", c.Class.Name, fn.Name, what)})
				continue
			}
			if fn.Name == contract.ModelPostInitMethod {
				if r := legacyRaise(fn, ""); r != nil {
					out = append(out, legacyCheck{class: c, fn: fn, stmt: r, conditional: true, what: fmt.Sprintf(
						"%s.%s raises on the worker count after the server is built", c.Class.Name, contract.ModelPostInitMethod)})
				}
			}
		}
	}
	return out
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
	for _, c := range legacyChecks(v, e) {
		out = append(out, legacyDiag(c.class.Module, c.span(), c.what, reason, c.conditional))
	}
	return out
}

// legacyDiag builds a GL103 finding. conditional is set for a check with
// a condition of its own (a validator, a raise under an if), which the
// method should keep; Literal[1] refuses always.
func legacyDiag(m *pyscan.Module, at pyscan.Span, what string, reason *gym.Definition, conditional bool) diag.Diagnostic {
	msg := what + " instead of through " + Method + "()"
	var help string
	switch {
	case reason != nil && conditional:
		help = fmt.Sprintf("put the same condition in %s.%s(), returning the reason instead of raising, and remove this check", reason.Class.Class.Name, Method)
	case reason != nil:
		help = fmt.Sprintf("make sure %s.%s() returns the reason on every path, and remove this check", reason.Class.Class.Name, Method)
	case conditional:
		help = fmt.Sprintf("override %s() on the server class to return the reason under the same condition (None otherwise), and remove this check", Method)
	default:
		help = fmt.Sprintf("override %s() on the server class to return why it cannot run with several workers, and remove this check", Method)
	}
	start, end := gym.Range(m, at)
	d := LegacyWorkerRefusal.New(m.Path, start, end, msg)
	d.Help = help
	if reason != nil {
		d.Related = []diag.Related{gym.Related(reason.Class.Module, defSpan(*reason),
			fmt.Sprintf("%s.%s() is where the condition belongs", reason.Class.Class.Name, Method))}
	}
	return d
}

// legacyValidator returns the first raise (or assert) of a pydantic
// validator that refuses the worker count, and what kind of validator it
// is. The fields a field validator validates are the string literals it
// is given as positional arguments.
func legacyValidator(fn *pyscan.Function) (pyscan.Stmt, string) {
	for _, d := range fn.Decorators {
		call, isCall := d.(*pyscan.Call)
		callee := d
		if isCall {
			callee = call.Func
		}
		switch lastName(pyscan.Dotted(callee)) {
		case "field_validator", "validator":
			if !isCall {
				continue
			}
			var fields []string
			for _, a := range call.Args {
				if s, ok := pyscan.Str(a.Value); ok && a.Kind == pyscan.Positional {
					fields = append(fields, s)
				}
			}
			if !slices.Contains(fields, legacyNumWorkers) {
				continue
			}
			param := ""
			if len(fields) == 1 {
				param = valueParam(fn)
			}
			if r := legacyRaise(fn, param); r != nil {
				return r, "validator of num_workers"
			}
		case "model_validator", "root_validator":
			if r := legacyRaise(fn, ""); r != nil {
				return r, "model validator"
			}
		}
	}
	return nil, ""
}

// valueParam is the parameter that holds the validated value: the first
// after cls or self; "" when that is a star parameter.
func valueParam(fn *pyscan.Function) string {
	for i, p := range fn.Params {
		if i == 0 && (p.Name == "cls" || p.Name == "self") {
			continue
		}
		if p.Kind >= pyscan.ParamKwOnly {
			return ""
		}
		return p.Name
	}
	return ""
}

// legacyRaise returns the first raise in fn's own body under an if/elif
// test that mentions num_workers (or param, the validated value, when it
// is not ""), or the first assert whose test mentions one.
func legacyRaise(fn *pyscan.Function, param string) pyscan.Stmt {
	var found pyscan.Stmt
	pyscan.InspectBody(fn.Body, func(n pyscan.Node, stack []pyscan.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *pyscan.Function, *pyscan.Class, *pyscan.Lambda:
			return false
		case *pyscan.Assert:
			if mentions(n.Test, param) {
				found = n
			}
			return false
		case *pyscan.Raise:
			for _, g := range pyscan.ContextOf(stack).Guards {
				if mentions(g.Test, param) {
					found = n
					break
				}
			}
			return false
		}
		return true
	})
	return found
}

// mentions reports whether a test reads num_workers: a name or attribute
// of that name (`self.config.num_workers`), a string key of it
// (`values["num_workers"]`, `values.get("num_workers")`), or the name
// param (when it is not "").
func mentions(e pyscan.Expr, param string) bool {
	found := false
	pyscan.Inspect(e, func(n pyscan.Node, _ []pyscan.Node) bool {
		switch n := n.(type) {
		case *pyscan.Name:
			found = found || n.Id == legacyNumWorkers || param != "" && n.Id == param
		case *pyscan.Attribute:
			found = found || n.Attr == legacyNumWorkers
		case *pyscan.Constant:
			found = found || n.Kind == pyscan.ConstStr && n.Value == legacyNumWorkers
		}
		return !found
	})
	return found
}
