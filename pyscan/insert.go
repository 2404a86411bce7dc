package pyscan

import "strings"

// ImportInsertion returns where a new module-level import statement can be
// inserted, as the offset of the start of a line, so that it runs before
// the statement that starts at offset before: after the last import
// statement that ends before it at module scope and outside any compound
// statement (if, try, with, ...; so never inside an `if TYPE_CHECKING:`
// or a try/except ImportError); when there is none, after the module's
// docstring and `from __future__` imports (Prologue); when it has neither,
// at the line of its first statement, below the leading comments (a
// shebang, an encoding declaration, a licence) and a byte order mark. It
// reports false when there is no such line before offset before.
func (m *Module) ImportInsertion(before int32) (int32, bool) {
	src := m.text
	if int(before) > len(src) {
		before = int32(len(src))
	}
	anchor := int32(-1)
	for _, imp := range m.Imports {
		if !imp.ModuleScope || imp.Where != (Where{}) || imp.Span.End > before {
			continue
		}
		if imp.Span.End > anchor {
			anchor = imp.Span.End
		}
	}
	if anchor < 0 && m.Prologue != nil && m.Prologue.End <= before {
		anchor = m.Prologue.End
	}
	if anchor >= 0 {
		if int(anchor) > len(src) {
			return 0, false
		}
		// The next line, at CPython's line ends ("\n", "\r\n", a lone
		// "\r"), as the line index counts them.
		next := m.LineEndsAfter(anchor)
		if m.LineEnding(anchor) == "" || next > before {
			return 0, false
		}
		return next, true
	}
	// The first line that is neither blank nor a comment starts the first
	// statement.
	off := 0
	if strings.HasPrefix(src, "\ufeff") {
		off = 3
	}
	for off <= int(before) {
		end := int(m.LineEndsAfter(int32(off)))
		text := strings.TrimLeft(strings.TrimRight(src[off:end], "\r\n"), " \t\f")
		if len(text) > 0 && text[0] != '#' {
			return int32(off), true
		}
		if end == len(src) {
			break
		}
		off = end
	}
	return 0, false
}

// ImportMember is a name of a from-import statement (`Dict` of `from
// typing import Any, Dict as D`): the imported name, and where its text
// (with its `as` clause) starts and ends.
type ImportMember struct {
	Name       string
	Start, End int32
}

// FromImportMembers returns the members of the one-line, unparenthesized
// from-import statement imp belongs to (`from typing import Any, Dict`),
// in order, and false for any other shape (parentheses, a backslash
// continuation, a `*`, a comment inside): what an edit may add a name to.
func (m *Module) FromImportMembers(imp *Import) ([]ImportMember, bool) {
	if !imp.IsFrom() || int(imp.Span.End) > len(m.text) {
		return nil, false
	}
	stmt := m.text[imp.Span.Start:imp.Span.End]
	i := strings.Index(stmt, " import ")
	if i < 0 || strings.ContainsAny(stmt, "()\\#*\n\r") {
		return nil, false
	}
	var out []ImportMember
	off := i + len(" import ")
	for _, part := range strings.Split(stmt[off:], ",") {
		name := strings.TrimSpace(part)
		lead := len(part) - len(strings.TrimLeft(part, " \t"))
		start := imp.Span.Start + int32(off+lead)
		end := start + int32(len(name))
		if n, _, ok := strings.Cut(name, " as "); ok {
			name = strings.TrimSpace(n)
		}
		if name == "" || strings.ContainsAny(name, " \t") {
			return nil, false
		}
		out = append(out, ImportMember{Name: name, Start: start, End: end})
		off += len(part) + 1
	}
	return out, len(out) > 0
}

// IsortLess orders two imported names as isort and ruff's isort do by
// default (order-by-type): CONSTANTS, then Classes, then the rest, each
// alphabetically.
func IsortLess(a, b string) bool {
	kind := func(s string) int {
		switch {
		case len(s) > 1 && strings.ToUpper(s) == s:
			return 0
		case s != "" && s[0] >= 'A' && s[0] <= 'Z':
			return 1
		}
		return 2
	}
	if ka, kb := kind(a), kind(b); ka != kb {
		return ka < kb
	}
	return strings.ToLower(a) < strings.ToLower(b) || strings.ToLower(a) == strings.ToLower(b) && a < b
}

// AddToFromImport returns the edit (an insertion at offset, of text) that
// adds name to the from-import statement imp belongs to, at its place in
// isort's order: on one line (`from typing import Any, Dict`), or in
// parentheses, on one line or one name per line with the indentation and
// trailing comma the statement has. It reports false when the statement is
// of another shape or its members are not in that order already (the
// repository does not sort them: adding at the end would do no better).
func (m *Module) AddToFromImport(imp *Import, name string) (offset int32, text string, ok bool) {
	members, ok := m.FromImportMembers(imp)
	vertical := false
	if !ok {
		if members, vertical, ok = m.parenMembers(imp); !ok {
			return 0, "", false
		}
	}
	for i := 1; i < len(members); i++ {
		if IsortLess(members[i].Name, members[i-1].Name) {
			return 0, "", false
		}
	}
	if vertical {
		indent := m.Indent(members[0].Start)
		for _, mb := range members {
			if IsortLess(name, mb.Name) {
				ls := m.LineStart(mb.Start)
				return ls, indent + name + "," + m.NewlineAt(ls), true
			}
		}
		last := members[len(members)-1]
		if m.text[last.End] == ',' {
			at := m.LineEndsAfter(last.End)
			if strings.TrimSpace(m.text[last.End+1:at]) != "" {
				return 0, "", false // `Dict,)`
			}
			return at, indent + name + "," + m.NewlineAt(last.End), true
		}
		return last.End, "," + m.NewlineAt(last.End) + indent + name, true
	}
	for _, mb := range members {
		if IsortLess(name, mb.Name) {
			return mb.Start, name + ", ", true
		}
	}
	return members[len(members)-1].End, ", " + name, true
}

// parenMembers returns the members of a from-import statement whose names
// are in parentheses, and whether they are written one per line (each on
// its own line, nothing else on it but a comma), or false for any other
// shape (a comment inside, a `*`, two names on one line of several).
func (m *Module) parenMembers(imp *Import) (members []ImportMember, vertical, ok bool) {
	if !imp.IsFrom() || int(imp.Span.End) > len(m.text) {
		return nil, false, false
	}
	stmt := m.text[imp.Span.Start:imp.Span.End]
	i := strings.Index(stmt, " import (")
	if i < 0 || !strings.HasSuffix(stmt, ")") || strings.ContainsAny(stmt, "\\#*") ||
		strings.ContainsAny(stmt[:i], "\n\r") {
		return nil, false, false
	}
	open := i + len(" import (")
	inner := stmt[open : len(stmt)-1]
	vertical = strings.ContainsAny(inner, "\n\r")
	off := open
	parts := strings.Split(inner, ",")
	for k, part := range parts {
		name := strings.TrimSpace(part)
		if name == "" {
			if k != len(parts)-1 { // only a trailing comma leaves an empty part
				return nil, false, false
			}
			break
		}
		lead := len(part) - len(strings.TrimLeft(part, " \t\r\n"))
		start := imp.Span.Start + int32(off+lead)
		end := start + int32(len(name))
		if n, _, ok := strings.Cut(name, " as "); ok {
			name = strings.TrimSpace(n)
		}
		if name == "" || strings.ContainsAny(name, " \t\r\n") {
			return nil, false, false
		}
		if vertical && !strings.ContainsAny(part[:lead], "\n\r") {
			return nil, false, false // two names on one line
		}
		members = append(members, ImportMember{Name: name, Start: start, End: end})
		off += len(part) + 1
	}
	return members, vertical, len(members) > 0
}
