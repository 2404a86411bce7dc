package sessions

import (
	"fmt"

	"github.com/gymlint/gymlint/analyzers/pyfix"
	"github.com/gymlint/gymlint/contract"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// VerifyIgnoresLostSession is rule GL307.
var VerifyIgnoresLostSession = &diag.Rule{
	Code: "GL307", Name: "verify-ignores-lost-session", Analyzer: Analyzer, Severity: diag.Warning,
	Needs:   []string{contract.LostSession},
	Summary: "A stateful server's verify reads per-session state but never refers to lost_session_verification.",
	Doc:     ruleDoc("GL307"),
}

func runVerifyIgnoresLostSession(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, h := range hooks(v, contract.VerifyMethod) {
		f := h.f
		if alwaysNotImplemented(f, h.fn) {
			continue
		}
		all := sessionState(f, h.server.Class)
		others := map[*facts.Container]bool{}
		for _, sc := range f.SessionState(h.server.Class) {
			for _, w := range sc.Writes {
				if w.Func != h.fn {
					others[sc.Container] = true
				}
			}
		}
		if len(others) == 0 {
			continue
		}
		if len(lostSessionScored(h, all)) > 0 {
			continue // GL306 reports this verify
		}
		reach := f.Reach(h.server.Class, h.fn)
		refers := false
		var read *facts.Access
		var readIn *facts.Func
		for _, r := range reach {
			if refersToLost(f, r.Func) {
				refers = true
				break
			}
			if read == nil && (r.Func == h.fn || !h.f.Words().Has(facts.WordSessionEdge, r.Func.Fn.Name)) {
				if a := readsState(h, r.Func, others, r.Func != h.fn); a != nil {
					read, readIn = a, r.Func
				}
			}
		}
		if refers || read == nil {
			continue
		}
		via := ""
		if readIn != h.fn {
			via = " (through " + readIn.Name() + ")"
		}
		writes := f.PerSession(h.server.Class, read.Container)
		var written *facts.Access
		for _, w := range writes {
			if w.Func != h.fn {
				written = w
				break
			}
		}
		start, end := gym.Range(h.fn.Module, h.fn.Fn.NameSpan)
		d := VerifyIgnoresLostSession.New(h.fn.Module.Path, start, end, fmt.Sprintf(
			"%s.verify reads the per-session state %s%s, written in %s, but never refers to lost_session_verification",
			h.owner().Name, read.Container.Name, via, written.Func.Name()))
		d.Help = "test for the missing state and return the request's fields merged with lost_session_verification(reason), a masked sample"
		if lacks(v, contract.LostSession) != "" {
			d.Help = "test for the missing state and " + lostHelpFor(v)
		}
		d.Related = writesRelated(writes)
		d.Related = append(d.Related, h.inherited(contract.VerifyMethod)...)
		d.Fixes = ignoresLostFix(h, read)
		out = append(out, d)
	}
	return out
}

// alwaysNotImplemented reports whether a function raises
// NotImplementedError unconditionally (outside any if and try).
func alwaysNotImplemented(f *facts.Facts, fn *facts.Func) bool {
	for _, st := range fn.Fn.Body {
		r, ok := st.(*pyscan.Raise)
		if !ok || r.Exc == nil {
			continue
		}
		if x := f.ExcOf(fn.Module, r.Exc); x.Name == "builtins.NotImplementedError" {
			return true
		}
	}
	return false
}

// refersToLost reports whether a function (or a function nested in it)
// calls or names lost_session_verification.
func refersToLost(f *facts.Facts, fn *facts.Func) bool {
	found := false
	pyscan.InspectBody(fn.Fn.Body, func(n pyscan.Node, stack []pyscan.Node) bool {
		switch n := n.(type) {
		case *pyscan.Name, *pyscan.Attribute:
			if refersTo(f, fn, n.(pyscan.Expr), contract.LostSessionFunc) {
				found = true
			}
			return false
		}
		return !found
	})
	return found
}

// readsState returns an access of fn that reads one of the containers: a
// subscript, get, `in`, iteration, or the container as a value. A pop or
// del statement alone only releases the state; in verify itself a pop
// whose value is used (`details = self.X.pop(k, {...})`) reads it. With
// helper set, a function that pops or deletes a container is taken to
// release it, and its reads of that container do not count.
func readsState(h hook, fn *facts.Func, cs map[*facts.Container]bool, helper bool) *facts.Access {
	state := h.f.StateOf(h.server.Class)
	released := map[*facts.Container]bool{}
	if helper {
		for _, c := range state.Containers {
			for _, a := range c.Accesses {
				if a.Func == fn && (a.Kind == facts.Pop || a.Kind == facts.Delete) {
					released[c] = true
				}
			}
		}
	}
	var first *facts.Access
	for _, c := range state.Containers {
		if !cs[c] || released[c] {
			continue
		}
		for _, a := range c.Accesses {
			if a.Func != fn {
				continue
			}
			switch a.Kind {
			case facts.Pop:
				if helper || isStatement(fn, a.Node) {
					continue
				}
			case facts.Read, facts.Get, facts.Contains, facts.Iterate, facts.Ref, facts.AugWrite, facts.SetDefault:
			default:
				continue
			}
			if first == nil || a.Node.Range().Start < first.Node.Range().Start {
				first = a
			}
		}
	}
	return first
}

// isStatement reports whether a call is a statement by itself in fn (its
// value is not used).
func isStatement(fn *facts.Func, n pyscan.Node) bool {
	found := false
	pyscan.InspectBody(fn.Fn.Body, func(x pyscan.Node, stack []pyscan.Node) bool {
		if es, ok := x.(*pyscan.ExprStmt); ok && pyscan.Node(es.Value) == n {
			found = true
		}
		return !found
	})
	return found
}

// ignoresLostFix is GL307's fix, where the verify's first read of the
// state is a statement of its own straight-line code (not under an if, a
// loop or a try, nor in a lambda or comprehension; in a with block is
// fine): a guard that answers the missing record with the masked sample
// (maskedSample) before anything else reads it,
//
//	state = self.X.get(k)
//	if state is None:
//	    return Resp(**(body.model_dump() | lost_session_verification("session is gone")))
//
// after a lookup assigned to a local of one binding, else
//
//	if k not in self.X:
//	    return Resp(...)
//
// before the statement that reads `self.X[k]`, `self.X.get(k, ...)` or `k
// in self.X`, where the key and the container are names, attributes and
// subscripts of them (the guard evaluates them again). None otherwise.
func ignoresLostFix(h hook, read *facts.Access) []diag.Fix {
	f, fn := h.f, h.fn
	m := fn.Module
	if read.Func != fn || m.SyntaxError != nil {
		return nil
	}
	var stack []pyscan.Node
	pyscan.InspectBody(fn.Fn.Body, func(n pyscan.Node, st []pyscan.Node) bool {
		if stack != nil {
			return false
		}
		switch n.(type) {
		case *pyscan.Function, *pyscan.Class:
			return false
		}
		if n == read.Node {
			stack = append([]pyscan.Node{fn.Fn}, st...)
			return false
		}
		return true
	})
	// The statement that holds the read, with nothing deferred between.
	si := -1
	for i := len(stack) - 1; i >= 0 && si < 0; i-- {
		switch stack[i].(type) {
		case *pyscan.Lambda, *pyscan.Comprehension:
			return nil
		case pyscan.Stmt:
			si = i
		}
	}
	if si < 1 {
		return nil
	}
	stmt := stack[si].(pyscan.Stmt)
	var body []pyscan.Stmt // the block that holds stmt
	switch p := stack[si-1].(type) {
	case *pyscan.Function:
		body = p.Body
	case *pyscan.With:
		body = p.Body
	default:
		return nil
	}
	ctx := pyscan.ContextOf(stack[:si+1])
	if len(ctx.Guards) > 0 || ctx.Loop || ctx.InTry || ctx.Handler != nil || ctx.Match || ctx.Deferred || ctx.Finally {
		return nil
	}
	span := stmt.Range()
	indent, own := pyfix.IndentBefore(m, span.Start)
	if !own {
		return nil
	}
	// Nothing else on the statement's last line: the next statement of
	// its block starts on a later one.
	for i, s := range body {
		if s == stmt && i+1 < len(body) && m.Line(body[i+1].Range().Start) == m.Line(span.End) {
			return nil
		}
	}
	defIndent, _ := pyfix.IndentBefore(m, fn.Fn.Span.Start)
	_, unit, ok := pyfix.BlockIndent(m, defIndent, fn.Fn.Body[0].Range().Start)
	if !ok {
		return nil
	}
	// After `local = self.X.get(k)`: test the local.
	if a, isAssign := stmt.(*pyscan.Assign); isAssign && read.Kind == facts.Get && pyscan.Node(a.Value) == read.Node && len(a.Targets) == 1 {
		c := read.Node.(*pyscan.Call)
		name, isName := a.Targets[0].(*pyscan.Name)
		if d := c.Arg(1, "default"); isName && (d == nil || pyscan.IsNone(d)) && len(f.Values(fn, name.Id)) == 1 {
			at, prefix, nl := pyfix.LineAfter(m, span.End)
			text, imp, ok := maskedSample(f, fn, pyfix.String(m, lostReason), at)
			if !ok {
				return nil
			}
			block := pyfix.Lines([]string{"if " + name.Id + " is None:", "\treturn " + text}, indent, unit, nl)
			return []diag.Fix{{Message: scoredFixTitle, Edits: append(imp, pyfix.Insert(m, at, prefix+block)), Applicability: diag.Unsafe}}
		}
	}
	// Before the statement: test the key in the container.
	var container pyscan.Expr
	switch n := read.Node.(type) {
	case *pyscan.Subscript:
		if read.Kind == facts.Read {
			container = n.Value
		}
	case *pyscan.Call:
		if a, ok := n.Func.(*pyscan.Attribute); ok && (read.Kind == facts.Get || read.Kind == facts.SetDefault || read.Kind == facts.Pop) {
			container = a.Value
		}
	case *pyscan.Compare:
		if read.Kind == facts.Contains && len(n.Ops) == 1 && pyscan.Node(n.Left) == pyscan.Node(read.Key) {
			container = n.Comparators[0]
		}
	}
	if container == nil || read.Key == nil || !pure(container) || !pure(read.Key) ||
		f.ContainerOf(h.server.Class, fn, container) != read.Container {
		return nil
	}
	ls := m.LineStart(span.Start)
	text, imp, ok := maskedSample(f, fn, pyfix.String(m, lostReason), ls)
	if !ok {
		return nil
	}
	block := pyfix.Lines([]string{"if " + m.Text(read.Key) + " not in " + m.Text(container) + ":", "\treturn " + text}, indent, unit, m.NewlineAt(ls))
	return []diag.Fix{{Message: scoredFixTitle, Edits: append(imp, pyfix.Insert(m, ls, block)), Applicability: diag.Unsafe}}
}

// pure reports whether evaluating e again gives the same value with no
// effect: a name, a constant, or attributes and subscripts of them.
func pure(e pyscan.Expr) bool {
	switch e := e.(type) {
	case *pyscan.Name, *pyscan.Constant:
		return true
	case *pyscan.Attribute:
		return pure(e.Value)
	case *pyscan.Subscript:
		return pure(e.Value) && pure(e.Index)
	}
	return false
}
