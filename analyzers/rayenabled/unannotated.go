package rayenabled

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/analyzers/pyfix"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// UnannotatedRayEnabled is rule GL204.
var UnannotatedRayEnabled = &diag.Rule{
	Code: "GL204", Name: "unannotated-ray-enabled", Analyzer: "rayenabled", Severity: diag.Error,
	Summary: "A bare ray_enabled = ... in a server class raises at import (pydantic).",
	Doc:     ruleDoc("GL204"),
}

// runUnannotatedRayEnabled reports a bare `ray_enabled = V` in the body
// of a server class in its entrypoint (an assignment without annotation),
// unless an ancestor makes it a ClassVar. It decides from the declaration
// alone (declsOf): run without the other rules of the analyzer, it
// reads no module of the servers' import closures.
func runUnannotatedRayEnabled(v *gym.View) []diag.Diagnostic {
	return report(declsOf(v).list, func(sv *serverDecl) []diag.Diagnostic {
		if sv.own == nil || sv.own.attr.Annotation != nil || sv.own.attr.Value == nil {
			return nil
		}
		if dg, ok := sv.unannotated(); ok {
			return []diag.Diagnostic{dg}
		}
		return nil
	})
}

// unannotated is GL204's finding for the server class's bare assignment,
// unless an ancestor declares ray_enabled as a ClassVar, may do so in a
// form gymlint cannot read, or the ancestry cannot be read.
func (sv *serverDecl) unannotated() (diag.Diagnostic, bool) {
	own := sv.own
	at := own.attr
	cv, external := sv.ancestorsClassVar()
	if cv != notClassVar {
		return diag.Diagnostic{}, false
	}
	val := short(valueText(sv.m(), at))
	msg := fmt.Sprintf(
		"`ray_enabled = %s` in %s has no annotation, and no ancestor declares it a ClassVar: pydantic raises PydanticUserError at import",
		val, sv.subject())
	if external {
		if fw := sv.v.Options.Framework; fw.Known() {
			msg += fmt.Sprintf("; %s at %s does not declare the ClassVar either", fw.Package, fw.Display())
		} else {
			msg += "; the framework package was not found (assumed not to declare the ClassVar)"
		}
	}
	dg := UnannotatedRayEnabled.New(sv.entryPath(), gym.Pos(sv.m(), at.Span.Start), gym.Pos(sv.m(), at.StmtSpan.End), msg)
	dg.Help = fmt.Sprintf("write `ray_enabled: ClassVar[bool] = %s` (import ClassVar from typing)", val)
	if f, ok := annotateFix(sv.v, sv.m(), sv.s.Class.Class, own); ok {
		dg.Fixes = []diag.Fix{f}
	}
	return dg, true
}

// ancestorsClassVar is what the server class's ancestors make of
// ray_enabled: isClassVar when one of them declares it a ClassVar, or the
// ancestry runs through a framework outside the repository whose installed
// version declares it (contract.RayDeclaration); else maybeClassVar when
// one may (an annotation gymlint cannot read), or the ancestry cannot be
// read (no MRO, a base gymlint cannot resolve); else notClassVar, and
// external says whether the ancestry runs through framework classes
// outside the repository, which gymlint cannot read. Pydantic makes a
// name a class variable when any class of the MRO declares it one, so
// isClassVar wins wherever it is. GL204 reports the bare form only under
// notClassVar; GL201's fix writes the bare form only under isClassVar.
func (sv *serverDecl) ancestorsClassVar() (cv classVarness, external bool) {
	mro, ok := sv.v.MRO(sv.s.Class)
	if !ok {
		return maybeClassVar, false
	}
	cv = notClassVar
	for _, a := range mro[1:] {
		switch a.Kind {
		case gym.Own:
			if anc := a.Class.Class.Attr(Attr); anc != nil {
				cv = max(cv, classVar(sv.v, a.Class.Module, anc.Annotation))
			}
		case gym.FrameworkServer, gym.Framework:
			if a.Class.Class == nil {
				external = true
			} else {
				cv = max(cv, sv.frameworkClassVar(a.Class, 0, map[*pyscan.Class]bool{}))
			}
		case gym.Unresolved:
			cv = max(cv, maybeClassVar)
		}
	}
	if external {
		if fw := sv.v.Options.Framework; fw.Known() && fw.Has(contract.RayDeclaration) {
			cv = isClassVar // the installed framework declares the ClassVar
		}
	}
	return cv, external
}

// frameworkClassVar is what a framework class defined in the repository,
// or one of its framework ancestors, makes of ray_enabled (see
// ancestorsClassVar). (gym's MRO does not look inside framework classes.)
func (sv *serverDecl) frameworkClassVar(ref gym.ClassRef, depth int, seen map[*pyscan.Class]bool) classVarness {
	if seen[ref.Class] || depth > 24 {
		return notClassVar
	}
	seen[ref.Class] = true
	cv := notClassVar
	if at := ref.Class.Attr(Attr); at != nil {
		cv = classVar(sv.v, ref.Module, at.Annotation)
	}
	for _, b := range sv.v.Bases(ref) {
		if b.Class.Class != nil && (b.Kind == gym.Framework || b.Kind == gym.FrameworkServer) {
			cv = max(cv, sv.frameworkClassVar(b.Class, depth+1, seen))
		}
	}
	return cv
}

// classVarness is what an annotation says of a class variable.
type classVarness int

const (
	notClassVar   classVarness = iota // no annotation, or one that is not ClassVar
	maybeClassVar                     // cannot be decided from the model
	isClassVar                        // ClassVar or ClassVar[...] of typing (or typing_extensions)
)

// classVar reads an annotation written at module scope of m (a class
// body): typing.ClassVar, alone or subscripted, under whatever name m
// binds it (`ClassVar[bool]`, `typing.ClassVar[bool]`, `t.ClassVar`,
// `CV[bool]` after `from typing import ClassVar as CV`).
// A string annotation ("ClassVar[bool]") would have to be parsed from its
// text, and a name ending in ClassVar that the resolver cannot follow to
// typing (`typing.ClassVar` without `import typing`, a star import, a
// re-export by a library) may still be it: both are maybeClassVar.
func classVar(v *gym.View, m *pyscan.Module, ann pyscan.Expr) classVarness {
	if ann == nil {
		return notClassVar
	}
	if _, ok := pyscan.Str(ann); ok {
		return maybeClassVar
	}
	if s, ok := ann.(*pyscan.Subscript); ok {
		ann = s.Value
	}
	dotted := pyscan.Dotted(ann)
	if dotted == "" {
		return notClassVar
	}
	sym := v.Resolve(m, dotted)
	switch {
	case sym.Kind == gym.External && (sym.Dotted == "typing.ClassVar" || sym.Dotted == "typing_extensions.ClassVar"):
		return isClassVar
	case dotted != "ClassVar" && !strings.HasSuffix(dotted, ".ClassVar"):
		return notClassVar
	case sym.Kind == gym.RepoClass || sym.Kind == gym.RepoFunction || sym.Kind == gym.RepoValue:
		return notClassVar // a name of the repository's own
	}
	if root, _, _ := strings.Cut(dotted, "."); m.Binding(root) != nil && m.Binding(root).Kind != pyscan.BindImport {
		return notClassVar // the module binds the name to something of its own (`ClassVar = object`)
	}
	return maybeClassVar
}

// annotateFix is GL204's fix: `ray_enabled = V` in the body of class cls
// of module m becomes `ray_enabled: ClassVar[bool] = V`. The annotation
// names ClassVar as the module binds it: `ClassVar` when a from-import of
// typing (or typing_extensions) binds it before the class, else `t.ClassVar`
// when `import typing [as t]` does; else it imports it (classVarImport):
// into an existing `from typing import ...` line, in isort's order, or as
// `from typing import ClassVar` after the last module-level import before
// the class (see pyscan's ImportInsertion). No fix when `ClassVar` names something else in
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
func annotateFix(v *gym.View, m *pyscan.Module, cls *pyscan.Class, own *ownDecl) (diag.Fix, bool) {
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
		edit, ok := classVarImport(v, m, cls.Span.Start)
		if !ok {
			return diag.Fix{}, false
		}
		edits = append(edits, edit)
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

// classVarImport is the edit that imports ClassVar for a class that starts
// at offset before: into a `from typing import ...` that runs before it
// unconditionally, at its place in isort's order, else a `from typing
// import ClassVar` statement in the standard library's isort section
// (pyscan.Module.AddFromImport).
func classVarImport(v *gym.View, m *pyscan.Module, before int32) (diag.TextEdit, bool) {
	ins, ok := m.AddFromImport("typing", "ClassVar", v.Sectioner(m), before)
	if !ok {
		return diag.TextEdit{}, false
	}
	return pyfix.Insert(m, ins.Offset, ins.Text), true
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
