// Package pyfix computes the edits of the Python rules' suggested fixes
// from the syntax model: where a statement goes in a body, how the lines
// around it are indented and end, how a name is imported. One answer in
// one place, so that every rule's fix writes code the way the file
// already does:
//
//   - indentation is the surrounding lines' (tabs stay tabs, two spaces
//     stay two spaces), line endings the file's ("\r\n" stays "\r\n");
//   - an import goes into an existing `from X import ...` statement of the
//     same module, at its place in isort's order, or as a new statement in
//     the isort section it belongs to (standard library, third party, first
//     party: gym.View.ImportSection, with the repository's
//     known-first-party);
//   - nothing is written for another tool (no `# noqa`, no `# type:`).
//
// Rules decide from facts; this package only writes what they decided.
package pyfix

import (
	"maps"
	"slices"
	"strings"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// Insert is an edit that inserts text at offset off of m.
func Insert(m *pyscan.Module, off int32, text string) diag.TextEdit {
	p := gym.Pos(m, off)
	return diag.TextEdit{Path: m.Path, Start: p, End: p, NewText: text}
}

// Replace is an edit that replaces span s of m with text.
func Replace(m *pyscan.Module, s pyscan.Span, text string) diag.TextEdit {
	start, end := gym.Range(m, s)
	return diag.TextEdit{Path: m.Path, Start: start, End: end, NewText: text}
}

// IndentBefore returns the white space between the start of off's line
// and off, or false when anything else precedes off on its line.
func IndentBefore(m *pyscan.Module, off int32) (string, bool) {
	if ind := m.Indent(off); m.LineStart(off)+int32(len(ind)) == off {
		return ind, true
	}
	return "", false
}

// IndentUnit is one level of indentation where nothing shows the file's:
// a tab in a tab-indented block, else four spaces.
func IndentUnit(indent string) string {
	if strings.Contains(indent, "\t") {
		return "\t"
	}
	return "    "
}

// LineAfter returns where the line after off's line starts, for inserting
// whole lines there, and that line's ending. At the end of a file whose
// last line has no line ending, it returns the end of the file and the
// line ending to write first (prefix).
func LineAfter(m *pyscan.Module, off int32) (at int32, prefix, nl string) {
	at = m.LineEndsAfter(off)
	if nl = m.LineEnding(off); nl == "" {
		nl = m.Newline()
		return at, nl, nl
	}
	return at, "", nl
}

// BlockIndent returns the indentation of the statements of a body that
// starts at bodyStart, under a header indented by outer, and one level of
// it (the difference), or false when the body starts on its header's line
// (`def f(): pass`).
func BlockIndent(m *pyscan.Module, outer string, bodyStart int32) (indent, unit string, ok bool) {
	indent, ok = IndentBefore(m, bodyStart)
	if !ok {
		return "", "", false
	}
	unit = IndentUnit(outer)
	if u, cut := strings.CutPrefix(indent, outer); cut && u != "" {
		unit = u
	}
	return indent, unit, true
}

// Lines writes a block of code at indentation indent: each line of block
// starts with as many tabs as it is deeper than the block's first level,
// which are written as that many units; the lines end in nl.
func Lines(block []string, indent, unit, nl string) string {
	var b strings.Builder
	for _, l := range block {
		depth := len(l) - len(strings.TrimLeft(l, "\t"))
		b.WriteString(indent)
		b.WriteString(strings.Repeat(unit, depth))
		b.WriteString(l[depth:])
		b.WriteString(nl)
	}
	return b.String()
}

// IsDocstring reports whether s is a docstring statement (a string
// expression) when it is the first of a body.
func IsDocstring(s pyscan.Stmt) bool {
	es, ok := s.(*pyscan.ExprStmt)
	if !ok {
		return false
	}
	_, ok = pyscan.Str(es.Value)
	return ok
}

// InsertFirst inserts block as the first statements of body (after its
// docstring), whose header is indented by outer, or false when the body
// does not start on a line of its own. The block's lines are written as
// Lines writes them, at the body's indentation.
func InsertFirst(m *pyscan.Module, outer string, body []pyscan.Stmt, block []string) (diag.TextEdit, bool) {
	if len(body) == 0 {
		return diag.TextEdit{}, false
	}
	indent, unit, ok := BlockIndent(m, outer, body[0].Range().Start)
	if !ok {
		return diag.TextEdit{}, false
	}
	if IsDocstring(body[0]) {
		if len(body) == 1 {
			at, prefix, nl := LineAfter(m, body[0].Range().End)
			return Insert(m, at, prefix+Lines(block, indent, unit, nl)), true
		}
		body = body[1:]
	}
	first := body[0].Range().Start
	if _, own := IndentBefore(m, first); !own {
		return diag.TextEdit{}, false // `"""Doc."""; x = 1`
	}
	ls := m.LineStart(first)
	return Insert(m, ls, Lines(block, indent, unit, m.NewlineAt(ls))), true
}

// AppendToClass adds block at the end of the body of class c of m, a
// blank line before it, at the body's indentation (Lines): the edits for a
// method, a class attribute. A class whose body is on its own line
// (`class S(Base): pass`) has the body moved to a line of its own first;
// a body that is only `pass` or `...` (without a comment) is replaced.
// false when the class is not of a shape the edits can keep.
func AppendToClass(m *pyscan.Module, c *pyscan.Class, block []string, blankBefore bool) ([]diag.TextEdit, bool) {
	if m == nil || c == nil || m.SyntaxError != nil || c.BodySpan.IsZero() {
		return nil, false
	}
	classIndent, ok := IndentBefore(m, c.Span.Start)
	if !ok {
		return nil, false
	}
	var edits []diag.TextEdit
	bodyIndent, unit, ok := BlockIndent(m, classIndent, c.BodySpan.Start)
	if !ok {
		// `class S(Base): pass`: move the body to its own line, and drop
		// the blanks between the colon and it.
		ls := m.LineStart(c.BodySpan.Start)
		head := m.SpanText(pyscan.Span{Start: ls, End: c.BodySpan.Start})
		gap := ls + int32(len(strings.TrimRight(head, " \t")))
		unit = IndentUnit(classIndent)
		bodyIndent = classIndent + unit
		edits = append(edits, Replace(m, pyscan.Span{Start: gap, End: c.BodySpan.Start}, m.NewlineAt(c.BodySpan.End)+bodyIndent))
	}
	if len(edits) == 0 && len(c.Body) == 1 && isPlaceholder(c.Body[0]) && !m.HasComment(c.Body[0].Range()) {
		// A body that is only `pass` or `...` becomes the block.
		if del, ok := DeleteLines(m, c.Body[0].Range()); ok && m.EndsLine(c.Body[0].Range().End) &&
			!m.HasComment(pyscan.Span{Start: c.Body[0].Range().End, End: m.LineEndsAfter(c.Body[0].Range().End)}) {
			del.NewText = Lines(block, bodyIndent, unit, m.NewlineAt(c.BodySpan.End))
			return []diag.TextEdit{del}, true
		}
	}
	at, prefix, nl := LineAfter(m, c.BodySpan.End)
	text := prefix
	if blankBefore {
		text += nl
	}
	text += Lines(block, bodyIndent, unit, nl)
	return append(edits, Insert(m, at, text)), true
}

// isPlaceholder reports whether s is `pass` or `...`, a body's stand-in.
func isPlaceholder(s pyscan.Stmt) bool {
	switch s := s.(type) {
	case *pyscan.Pass:
		return true
	case *pyscan.ExprStmt:
		c, ok := s.Value.(*pyscan.Constant)
		return ok && c.Kind == pyscan.ConstEllipsis
	}
	return false
}

// DeleteLines is the edit that removes the whole lines of statement s of m,
// or false when something else shares them (`x = 1; y = 2`, a statement
// after a colon).
func DeleteLines(m *pyscan.Module, s pyscan.Span) (diag.TextEdit, bool) {
	if _, own := IndentBefore(m, s.Start); !own {
		return diag.TextEdit{}, false
	}
	if !m.EndsLine(s.End) {
		return diag.TextEdit{}, false
	}
	return Replace(m, pyscan.Span{Start: m.LineStart(s.Start), End: m.LineEndsAfter(s.End)}, ""), true
}

// Import makes name of module usable in m before offset before, and
// returns how to write it there, with the edit that imports it (none when
// m already imports it at module scope). false when m binds the name to
// something else, or there is no place for the import.
func Import(v *gym.View, m *pyscan.Module, module, name string, before int32) (string, []diag.TextEdit, bool) {
	if done, ok := imported(v, m, module, name); done || !ok {
		return name, nil, ok
	}
	ins, ok := m.AddFromImports(module, []string{name}, v.Sectioner(m), before)
	if !ok {
		return "", nil, false
	}
	return name, inserts(m, ins), true
}

// imported says whether m imports name from module at module scope
// already (done), and false (ok) when m binds the name to something else.
func imported(v *gym.View, m *pyscan.Module, module, name string) (done, ok bool) {
	b := m.Binding(name)
	if b == nil {
		return false, true
	}
	if b.Kind == pyscan.BindImport && !b.Where.InMainGuard {
		if sym := v.Resolve(m, name); sym.Kind == gym.External && sym.Dotted == module+"."+name {
			return true, true
		}
		for _, imp := range m.Imports {
			if imp.Bound == name && imp.IsFrom() && imp.Level == 0 && imp.Module == module && imp.Name == name && imp.ModuleScope {
				return true, true
			}
		}
	}
	return false, false
}

// ImportFramework makes the framework's function or class fn usable in m
// before offset before: the name m already binds to it (`fn`, or
// `server_utils.fn` through a module import), else fn, imported from the
// framework module that defines it (contract.Framework.ImportOf).
func ImportFramework(v *gym.View, m *pyscan.Module, fn string, before int32) (string, []diag.TextEdit, bool) {
	written, edits, ok := ImportFrameworkNames(v, m, []string{fn}, before)
	return written[fn], edits, ok
}

// ImportFrameworkNames is ImportFramework for several names at once, and
// returns how to write each. The names of one framework module that m does
// not bind yet are imported together (pyscan.Module.AddFromImports): into
// an existing statement at their places, or as one new statement; new
// statements of two modules at one place are one insertion, in the
// modules' order.
func ImportFrameworkNames(v *gym.View, m *pyscan.Module, names []string, before int32) (map[string]string, []diag.TextEdit, bool) {
	written := map[string]string{}
	byModule := map[string][]string{}
	for _, fn := range names {
		if w, ok := frameworkBinding(v, m, fn, before); ok {
			written[fn] = w
			continue
		}
		module := frameworkModule(v, m, fn)
		if done, ok := imported(v, m, module, fn); !ok {
			return nil, nil, false
		} else if !done {
			byModule[module] = append(byModule[module], fn)
		}
		written[fn] = fn
	}
	var all []pyscan.Insertion
	for _, module := range slices.Sorted(maps.Keys(byModule)) {
		ins, ok := m.AddFromImports(module, byModule[module], v.Sectioner(m), before)
		if !ok {
			return nil, nil, false
		}
		all = append(all, ins...)
	}
	return written, inserts(m, all), true
}

// frameworkBinding is how m already names the framework's fn before
// offset before: fn itself, or through a module import.
func frameworkBinding(v *gym.View, m *pyscan.Module, fn string, before int32) (string, bool) {
	if b := m.Binding(fn); b != nil && !b.Where.InMainGuard && v.FrameworkName(m, fn) == fn {
		return fn, true
	}
	for _, imp := range m.Imports {
		if imp.IsFrom() || !imp.ModuleScope || imp.Where != (pyscan.Where{}) || imp.Span.End > before {
			continue
		}
		if d := imp.Bound + "." + fn; v.FrameworkName(m, d) == fn {
			return d, true
		}
	}
	return "", false
}

// inserts are the edits of insertions, those at one offset joined in
// their order (two insertions at one place would be in conflict).
func inserts(m *pyscan.Module, ins []pyscan.Insertion) []diag.TextEdit {
	var out []diag.TextEdit
	at := map[int32]int{} // offset → index into out
	for _, in := range ins {
		if i, ok := at[in.Offset]; ok {
			out[i].NewText += in.Text
			continue
		}
		at[in.Offset] = len(out)
		out = append(out, Insert(m, in.Offset, in.Text))
	}
	slices.SortStableFunc(out, func(a, b diag.TextEdit) int { return a.Start.Offset - b.Start.Offset })
	return out
}

// frameworkModule is the module to import framework name fn from in m: the
// framework's own answer when it was read (contract.Framework.ImportOf),
// else, for a name of the resources server's module, the module m already
// imports the resources server's names from (the layout of the repository
// at hand), else ImportOf's default.
func frameworkModule(v *gym.View, m *pyscan.Module, fn string) string {
	fw := v.Options.Framework
	if (fw == nil || fw.FuncModules[fn] == "") && contract.ResourcesNames[fn] {
		for _, imp := range m.Imports {
			if imp.IsFrom() && imp.Level == 0 && imp.ModuleScope && strings.HasSuffix(imp.Module, "."+contract.ResourcesModule) &&
				v.IsFrameworkModule(imp.Module) {
				return imp.Module
			}
		}
	}
	return fw.ImportOf(fn, v.Options.FrameworkPackage)
}

// String writes s as a Python string literal in the quotes m writes its
// strings with (pyscan.Module.Quote), escaped as needed.
func String(m *pyscan.Module, s string) string {
	q := string(m.Quote())
	r := escapers[q]
	if r == nil {
		r = escaper(q)
	}
	return q + r.Replace(s) + q
}

// escapers are the escapes of String, for each quote a Module writes with.
var escapers = map[string]*strings.Replacer{`'`: escaper(`'`), `"`: escaper(`"`)}

func escaper(q string) *strings.Replacer {
	return strings.NewReplacer(`\`, `\\`, q, `\`+q, "\n", `\n`, "\r", `\r`, "\t", `\t`)
}
