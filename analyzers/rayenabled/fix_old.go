//go:build ignore

package rayenabled

import (
	"bytes"
	"strings"

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
// than `ray_enabled = V` (a chained assignment, a line continuation).
//
// The fix is safe: the value is kept, and the annotation only tells
// pydantic that the name is a class variable, not a field.
func annotateFix(v *gym.View, m *pyscan.Module, cls *pyscan.Class, own *pyscan.ClassAttr) (diag.Fix, bool) {
	if own.Value == nil || own.StmtSpan.Start.Offset != own.Span.Start.Offset {
		return diag.Fix{}, false
	}
	src, err := v.Source(m.Path)
	if err != nil || own.Value.Span.Start.Offset > len(src) || own.Span.End.Offset > own.Value.Span.Start.Offset {
		return diag.Fix{}, false
	}
	if strings.Trim(string(src[own.Span.End.Offset:own.Value.Span.Start.Offset]), " \t") != "=" {
		return diag.Fix{}, false
	}
	name, needImport, ok := classVarName(m, cls.Span.Start.Offset)
	if !ok {
		return diag.Fix{}, false
	}
	var edits []diag.TextEdit
	if needImport {
		p, ok := m.ImportInsertion(src, cls.Span.Start.Offset)
		if !ok {
			return diag.Fix{}, false
		}
		at := pos(p)
		edits = append(edits, diag.TextEdit{Path: m.Path, Start: at, End: at,
			NewText: "from typing import ClassVar" + newlineBefore(src, p.Offset)})
	}
	edits = append(edits, diag.TextEdit{Path: m.Path, Start: pos(own.Span.End), End: pos(own.Value.Span.Start),
		NewText: ": " + name + "[bool] = "})
	return diag.Fix{
		Message:       "Annotate ray_enabled as " + name + "[bool]",
		Edits:         edits,
		Applicability: diag.Safe,
	}, true
}

// classVarName returns how the module can name typing.ClassVar in a class
// that starts at offset before, and whether an import must be added.
func classVarName(m *pyscan.Module, before int) (name string, needImport, ok bool) {
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
func boundAs(m *pyscan.Module, name string, before int, is func(*pyscan.Import) bool) (bound, clash bool) {
	for _, b := range m.Bindings {
		if b.Name != name || b.Where.InMainGuard {
			continue
		}
		imp := importOf(m, b)
		if imp == nil || !is(imp) {
			clash = true
			continue
		}
		if !b.Where.Conditional && b.Span.End.Offset <= before {
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

// newlineBefore returns the line ending of the line before the line that
// starts at off; the file's (that of its first line) for the first line.
func newlineBefore(src []byte, off int) string {
	if off >= 1 && src[off-1] == '\n' {
		if off >= 2 && src[off-2] == '\r' {
			return "\r\n"
		}
		return "\n"
	}
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}
