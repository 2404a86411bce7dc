package lsp

import (
	"path/filepath"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/lsp/protocol"
)

// placer places root-relative positions in files as the analysis read
// them, and names files by URI.
type placer struct {
	root    string // the workspace root as the client named it
	enc     protocol.Encoding
	content func(path string) []byte
	mappers map[string]*protocol.Mapper
	// fresh, when set, reports whether a file still holds the content
	// (for code actions: server.freshness).
	fresh func(path string) bool
}

func (pl *placer) mapper(path string) *protocol.Mapper {
	m := pl.mappers[path]
	if m == nil {
		m = protocol.NewMapper(pl.content(path))
		pl.mappers[path] = m
	}
	return m
}

// rng converts a diagnostic range (1-based lines and byte columns, as
// every printer reads them) to an LSP range in the negotiated encoding.
func (pl *placer) rng(path string, start, end diag.Pos) protocol.Range {
	m := pl.mapper(path)
	r := protocol.Range{Start: m.PositionLC(start.Line, start.Col, pl.enc), End: m.PositionLC(end.Line, end.Col, pl.enc)}
	if end.Line == 0 || less(r.End, r.Start) {
		r.End = r.Start
	}
	return r
}

func less(a, b protocol.Position) bool {
	return a.Line < b.Line || (a.Line == b.Line && a.Character < b.Character)
}

func (pl *placer) uri(path string) protocol.DocumentURI {
	return protocol.PathToURI(filepath.Join(pl.root, filepath.FromSlash(path)))
}

// toLSP converts a diagnostic the way gopls shows an analyzer's: source is
// the analyzer, code the rule code with its documentation's address,
// related information for the other places the message names.
func toLSP(d diag.Diagnostic, pl *placer, caps clientCaps) protocol.Diagnostic {
	out := protocol.Diagnostic{
		Range:    pl.rng(d.Path, d.Start, d.End),
		Severity: severity(d.Severity),
		Code:     d.Code,
		Source:   d.Analyzer,
		Message:  d.WithHelp(),
	}
	if r := lint.Lookup(d.Code); r != nil && caps.codeDescription {
		out.CodeDescription = &protocol.CodeDescription{Href: r.URL()}
	}
	if caps.related {
		for _, r := range d.Related {
			out.RelatedInformation = append(out.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: pl.uri(r.Path), Range: pl.rng(r.Path, r.Start, r.End)},
				Message:  r.Message,
			})
		}
	}
	return out
}

func severity(s diag.Severity) protocol.DiagnosticSeverity {
	switch s {
	case diag.Error:
		return protocol.SeverityError
	case diag.Warning:
		return protocol.SeverityWarning
	}
	return protocol.SeverityInformation
}
