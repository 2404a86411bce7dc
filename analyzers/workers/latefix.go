package workers

import (
	"github.com/gymlint/gymlint/analyzers/pyfix"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// GL102's fix makes refuse_unsupported_num_workers(self) the first
// statement of model_post_init (after its docstring): the call the method
// makes too late moves there, its lines as they are (a statement of the
// same body has the body's indentation) with the comment lines right
// above it; a method that never makes it
// gets it, with the import when the module does not bind the name. It is
// unsafe: the refusal then asks multiple_workers_unsupported_reason()
// before the setup that came first, which that method may read (an
// attribute the setup assigns), and with several workers the setup no
// longer runs at all.

const (
	moveRefusalMessage   = "Move " + contract.RefuseWorkersFunc + "(self) to the start of " + contract.ModelPostInitMethod
	insertRefusalMessage = "Call " + contract.RefuseWorkersFunc + "(self) first in " + contract.ModelPostInitMethod
)

// lateFix returns the fix of a GL102 finding about model_post_init post.
func lateFix(v *gym.View, post *facts.Func, res lateResult) (diag.Fix, bool) {
	m, fn := post.Module, post.Fn
	if m.SyntaxError != nil || v.IsFrameworkModule(m.Name) || post.Class == nil || post.Recv == "" {
		return diag.Fix{}, false
	}
	first := 0
	if len(fn.Body) > 0 && docstring(fn.Body[0]) {
		first = 1
	}
	if first >= len(fn.Body) {
		return diag.Fix{}, false
	}
	at := fn.Body[first].Range().Start
	indent, ok := indentBefore(m, at)
	if !ok {
		return diag.Fix{}, false
	}
	ins := gym.Pos(m, m.LineStart(at))
	if res.refusal == nil {
		name, edits, ok := refusalName(v, post, post.Class)
		if !ok {
			return diag.Fix{}, false
		}
		outer, ok := indentBefore(m, fn.Span.Start)
		if !ok {
			return diag.Fix{}, false
		}
		call, ok := pyfix.InsertFirst(m, outer, fn.Body, []string{name + "(" + post.Recv + ")"})
		if !ok {
			return diag.Fix{}, false
		}
		edits = append(edits, call)
		return diag.Fix{Message: insertRefusalMessage, Edits: edits, Applicability: diag.Unsafe}, true
	}
	// The refusal call: an expression statement of the body's own, with
	// the receiver its only argument and a callee the method does not
	// bind itself (it would not be bound yet at the start).
	call := res.refusal.Call
	k := -1
	for i, s := range fn.Body {
		if es, ok := s.(*pyscan.ExprStmt); ok && es.Value == pyscan.Expr(call) {
			k = i
		}
	}
	if k <= first || len(call.Args) != 1 || !isName(call.Args[0].Value, post.Recv) {
		return diag.Fix{}, false
	}
	if d := pyscan.Dotted(call.Func); d == "" || facts.Of(v).IsLocal(post, rootName(d)) {
		return diag.Fix{}, false
	}
	stmt := fn.Body[k].Range()
	if ind, ok := indentBefore(m, stmt.Start); !ok || ind != indent {
		return diag.Fix{}, false
	}
	start, end, ok := stmtLines(m, fn.Body, k, stmt)
	if !ok {
		return diag.Fix{}, false
	}
	// The comment lines right above the call go with it.
	for start > 0 {
		prev := m.LineStart(start - 1)
		ind := m.Indent(prev)
		at := prev + int32(len(ind))
		if ind != indent || !m.HasComment(pyscan.Span{Start: at, End: at + 1}) || prev <= fn.Body[k-1].Range().End {
			break
		}
		start = prev
	}
	text := m.SpanText(pyscan.Span{Start: start, End: end})
	if m.LineEnding(stmt.End) == "" {
		// The file's last line, without a line ending: the moved line
		// gets the file's, and the one before it gives up its own.
		text += m.NewlineAt(at)
		start -= int32(len(m.NewlineBefore(start)))
	}
	return diag.Fix{Message: moveRefusalMessage, Edits: []diag.TextEdit{
		{Path: m.Path, Start: ins, End: ins, NewText: text},
		{Path: m.Path, Start: gym.Pos(m, start), End: gym.Pos(m, end)},
	}, Applicability: diag.Unsafe}, true
}
