package rayenabled

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// UndeclaredRay is rule GL201.
var UndeclaredRay = &diag.Rule{
	Code: "GL201", Name: "undeclared-ray", Analyzer: "rayenabled", Severity: diag.Error,
	Needs:   []string{contract.RayPerDeclaration},
	Summary: "A server uses Ray but its entrypoint does not declare ray_enabled = True.",
	Doc:     ruleDoc("GL201"),
}

// runUndeclaredRay reports a server that uses Ray and whose entrypoint
// declares no ray_enabled for it: the server class's own body declares the
// literal False; or it declares nothing, and no other place of the
// entrypoint sets it (GL203 then says what to do with that place) and the
// class inherits no declaration from another module (GL202).
func runUndeclaredRay(v *gym.View) []diag.Diagnostic {
	return report(usesOf(v).list, func(u *serverUse) []diag.Diagnostic {
		if u.found.use == nil {
			return nil
		}
		switch {
		case u.own != nil && isFalse(u.own.attr.Value):
			return []diag.Diagnostic{u.undeclared(true)}
		case u.own == nil && len(u.sites) == 0 && u.inherited == nil:
			return []diag.Diagnostic{u.undeclared(false)}
		}
		return nil
	})
}

// undeclared is GL201's finding; declaredFalse is set when the class
// declares False.
func (u *serverUse) undeclared(declaredFalse bool) diag.Diagnostic {
	use := u.found.describe(u.entryPath())
	var msg, help string
	switch {
	case declaredFalse:
		msg = fmt.Sprintf("%s declares ray_enabled = False but uses Ray (%s)", u.subject(), use)
		help = fmt.Sprintf("set it to True, %s: the server supervisor does not start Ray for a server that does not declare it, so the server fails at startup", fix)
	case u.inEntry():
		msg = fmt.Sprintf("%s uses Ray (%s) but does not declare it", u.subject(), use)
		help = fmt.Sprintf("add %s to the body of %s (import ClassVar from typing): the server supervisor starts Ray only for servers whose entrypoint source declares it, so the server fails at startup", fix, u.name())
	default:
		msg = fmt.Sprintf("%s uses Ray (%s) but is defined outside its entrypoint, where the server supervisor reads ray_enabled", u.subject(), use)
		help = fmt.Sprintf("subclass %s in %s with %s in its body and start the subclass", u.name(), u.entryPath(), fix)
	}
	help += u.latestOnly()
	a, b := u.classRange()
	dg := UndeclaredRay.New(u.entryPath(), a, b, msg)
	dg.Help = help
	dg.Related = append(u.useRelated(), u.classRelated()...)
	var f diag.Fix
	var ok bool
	switch {
	case declaredFalse:
		f, ok = u.trueFix()
	case u.inEntry():
		f, ok = u.declareFix()
	}
	if ok {
		dg.Fixes = []diag.Fix{f}
	}
	return dg
}

// GL201's fixes are unsafe: declaring Ray makes the server supervisor
// start or join a Ray cluster for every run that configures the server,
// which it did not do before. That is what a server that needs Ray must
// have, but gymlint finds a use of Ray in the code, not that every run of
// the server reaches it (an import on a code path that one config never
// takes, a library that only Ray's extras need): a person decides.

// declareFix is GL201's fix for a server class defined in the entrypoint
// that declares nothing: the declaration as the first statement of the
// class body, after its docstring (see declarationEdits). It is
// `ray_enabled: ClassVar[bool] = True`, with ClassVar named and imported
// as GL204's fix does (classVarName, classVarImport), unless an ancestor
// already makes ray_enabled a ClassVar (ancestorsClassVar says isClassVar),
// where `ray_enabled = True` is what pydantic expects; where an ancestor
// only may (an annotation gymlint cannot read), the annotated form, which
// is right either way, so the fix never makes a GL204. No fix when the
// module binds ClassVar to something else and does not import typing.
func (u *serverUse) declareFix() (diag.Fix, bool) {
	m, c := u.m(), u.s.Class.Class
	decl := Attr + " = True"
	var edits []diag.TextEdit
	if cv, _ := u.ancestorsClassVar(); cv != isClassVar {
		name, needImport, ok := classVarName(m, c.Span.Start)
		if !ok {
			return diag.Fix{}, false
		}
		decl = Attr + ": " + name + "[bool] = True"
		if needImport {
			e, ok := classVarImport(u.v, m, c.Span.Start)
			if !ok {
				return diag.Fix{}, false
			}
			edits = append(edits, e)
		}
	}
	es, ok := declarationEdits(m, c, decl)
	if !ok {
		return diag.Fix{}, false
	}
	return diag.Fix{Message: "Declare " + decl, Edits: append(edits, es...), Applicability: diag.Unsafe}, true
}

// declarationEdits puts the statement decl first in the body of class c,
// after its docstring, on a line of its own, indented as the body is and
// ended as the lines around it are, and set off by blank lines as
// formatters (black, ruff format) set off statements:
//   - after the docstring and a blank line when the body starts with one
//     (a class docstring is followed by a blank line);
//   - else in place of the body's only statement when it is `pass` or
//     `...` (after a docstring too), which the declaration makes unneeded,
//     unless a comment follows it on its line (the comment may be about
//     more than the placeholder: it stays, and so does the placeholder);
//   - else on the line after the class's header, before the comments and
//     blank lines that precede the first statement (comments before a
//     statement are about it);
//   - with a blank line after it when the statement that follows on the
//     next line is a def or a class;
//   - for a body written on the class's line (`class S(B): pass`), on a
//     line of its own, with the rest of the body on the next line, unless
//     the body starts with a docstring, which must stay first.
func declarationEdits(m *pyscan.Module, c *pyscan.Class, decl string) ([]diag.TextEdit, bool) {
	if len(c.Body) == 0 || c.BodySpan.IsZero() {
		return nil, false
	}
	classIndent, ok := indentBefore(m, c.Span.Start)
	if !ok {
		return nil, false
	}
	first, rest := c.Body[0], c.Body
	doc := isDocstring(first)
	if doc {
		rest = c.Body[1:]
	}
	alone := len(rest) == 1 && isPlaceholder(rest[0]) && trailingComment(m, rest[0].Range().End) == rest[0].Range().End
	bodyIndent, own := indentBefore(m, c.BodySpan.Start)
	if !own {
		if doc {
			return nil, false
		}
		ls := m.LineStart(c.BodySpan.Start)
		head := m.SpanText(pyscan.Span{Start: ls, End: c.BodySpan.Start})
		gap := gym.Pos(m, ls+int32(len(strings.TrimRight(head, " \t"))))
		indent := classIndent + indentUnit(classIndent)
		nl := m.NewlineAt(c.BodySpan.Start)
		if alone {
			return []diag.TextEdit{{Path: m.Path, Start: gap, End: gym.Pos(m, first.Range().End), NewText: nl + indent + decl}}, true
		}
		return []diag.TextEdit{{Path: m.Path, Start: gap, End: gym.Pos(m, c.BodySpan.Start), NewText: nl + indent + decl + nl + indent}}, true
	}
	if alone {
		if _, ok := indentBefore(m, rest[0].Range().Start); ok {
			r := rest[0].Range()
			return []diag.TextEdit{{Path: m.Path, Start: gym.Pos(m, r.Start), End: gym.Pos(m, r.End), NewText: decl}}, true
		}
	}
	var at int32
	var before string
	if doc {
		pos, prefix, nl := lineAfter(m, first.Range().End)
		at, before = int32(pos.Offset), prefix+nl
	} else {
		at = m.LineStart(c.BodySpan.Start)
		for top := m.LineStart(c.Span.Start); at > top; {
			prev := m.LineStart(at - 1)
			if !blankOrComment(m, prev) {
				break
			}
			at = prev
		}
	}
	nl := m.NewlineBefore(at)
	text := before + bodyIndent + decl + nl
	if len(rest) > 0 && startsBlock(rest[0]) && int(at) < m.Size && !blank(m, at) {
		text += nl
	}
	pos := gym.Pos(m, at)
	return []diag.TextEdit{{Path: m.Path, Start: pos, End: pos, NewText: text}}, true
}

// startsBlock reports whether s is a def or a class, which formatters set
// off from the statements before it with a blank line.
func startsBlock(s pyscan.Stmt) bool {
	switch s.(type) {
	case *pyscan.Function, *pyscan.Class:
		return true
	}
	return false
}

// trueFix is GL201's fix for a server class that declares
// `ray_enabled = False`: the value becomes True, in the statement as it is
// written (GL204 adds the annotation a bare form lacks). No fix for a
// chained assignment (`ray_enabled = other = False`), whose other target
// would change too.
func (u *serverUse) trueFix() (diag.Fix, bool) {
	switch s := u.own.stmt.(type) {
	case *pyscan.Assign:
		if len(s.Targets) != 1 {
			return diag.Fix{}, false
		}
	case *pyscan.AnnAssign:
	default:
		return diag.Fix{}, false
	}
	m, r := u.m(), u.own.attr.Value.Range()
	return diag.Fix{
		Message:       "Set ray_enabled to True",
		Edits:         []diag.TextEdit{{Path: m.Path, Start: gym.Pos(m, r.Start), End: gym.Pos(m, r.End), NewText: "True"}},
		Applicability: diag.Unsafe,
	}, true
}

// latestOnly says, when the repository's framework does not start Ray per
// declaration (GL201 is then reported only with --contract latest), that
// the reason is the current contract's and not yet this framework's.
func (sv *serverDecl) latestOnly() string {
	fw := sv.v.Options.Framework
	if !fw.Lacks(contract.RayPerDeclaration) {
		return ""
	}
	return fmt.Sprintf(" (the current contract; %s at %s still starts Ray for every server)", fw.Package, fw.Display())
}
