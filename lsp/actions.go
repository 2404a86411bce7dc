package lsp

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/fixes"
	"github.com/gymlint/gymlint/internal/repofs"
	"github.com/gymlint/gymlint/lsp/protocol"
	"github.com/gymlint/gymlint/suppress"
)

// codeActions answers textDocument/codeAction from the diagnostics last
// published for the file: for each one in the range, its rule's fixes
// (safe ones first and preferred), then a suppression comment; and, when
// the file has safe fixes, one action that applies them all. A buffer
// changed since that analysis gets no actions: its positions are stale,
// and the client asks again after the next publish.
func (s *server) codeActions(p protocol.CodeActionParams) []protocol.CodeAction {
	out := []protocol.CodeAction{}
	rel, ok := s.rel(p.TextDocument.URI)
	if !ok {
		return out
	}
	pub := s.published[rel]
	if pub == nil {
		return out
	}
	if s.bufferDiffers(rel, pub) {
		return out
	}
	want := func(k protocol.CodeActionKind) bool {
		if len(p.Context.Only) == 0 {
			return true
		}
		for _, o := range p.Context.Only {
			if k == o || strings.HasPrefix(string(k), string(o)+".") {
				return true
			}
		}
		return false
	}
	pl := &placer{root: s.root, enc: s.enc, mappers: map[string]*protocol.Mapper{}, content: func(path string) []byte { return pub.contents[path] }}
	pl.fresh = s.freshness(pub)
	// The fix-all action takes the fixes as gymlint --fix does: the first
	// safe fix of each diagnostic, whole, unless it conflicts with one
	// taken before (it waits for the next round).
	var fixAll fixes.Set
	var fixAllDiags []protocol.Diagnostic
	for i, d := range pub.diags {
		ld := pub.lsp[i]
		for _, f := range d.Fixes {
			if f.IsSafe() {
				if fixAll.Add(f.Edits) == nil {
					fixAllDiags = append(fixAllDiags, ld)
				}
				break
			}
		}
		if !overlaps(ld.Range, p.Range) || !want(protocol.KindQuickFix) {
			continue
		}
		fs := slices.Clone(d.Fixes)
		sort.SliceStable(fs, func(a, b int) bool { return fs[a].IsSafe() && !fs[b].IsSafe() })
		for j, f := range fs {
			edit, ok := s.workspaceEdit(pl, f.Edits)
			if !ok {
				continue
			}
			title := f.Message
			if !f.IsSafe() {
				title += " (review and complete)"
			}
			out = append(out, protocol.CodeAction{
				Title: fmt.Sprintf("%s [%s]", title, d.Code), Kind: protocol.KindQuickFix,
				Diagnostics: []protocol.Diagnostic{ld}, IsPreferred: j == 0 && f.IsSafe(), Edit: edit,
			})
		}
		if sf, ok := suppress.Fix(d, pub.contents[d.Path]); ok {
			if edit, ok := s.workspaceEdit(pl, sf.Edits); ok {
				out = append(out, protocol.CodeAction{
					Title: fmt.Sprintf("%s [%s]", sf.Message, d.Code), Kind: protocol.KindQuickFix,
					Diagnostics: []protocol.Diagnostic{ld}, Edit: edit,
				})
			}
		}
	}
	if len(fixAllDiags) > 0 && want(fixAllKind) && !(len(p.Context.Only) == 0 && len(out) == 0) {
		if edits := fixAll.Edits(); len(edits) > 0 {
			if edit, ok := s.workspaceEdit(pl, edits); ok {
				out = append(out, protocol.CodeAction{
					Title: "Apply every safe gymlint fix in this file", Kind: fixAllKind,
					Diagnostics: fixAllDiags, Edit: edit,
				})
			}
		}
	}
	return out
}

// bufferDiffers reports whether an open buffer's text is not what the
// published diagnostics were placed in.
func (s *server) bufferDiffers(rel string, pub *published) bool {
	d := s.docs[rel]
	return d != nil && string(d.text) != string(pub.contents[rel])
}

func overlaps(a, b protocol.Range) bool {
	return !less(a.End, b.Start) && !less(b.End, a.Start)
}

// freshness returns a function that reports whether a file holds, now, the
// content that pub's diagnostics and fixes were computed for: its open
// buffer, else the file on disk (read inside the root, no larger than
// that content). A fix's offsets are into that content; applied to
// another text they would corrupt it. So an action whose edits touch a
// file that changed since (a buffer edited, a file written by another
// program, a buffer of a second file that a fix edits too) is not
// offered: the next analysis publishes fixes for the new text, and the
// editor asks again (a fix-all on save included).
func (s *server) freshness(pub *published) func(path string) bool {
	memo := map[string]bool{}
	return func(path string) bool {
		if fresh, ok := memo[path]; ok {
			return fresh
		}
		want := pub.contents[path]
		var now []byte
		var err error
		if d := s.docs[path]; d != nil {
			now = d.text
		} else {
			var fsys *repofs.FS
			if fsys, err = repofs.New(s.realRoot, repofs.Options{MaxFileSize: int64(len(want)) + 1}); err == nil {
				now, err = fsys.Read(path)
			}
		}
		// A file the analysis could not read (nil) is fresh while it
		// still cannot be read.
		fresh := (err != nil && want == nil) || (err == nil && bytes.Equal(now, want))
		memo[path] = fresh
		return fresh
	}
}

// workspaceEdit converts a fix's edits. Edits of a file whose content is
// unknown, or that changed since the analysis (pl.fresh), are refused
// (false).
func (s *server) workspaceEdit(pl *placer, edits []diag.TextEdit) (*protocol.WorkspaceEdit, bool) {
	byPath := map[string][]protocol.TextEdit{}
	var order []string
	for _, e := range edits {
		if _, ok := byPath[e.Path]; !ok {
			if pl.content(e.Path) == nil && e.Start.Offset > 0 {
				return nil, false
			}
			if pl.fresh != nil && !pl.fresh(e.Path) {
				return nil, false
			}
			order = append(order, e.Path)
		}
		m := pl.mapper(e.Path)
		byPath[e.Path] = append(byPath[e.Path], protocol.TextEdit{
			Range:   protocol.Range{Start: m.Position(e.Start.Offset, s.enc), End: m.Position(e.End.Offset, s.enc)},
			NewText: e.NewText,
		})
	}
	we := &protocol.WorkspaceEdit{}
	if s.caps.documentChanges {
		for _, path := range order {
			id := protocol.OptionalVersionedTextDocumentIdentifier{}
			id.URI = s.uriOf(path)
			if d := s.docs[path]; d != nil {
				v := d.version
				id.Version = &v
			}
			we.DocumentChanges = append(we.DocumentChanges, protocol.TextDocumentEdit{TextDocument: id, Edits: byPath[path]})
		}
		return we, true
	}
	we.Changes = map[protocol.DocumentURI][]protocol.TextEdit{}
	for _, path := range order {
		we.Changes[s.uriOf(path)] = byPath[path]
	}
	return we, true
}
