package goworkers

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/analyzers/gohelp"
	"github.com/gymlint/gymlint/analyzers/gonative"
	"github.com/gymlint/gymlint/analyzers/gostate"
	"github.com/gymlint/gymlint/diag"
)

// UnroutedState is rule GL150.
var UnroutedState = &diag.Rule{
	Code: "GL150", Name: "go-unrouted-state", Analyzer: "workers", Severity: diag.Error,
	Summary: "A native Go server keeps session state in process memory keyed by a request-body field, and does not declare MultipleWorkersUnsupportedReason().",
	Doc:     ruleDoc("GL150"),
}

// use is one access of a container by a handler, as GL150 counts it: m[k]
// (read or write), delete(m, k), range m, or a sync.Map method call.
type use struct {
	a *gostate.Access
	v gostate.Via
}

func (u *use) body() bool    { return u.v.Key == gostate.KeyBody }
func (u *use) session() bool { return u.v.Key == gostate.KeySession }
func (u *use) route() string { return handlerPath(u.v.Handler) }

// counted reports whether GL150 counts an access.
func counted(a *gostate.Access) bool {
	switch a.State.Kind {
	case gostate.StateMap:
		switch a.Op {
		case gostate.OpRead, gostate.OpLookup, gostate.OpWrite, gostate.OpDelete, gostate.OpRange:
			return true
		}
	case gostate.StateSyncMap:
		return a.Op == gostate.OpCall
	}
	return false
}

func checkUnrouted(pass *analysis.Pass, helps *gohelp.Helps, st *gostate.Server, s *gonative.Server, ref refusal) {
	byState := map[*gostate.State][]*use{}
	var order []*gostate.State
	for _, a := range st.Accesses {
		if !counted(a) {
			continue
		}
		for _, v := range a.Via {
			if v.Handler.Method != nil && v.Handler.Method.Name() == Method {
				continue // the refusal itself is no route
			}
			if _, ok := byState[a.State]; !ok {
				order = append(order, a.State)
			}
			byState[a.State] = append(byState[a.State], &use{a: a, v: v})
		}
	}
	for _, state := range order {
		us := byState[state]
		sort.SliceStable(us, func(i, j int) bool { return us[i].a.Node.Pos() < us[j].a.Node.Pos() })
		if anySession(us) {
			continue
		}
		var first, other *use
		for _, a := range us {
			if !a.body() {
				continue
			}
			// Prefer another route's access at another place: the same
			// handler may serve two routes.
			for _, b := range us {
				if b.route() != a.route() && (other == nil || other.a.Node == a.a.Node && b.a.Node != a.a.Node) {
					first, other = a, b
				}
			}
			if first != nil {
				break
			}
		}
		if first == nil {
			continue
		}
		reportUnrouted(pass, helps, s, ref, first, other)
	}
}

func anySession(us []*use) bool {
	for _, u := range us {
		if u.session() {
			return true
		}
	}
	return false
}

func reportUnrouted(pass *analysis.Pass, helps *gohelp.Helps, s *gonative.Server, ref refusal, first, other *use) {
	owner := "on " + serverName(s)
	if s.Type == nil {
		owner = "as a package-level function"
	}
	hint := ""
	if ref.wrong != nil {
		hint = fmt.Sprintf(" (the %s it has is %s, not func() string)", Method, types.TypeString(ref.wrong.Type(), types.RelativeTo(pass.Pkg)))
	}
	name, decl := first.v.Name, first.a.State.Var
	d := diagnostic(UnroutedState, first.a.Node, fmt.Sprintf(
		"%s is session state in process memory, found here in %s by %s from the request body and used by %s too, which session routing does not follow",
		name, routeName(first.v.Handler), types.ExprString(first.a.Key), routeName(other.v.Handler)))
	help := fmt.Sprintf("key it by the session (resources_session_id), or declare %s() string %s that returns why several workers are unsupported%s", Method, owner, hint)
	d.Related = append(d.Related, analysis.RelatedInformation{
		Pos: other.a.Node.Pos(), End: other.a.Node.End(),
		Message: fmt.Sprintf("%s used by %s", name, routeName(other.v.Handler)),
	})
	if decl.Pkg() == pass.Pkg && decl.Pos().IsValid() {
		d.Related = append(d.Related, analysis.RelatedInformation{
			Pos: decl.Pos(), End: decl.Pos() + token.Pos(len(decl.Name())),
			Message: fmt.Sprintf("%s is declared here", decl.Name()),
		})
	}
	helps.Report(pass, d, help)
}

// handlerPath tells the routes of accesses apart: the route's path, or for
// an exported method of a server known by its methods, "method NAME".
func handlerPath(h *gostate.Handler) string {
	if h.Method != nil {
		return "method " + h.Method.Name()
	}
	return h.Route.Path
}

// routeName names a handler in messages: its path, or NAME().
func routeName(h *gostate.Handler) string {
	if h.Method != nil {
		return h.Method.Name() + "()"
	}
	return h.Route.Path
}
