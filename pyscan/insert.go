package pyscan

import "bytes"

// ImportInsertion returns where a new module-level import statement can be
// inserted, as whole lines (the position is the start of a line), so that
// it runs before the statement that starts at offset before: after the
// last import statement that ends before it at module scope and outside
// any compound statement (if, try, with, ...; so never inside an
// `if TYPE_CHECKING:` or a try/except ImportError); when there is none,
// after the module's docstring and `from __future__` imports (Prologue);
// when it has neither, at the line of its first statement, below the
// leading comments (a shebang, an encoding declaration, a licence) and a
// byte order mark. src is the module's source. It reports false when there
// is no such line before offset before.
func (m *Module) ImportInsertion(src []byte, before int) (Pos, bool) {
	if before > len(src) {
		before = len(src)
	}
	var anchor *Pos
	for _, imp := range m.Imports {
		if !imp.ModuleScope || imp.Where != (Where{}) || imp.Span.End.Offset > before {
			continue
		}
		if anchor == nil || imp.Span.End.Offset > anchor.Offset {
			end := imp.Span.End
			anchor = &end
		}
	}
	if anchor == nil && m.Prologue != nil && m.Prologue.End.Offset <= before {
		end := m.Prologue.End
		anchor = &end
	}
	if anchor != nil {
		if anchor.Offset > len(src) {
			return Pos{}, false
		}
		nl := bytes.IndexByte(src[anchor.Offset:], '\n')
		if nl < 0 || anchor.Offset+nl+1 > before {
			return Pos{}, false
		}
		return Pos{Offset: anchor.Offset + nl + 1, Line: anchor.Line + 1, Col: 1}, true
	}
	// The first line that is neither blank nor a comment starts the first
	// statement.
	off, line := 0, 1
	if bytes.HasPrefix(src, []byte("\ufeff")) {
		off = 3
	}
	for off <= before {
		end := len(src)
		if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
			end = off + i
		}
		text := bytes.TrimLeft(src[off:end], " \t\f\r")
		if len(text) > 0 && text[0] != '#' {
			col := 1
			if line == 1 {
				col = off + 1 // after a byte order mark
			}
			return Pos{Offset: off, Line: line, Col: col}, true
		}
		if end == len(src) {
			break
		}
		off, line = end+1, line+1
	}
	return Pos{}, false
}
