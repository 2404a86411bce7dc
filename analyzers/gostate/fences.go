package gostate

import (
	"go/ast"
	"go/types"

	"github.com/gymlint/gymlint/analyzers/gonative"
)

// Fence is what a close leaves so that a later seed of its session is
// refused (see the package documentation).
type Fence struct {
	Close, Seed *Handler
	State       *State
	// Record is the close's write of the id into State.
	Record *Access
	// Test is the seed's read of State by a key of the record's class.
	Test *Access
	// Refusal is what the seed does for a recorded id: the answer with an
	// error status or the return of an error in the branch taken when the
	// id is present, or the session write it makes only when it is absent.
	Refusal ast.Node
}

// Fenced reports whether the close handler h fences the session whose
// state del deletes: it leaves a fence in a container other than del's.
func (s *Server) Fenced(h *Handler, del *Access) bool {
	for _, f := range s.Fences {
		if f.Close == h && f.State != del.State {
			return true
		}
	}
	return false
}

// findFences pairs what each close records with what each seed tests and
// refuses.
func (s *Server) findFences() {
	var closes, seeds []*Handler
	for _, h := range s.Handlers {
		switch {
		case h.Route == nil:
		case h.Route.Kind == gonative.RouteClose:
			closes = append(closes, h)
		case h.Route.Kind == gonative.RouteSeed:
			seeds = append(seeds, h)
		}
	}
	for _, hs := range seeds {
		refusals := map[*State]ast.Node{}
		for _, hc := range closes {
			for _, rec := range s.Accesses {
				if !rec.Reached(hc) || !s.records(rec) {
					continue
				}
				refusal, ok := refusals[rec.State]
				if !ok {
					refusal = s.refusal(hs, rec.State)
					refusals[rec.State] = refusal
				}
				if refusal == nil {
					continue
				}
				if test := bestTest(rec, hc, hs); test != nil {
					s.Fences = append(s.Fences, &Fence{Close: hc, Seed: hs, State: rec.State, Record: rec, Test: test, Refusal: refusal})
				}
			}
		}
	}
}

// records reports whether an access records an id: it writes an element,
// or calls a method of a StateValue that does not return a bool (a
// check).
func (s *Server) records(a *Access) bool {
	if a.Writes() {
		return true
	}
	if a.Op != OpCall || a.State.Kind != StateValue {
		return false
	}
	switch t := s.res.pass.TypesInfo.TypeOf(a.Node.(ast.Expr)).(type) {
	case *types.Tuple:
		for i := range t.Len() {
			if isBool(t.At(i).Type()) {
				return false
			}
		}
	case nil:
	default:
		return !isBool(t)
	}
	return true
}

// tests reports whether an access reads an element: m[k], a lookup, a
// sync.Map Load or LoadOrStore, or a method of a StateValue.
func tests(a *Access) bool {
	switch a.Op {
	case OpRead, OpLookup:
		return true
	case OpCall:
		return a.State.Kind == StateValue || a.Method == "Load" || a.Method == "LoadOrStore"
	}
	return false
}

// bestTest returns the seed's read of the record's container whose key
// matches the record's, one of the same class first; nil when none does.
func bestTest(rec *Access, hc, hs *Handler) *Access {
	var lenient *Access
	for _, test := range rec.State.Accesses {
		if !test.Reached(hs) || !tests(test) {
			continue
		}
		switch keysMatch(keysOf(rec, hc), keysOf(test, hs)) {
		case matchSame:
			return test
		case matchUnknown:
			if lenient == nil {
				lenient = test
			}
		}
	}
	return lenient
}

// keysOf returns the classes of an access's key where h reaches it.
func keysOf(a *Access, h *Handler) []KeyClass {
	var out []KeyClass
	for _, v := range a.Via {
		if v.Handler == h {
			out = append(out, v.Key)
		}
	}
	return out
}

type match int

const (
	matchNone    match = iota
	matchUnknown       // a key of unknown class on one side
	matchSame          // keys of the same known class
)

// keysMatch says whether a record's key and a test's may be the same id:
// of the same class, or of one that is not known.
func keysMatch(recs, tests []KeyClass) match {
	m := matchNone
	for _, r := range recs {
		for _, t := range tests {
			switch {
			case r == t && r != KeyUnknown:
				return matchSame
			case r == KeyUnknown || t == KeyUnknown:
				m = matchUnknown
			}
		}
	}
	return m
}

// refusal returns what the seed h does that refuses a key present in st,
// in a function of its reach that looks st up, or nil.
func (s *Server) refusal(h *Handler, st *State) ast.Node {
	keep := func(o *State) bool { return o == st }
	for _, fn := range h.Reaches {
		body := funcBody(fn)
		lk := s.Lookups(body, keep)
		for _, branch := range lk.Branches(body, Present) {
			if n := s.refuses(branch); n != nil {
				return n
			}
		}
		for _, a := range s.Accesses {
			if a.Func == fn && a.Writes() && a.State != st && s.sessions[a.State] && a.Reached(h) && lk.onlyAt(body, a.Node.Pos(), Absent) {
				return a.Node
			}
		}
	}
	return nil
}

// refuses returns the answer with a status from 400 to 599, or the return
// of a non-nil error, in a branch, or nil.
func (s *Server) refuses(branch []ast.Stmt) ast.Node {
	for _, a := range s.res.Answers(branch) {
		if a.Code >= 400 && a.Code <= 599 {
			return a.Call
		}
	}
	info := s.res.pass.TypesInfo
	var found ast.Node
	for _, st := range branch {
		InspectOwn(st, func(n ast.Node) bool {
			if ret, ok := n.(*ast.ReturnStmt); ok && found == nil && len(ret.Results) > 0 {
				last := ret.Results[len(ret.Results)-1]
				if t := info.TypeOf(last); t != nil && types.Implements(t, errorType.Underlying().(*types.Interface)) && !isNil(info, last) {
					found = ret
				}
			}
			return found == nil
		})
	}
	return found
}
