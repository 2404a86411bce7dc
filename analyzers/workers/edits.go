package workers

import (
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// The pieces the rules' fixes are made of: a statement's whole lines,
// the refusal call and its import. Each is computed from the model
// (spans, the indentation and line endings of the lines around them);
// source text is only copied into fix texts, never used to decide.

// stmtLines returns the whole lines of body[i], [start, end): from the
// start of the line of s.Start (the statement's, or its first
// decorator's) to after the line ending of its last line, when only
// indentation precedes it and no statement of the body follows it on that
// line (`a; b`); a comment after it goes with it.
func stmtLines(m *pyscan.Module, body []pyscan.Stmt, i int, s pyscan.Span) (start, end int32, ok bool) {
	if _, ok := indentBefore(m, s.Start); !ok {
		return 0, 0, false
	}
	end = m.LineEndsAfter(s.End)
	if i+1 < len(body) && body[i+1].Range().Start < end {
		return 0, 0, false
	}
	return m.LineStart(s.Start), end, true
}

// docstring reports whether a statement is a docstring (a string literal
// on its own).
func docstring(s pyscan.Stmt) bool {
	e, ok := s.(*pyscan.ExprStmt)
	if !ok {
		return false
	}
	c, ok := e.Value.(*pyscan.Constant)
	return ok && c.Kind == pyscan.ConstStr
}

// refusalName returns how method fn of class cls can call the framework's
// refuse_unsupported_num_workers, and the edit that imports it when the
// module does not bind it: the module-scope name, bound where an importer
// sees it; false when fn binds that name itself, or the module binds it
// only under a condition.
func refusalName(v *gym.View, fn *facts.Func, cls *pyscan.Class) (string, []diag.TextEdit, bool) {
	name := contract.RefuseWorkersFunc
	m := fn.Module
	if facts.Of(v).IsLocal(fn, name) {
		return "", nil, false
	}
	if b := m.Binding(name); b != nil && !b.Where.InMainGuard {
		if b.Where.Conditional {
			return "", nil, false
		}
		return name, nil, true
	}
	p, ok := m.ImportInsertion(topLevelStart(m, cls.Span.Start))
	if !ok {
		return "", nil, false
	}
	ip := gym.Pos(m, p)
	return name, []diag.TextEdit{{Path: m.Path, Start: ip, End: ip,
		NewText: "from " + v.Options.Framework.ImportOf(name, v.Options.FrameworkPackage) + " import " + name + m.NewlineBefore(p)}}, true
}

// topLevelStart is the start of the module-level statement that holds
// offset off.
func topLevelStart(m *pyscan.Module, off int32) int32 {
	for _, s := range m.Body {
		if r := s.Range(); r.Start <= off && off < r.End {
			return r.Start
		}
	}
	return off
}

// isName reports whether e is the name id.
func isName(e pyscan.Expr, id string) bool {
	n, ok := e.(*pyscan.Name)
	return ok && n.Id == id
}
