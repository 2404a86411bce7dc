package pyscan

import (
	"slices"
	"strings"
)

// ImportSection is the section of an import statement in isort's order
// (and ruff's isort rules, I001): a module's top-level imports are grouped
// by section, in this order, each group apart from the next by a blank
// line.
type ImportSection int

const (
	SectionFuture     ImportSection = iota // from __future__ import ...
	SectionStdlib                          // Python's standard library
	SectionThirdParty                      // installed packages
	SectionFirstParty                      // the repository's own packages
	SectionLocal                           // relative imports (from . import x)
)

// IsStdlib reports whether a top-level module name is one of Python's
// standard library (stdlibModules).
func IsStdlib(top string) bool { return stdlibModules[top] }

// Sectioner says which section an import of a module (level leading dots,
// then the dotted name) belongs to: the repository's knowledge of what is
// its own (gym.View.ImportSection).
type Sectioner func(module string, level int) ImportSection

// An Insertion is an edit that only inserts: Text at Offset.
type Insertion struct {
	Offset int32
	Text   string
}

// AddFromImport returns the insertion that makes `from module import name`
// bound at module scope before the statement that starts at offset before,
// written as isort would write it:
//
//   - into a from-import of the same module that runs unconditionally
//     before it, at the name's place in isort's order (AddToFromImport),
//     on one line or in parentheses one name per line, when that statement
//     keeps its names in that order;
//   - else as a new statement in its section (section): among the
//     from-imports of that section at its place by module name when the
//     section keeps them sorted, else after the section's last statement;
//     in a section of its own, a blank line apart, before the first
//     statement of a later section or after the last of an earlier one;
//   - in a module without top-level imports, where ImportInsertion says
//     (after a docstring and __future__ imports), a blank line before the
//     code that follows.
//
// Only unconditional module-level imports count (not those under `if
// TYPE_CHECKING:` or in a try). It reports false when there is no place
// before offset before. The caller checks first that the name is not
// bound already.
func (m *Module) AddFromImport(module, name string, section Sectioner, before int32) (Insertion, bool) {
	ins, ok := m.AddFromImports(module, []string{name}, section, before)
	if !ok || len(ins) != 1 {
		return Insertion{}, false
	}
	return ins[0], true
}

// AddFromImports is AddFromImport for several names of one module: each
// goes to its place in isort's order in an existing statement (two names
// at one place in one insertion), or they make one new statement, `from
// module import a, b`. The insertions are sorted by offset.
func (m *Module) AddFromImports(module string, names []string, section Sectioner, before int32) ([]Insertion, bool) {
	if len(names) == 0 {
		return nil, true
	}
	names = slices.Clone(names)
	slices.SortFunc(names, func(a, b string) int {
		switch {
		case IsortLess(a, b):
			return -1
		case IsortLess(b, a):
			return 1
		}
		return 0
	})
	names = slices.Compact(names)
	var top []*Import // the first Import of each top-level statement, in order
	for _, imp := range m.Imports {
		if !imp.ModuleScope || imp.Where != (Where{}) || imp.Span.End > before {
			continue
		}
		if n := len(top); n > 0 && top[n-1].Span == imp.Span {
			continue
		}
		top = append(top, imp)
	}
	for _, imp := range top {
		if !imp.IsFrom() || imp.Level != 0 || imp.Module != module {
			continue
		}
		var out []Insertion
		for _, name := range names {
			off, text, ok := m.AddToFromImport(imp, name)
			if !ok {
				out = nil
				break
			}
			if n := len(out); n > 0 && out[n-1].Offset == off {
				out[n-1].Text += text // sorted names at one place: in order
			} else {
				out = append(out, Insertion{off, text})
			}
		}
		if out != nil {
			slices.SortStableFunc(out, func(a, b Insertion) int { return int(a.Offset - b.Offset) })
			return out, true
		}
	}
	one := func(ins Insertion, ok bool) ([]Insertion, bool) {
		if !ok {
			return nil, false
		}
		return []Insertion{ins}, true
	}
	stmt := "from " + module + " import " + strings.Join(names, ", ")
	if len(top) == 0 {
		p, ok := m.ImportInsertion(before)
		if !ok {
			return nil, false
		}
		nl := m.NewlineBefore(p)
		text := stmt + nl
		if p < int32(len(m.text)) && !m.blankLine(p) {
			text += nl
		}
		return []Insertion{{p, text}}, true
	}
	ours := section(module, 0)
	sec := make([]ImportSection, len(top))
	var same []*Import
	for i, imp := range top {
		sec[i] = section(imp.Module, imp.Level)
		if sec[i] == ours {
			same = append(same, imp)
		}
	}
	if len(same) > 0 {
		if at, ok := m.sortedPlace(same, module); ok {
			return []Insertion{{at, stmt + m.NewlineAt(at)}}, true
		}
		last := same[len(same)-1]
		return one(m.lineAfterStmt(last.Span.End, stmt, false))
	}
	for i, imp := range top {
		if sec[i] > ours {
			if m.LineStart(imp.Span.Start) != imp.Span.Start {
				break
			}
			at := m.leadingComments(imp.Span.Start)
			nl := m.NewlineAt(at)
			return []Insertion{{at, stmt + nl + nl}}, true
		}
	}
	var last *Import
	for i, imp := range top {
		if sec[i] < ours {
			last = imp
		}
	}
	if last == nil {
		return nil, false
	}
	return one(m.lineAfterStmt(last.Span.End, stmt, true))
}

// lineAfterStmt inserts stmt on the line after the statement that ends at
// end, a blank line before it when apart, or false when that line is not
// the start of a line the statement ends.
func (m *Module) lineAfterStmt(end int32, stmt string, apart bool) (Insertion, bool) {
	at := m.LineEndsAfter(end)
	nl := m.LineEnding(end)
	prefix := ""
	if nl == "" {
		nl = m.Newline()
		prefix = nl
	}
	if rest := strings.TrimRight(m.SpanText(Span{end, at}), " \t\r\n"); rest != "" {
		return Insertion{}, false // `import a; x = 1`, or a comment after it
	}
	if apart {
		prefix += nl
	}
	return Insertion{at, prefix + stmt + nl}, true
}

// sortedPlace returns where `from module import ...` goes among the
// statements of one section, when the section is in isort's order
// (straight imports first, then from-imports, each by module name, case
// aside): the start of the first from-import whose module sorts after
// module (below the comments right above it), or the line after the last
// statement when none does. false when the section is not in that order.
func (m *Module) sortedPlace(same []*Import, module string) (int32, bool) {
	key := func(imp *Import) (bool, string) {
		return imp.IsFrom(), strings.Repeat(".", imp.Level) + strings.ToLower(imp.Module)
	}
	for i := 1; i < len(same); i++ {
		af, am := key(same[i-1])
		bf, bm := key(same[i])
		if af && !bf || af == bf && bm < am {
			return 0, false
		}
	}
	want := strings.ToLower(module)
	for _, imp := range same {
		from, mod := key(imp)
		if !from || mod <= want {
			continue
		}
		ls := m.LineStart(imp.Span.Start)
		if ls+int32(len(m.Indent(ls))) != imp.Span.Start || m.Indent(ls) != "" {
			return 0, false
		}
		return m.leadingComments(ls), true
	}
	last := same[len(same)-1]
	at := m.LineEndsAfter(last.Span.End)
	if m.LineEnding(last.Span.End) == "" || strings.TrimSpace(m.SpanText(Span{last.Span.End, at})) != "" {
		return 0, false
	}
	return at, true
}

// leadingComments returns the start of the run of comment lines right
// above the line that starts at ls (ls itself when there is none): a
// comment written above an import belongs to it.
func (m *Module) leadingComments(ls int32) int32 {
	for ls > 0 {
		prev := m.LineStart(ls - 1)
		if t := strings.TrimSpace(m.SpanText(Span{prev, ls})); !strings.HasPrefix(t, "#") {
			break
		}
		ls = prev
	}
	return ls
}

// blankLine reports whether the line holding off holds only white space.
func (m *Module) blankLine(off int32) bool {
	return strings.TrimSpace(m.SpanText(Span{m.LineStart(off), m.LineEndsAfter(off)})) == ""
}

// Quote returns the quote character the module writes its strings with:
// '\” when more of its one-line string literals (docstrings and
// triple-quoted strings aside) open with a single quote than with a double
// one, else '"', the default of black and ruff's formatter. Suggested
// fixes write their strings with it.
func (m *Module) Quote() byte {
	single, double := 0, 0
	InspectBody(m.Body, func(n Node, _ []Node) bool {
		c, ok := n.(*Constant)
		if !ok || c.Kind != ConstStr {
			return true
		}
		t := strings.TrimLeft(m.Text(c), "rRbBuUfF")
		switch {
		case strings.HasPrefix(t, `"""`) || strings.HasPrefix(t, `'''`):
		case strings.HasPrefix(t, `'`):
			single++
		case strings.HasPrefix(t, `"`):
			double++
		}
		return true
	})
	if single > double {
		return '\''
	}
	return '"'
}

// EndsLine reports whether nothing but white space and a comment follows
// off on its line: a statement that ends at off has its line to itself
// from there (for fixes that delete or add whole lines).
func (m *Module) EndsLine(off int32) bool {
	rest := strings.TrimSpace(m.SpanText(Span{off, m.LineEndsAfter(off)}))
	return rest == "" || strings.HasPrefix(rest, "#")
}
