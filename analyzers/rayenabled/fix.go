package rayenabled

import (
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// annotateFix is GL204's fix: `ray_enabled = V` in the body of class cls
// of module m becomes `ray_enabled: ClassVar[bool] = V`. The annotation
// names ClassVar as the module binds it: `ClassVar` when a from-import of
// typing (or typing_extensions) binds it before the class, else `t.ClassVar`
// when `import typing [as t]` does; else it adds `from typing import
// ClassVar` after the last module-level import before the class (see
// pyscan's ImportInsertion). No fix when `ClassVar` names something else in
// the module and typing is not imported, nor for a statement that is more
// than `ray_enabled = V`: a chained assignment, a target in parentheses, a
// value on the next line after a backslash.
//
// The edit replaces what lies between the name and the value (` = `,
// `=`) when both are on one line; for a value in parentheses, whose
// opening parenthesis the syntax model does not keep, it inserts the
// annotation after the name and leaves ` = (` as written.
//
// The fix is safe: the value is kept, and the annotation only tells
// pydantic that the name is a class variable, not a field.
func annotateFix(m *pyscan.Module, cls *pyscan.Class, own *ownDecl) (diag.Fix, bool) {
	at := own.attr
	as, ok := own.stmt.(*pyscan.Assign)
	if !ok || len(as.Targets) != 1 || at.Value == nil || at.StmtSpan.Start != at.Span.Start {
		return diag.Fix{}, false
	}
	value := at.Value.Range()
	parenthesized := at.StmtSpan.End > value.End
	if !parenthesized && m.Line(value.Start) != m.Line(at.Span.End) {
		return diag.Fix{}, false // a line continuation
	}
	name, needImport, ok := classVarName(m, cls.Span.Start)
	if !ok {
		return diag.Fix{}, false
	}
	var edits []diag.TextEdit
	if needImport {
		p, ok := m.ImportInsertion(cls.Span.Start)
		if !ok {
			return diag.Fix{}, false
		}
		pos := gym.Pos(m, p)
		edits = append(edits, diag.TextEdit{Path: m.Path, Start: pos, End: pos,
			NewText: "from typing import ClassVar" + m.NewlineBefore(p)})
	}
	if parenthesized {
		pos := gym.Pos(m, at.Span.End)
		edits = append(edits, diag.TextEdit{Path: m.Path, Start: pos, End: pos, NewText: ": " + name + "[bool]"})
	} else {
		start, end := gym.Pos(m, at.Span.End), gym.Pos(m, value.Start)
		edits = append(edits, diag.TextEdit{Path: m.Path, Start: start, End: end, NewText: ": " + name + "[bool] = "})
	}
	return diag.Fix{
		Message:       "Annotate ray_enabled as " + name + "[bool]",
		Edits:         edits,
		Applicability: diag.Safe,
	}, true
}

// classVarName returns how the module can name typing.ClassVar in a class
// that starts at offset before, and whether an import must be added.
func classVarName(m *pyscan.Module, before int32) (name string, needImport, ok bool) {
	isClassVar := func(imp *pyscan.Import) bool {
		return imp.IsFrom() && imp.Level == 0 && imp.Name == "ClassVar" &&
			(imp.Module == "typing" || imp.Module == "typing_extensions")
	}
	isTyping := func(imp *pyscan.Import) bool { return !imp.IsFrom() && imp.Module == "typing" }
	bound, clash := boundAs(m, "ClassVar", before, isClassVar)
	if bound && !clash {
		return "ClassVar", false, true
	}
	for _, imp := range m.Imports {
		if !isTyping(imp) || !imp.ModuleScope {
			continue
		}
		if b, c := boundAs(m, imp.Bound, before, isTyping); b && !c {
			return imp.Bound + ".ClassVar", false, true
		}
	}
	if clash {
		return "", false, false
	}
	return "ClassVar", true, true
}

// boundAs looks at the module-level bindings of name that run on import
// (not in the __main__ guard's body). bound: one of them is an import that
// satisfies is, made before offset before and not under a condition (a
// try is fine). clash: one of them is anything else.
func boundAs(m *pyscan.Module, name string, before int32, is func(*pyscan.Import) bool) (bound, clash bool) {
	for _, b := range m.Bindings {
		if b.Name != name || b.Where.InMainGuard {
			continue
		}
		imp := importOf(m, b)
		if imp == nil || !is(imp) {
			clash = true
			continue
		}
		if !b.Where.Conditional && b.Span.End <= before {
			bound = true
		}
	}
	return bound, clash
}

// importOf returns the import that makes binding b, or nil.
func importOf(m *pyscan.Module, b *pyscan.Binding) *pyscan.Import {
	if b.Kind != pyscan.BindImport {
		return nil
	}
	for _, imp := range m.Imports {
		if imp.Bound == b.Name && imp.Span == b.Span {
			return imp
		}
	}
	return nil
}
