// Package gohelp carries the help of a Go analyzer's diagnostics: the
// remedy, kept apart from the message that says what is wrong, as the
// Python rules keep it in diag.Diagnostic.Help.
//
// analysis.Diagnostic has no field for it, so an analyzer that gives help
// records it in a *Helps and returns that as its result (ResultType
// HelpsType). gymlint's drivers (goanalysis.Run and the vet tool's inner
// run) read it with Of and put it in the finding's Help; a driver that
// knows nothing of it, such as go vet's own, shows the message alone,
// which stands by itself.
package gohelp

import (
	"go/token"
	"reflect"

	"golang.org/x/tools/go/analysis"
)

// Helps is the help of each diagnostic that one analyzer reported on one
// package.
type Helps struct {
	by map[key]string
}

type key struct {
	pos, end token.Pos
	code     string
	msg      string
}

func keyOf(d analysis.Diagnostic) key { return key{d.Pos, d.End, d.Category, d.Message} }

// HelpsType is the ResultType of an analyzer that returns a *Helps.
var HelpsType = reflect.TypeFor[*Helps]()

// Report reports d on pass with help, which may be empty.
func (h *Helps) Report(pass *analysis.Pass, d analysis.Diagnostic, help string) {
	if help != "" {
		if h.by == nil {
			h.by = map[key]string{}
		}
		h.by[keyOf(d)] = help
	}
	pass.Report(d)
}

// Of returns the help that result, an analyzer's result, holds for d: ""
// when result is not a *Helps or has none for d.
func Of(result any, d analysis.Diagnostic) string {
	h, ok := result.(*Helps)
	if !ok || h == nil {
		return ""
	}
	return h.by[keyOf(d)]
}
