package facts

import (
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// Rotation is a served function that picks a credential (an API key, a
// token) from a list the server holds, by a cursor kept in the server's
// memory that served code advances only on a condition (a failover: the
// cursor moves on a 429 or an exception): `self._api_keys[self._key_index]`,
// `self.keys[(self.cursor + attempt) % n]` (also through locals).
type Rotation struct {
	Func *Func
	// Pick is the subscript that picks the key.
	Pick *pyscan.Subscript
	// List is what the keys are read from as written (self._api_keys,
	// self.config.api_keys); Cursor the attribute that holds the
	// rotation's position (X of self.X).
	List, Cursor string
	// Advance is where served code moves the cursor, in AdvanceFunc.
	Advance     pyscan.Node
	AdvanceFunc *Func
}

// Rotations returns the key rotations of a server's served functions
// (served: the functions that may serve a request; the caller decides
// which). The keys are a list set once at start-up (OnceAttrs) from a
// config field, or a config field itself, whose name is a credential
// (WordCredential: api_keys, tokens); the cursor
// is an attribute of the server that the served functions assign or
// augment, and never step by a constant outside a test (one that is not
// only of the config) or an except clause. A round robin (a cursor
// stepped on every pick), a key picked at random, by a cursor local to the request
// (a retry loop from the first key), by a hash of the session, or kept in
// a shared store is not a rotation in the server's memory.
func (f *Facts) Rotations(server gym.ClassRef, served []*Func) []Rotation {
	words := f.Words()
	credential := func(name string) bool { return words.Has(WordCredential, name) }
	// The credential lists, set once.
	lists := map[string]bool{}
	for _, s := range f.OnceAttrs(server) {
		if s.Value == nil {
			continue
		}
		for _, field := range f.configFieldsRead(s.Func, s.Value, 0) {
			if credential(field) {
				lists[s.Attr] = true
			}
		}
	}
	// The attributes served code assigns, and those it steps on every
	// pick: a cursor stepped by a constant outside any test is a round
	// robin, which spreads each worker's requests over every key as one
	// worker does; a cursor that moves only on a condition (a 429, an
	// exception, to the attempt that worked) fails over, and each worker
	// fails over alone.
	type advance struct {
		at pyscan.Node
		fn *Func
	}
	advanced := map[string]advance{}
	always := map[string]bool{}
	for _, fn := range served {
		if fn.Recv == "" {
			continue
		}
		walkOwn(fn.Fn, func(n pyscan.Node, stack []pyscan.Node) {
			var targets []pyscan.Expr
			switch n := n.(type) {
			case *pyscan.Assign:
				targets = n.Targets
			case *pyscan.AugAssign:
				targets = []pyscan.Expr{n.Target}
			case *pyscan.AnnAssign:
				if n.Value != nil {
					targets = []pyscan.Expr{n.Target}
				}
			}
			if len(targets) == 0 {
				return
			}
			ctx := pyscan.ContextOf(stack)
			conditional := ctx.Handler != nil
			for _, g := range ctx.Guards {
				if !f.ReadsOnlyConfig(fn.Module, fn, fn.Recv, g.Test) {
					conditional = true
				}
			}
			for _, t := range targets {
				recvAttrs(fn, t, nil, func(attr string, _ pyscan.Expr) {
					if !conditional && f.roundRobinStep(fn, n, attr) {
						always[attr] = true
					}
					if _, seen := advanced[attr]; !seen {
						advanced[attr] = advance{n, fn}
					}
				})
			}
		})
	}
	var out []Rotation
	for _, fn := range served {
		if fn.Recv == "" {
			continue
		}
		m := fn.Module
		InspectOwn(fn, func(n pyscan.Node) {
			switch n := n.(type) {
			case *pyscan.Subscript:
				if _, ok := n.Index.(*pyscan.Slice); ok {
					return
				}
				if !f.credentialList(fn, m, n.Value, lists, credential, 0) {
					return
				}
				for _, cursor := range f.recvAttrsRead(fn, n.Index, 0) {
					if a, ok := advanced[cursor]; ok && !always[cursor] && !lists[cursor] {
						out = append(out, Rotation{Func: fn, Pick: n, List: m.Text(n.Value), Cursor: cursor, Advance: a.at, AdvanceFunc: a.fn})
						return
					}
				}
			}
		})
	}
	return out
}

// credentialList reports whether e is a list of credentials: an attribute
// of lists, `self.config.F` with F a credential, a local every binding of
// which is one, or `list(...)` of one.
func (f *Facts) credentialList(fn *Func, m *pyscan.Module, e pyscan.Expr, lists map[string]bool, credential func(string) bool, depth int) bool {
	if depth > 3 || e == nil {
		return false
	}
	if c, ok := e.(*pyscan.Call); ok && len(c.Args) == 1 && (pyscan.Dotted(c.Func) == "list" || pyscan.Dotted(c.Func) == "tuple") {
		e = c.Positional(0)
	}
	if fn != nil {
		if attr := recvAttrOf(fn, e); attr != "" && lists[attr] {
			return true
		}
		if field := ConfigField(fn.Recv, e); len(field) > 0 {
			return credential(field[0])
		}
		if n, ok := e.(*pyscan.Name); ok {
			vs := f.Values(fn, n.Id)
			if len(vs) == 0 {
				return false
			}
			for _, v := range vs {
				if v.Expr == nil || !f.credentialList(v.Func, m, v.Expr, lists, credential, depth+1) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// configFieldsRead are the config fields (F of self.config.F) that e reads,
// directly or through the locals of fn it reads.
func (f *Facts) configFieldsRead(fn *Func, e pyscan.Expr, depth int) []string {
	if fn == nil || e == nil || depth > 3 {
		return nil
	}
	var out []string
	pyscan.Inspect(e, func(n pyscan.Node, _ []pyscan.Node) bool {
		switch n := n.(type) {
		case *pyscan.Attribute:
			if field := ConfigField(fn.Recv, n); len(field) > 0 {
				out = append(out, field[0])
				return false
			}
		case *pyscan.Name:
			for _, v := range f.Values(fn, n.Id) {
				if v.Expr != nil && v.Func == fn {
					out = append(out, f.configFieldsRead(fn, v.Expr, depth+1)...)
				}
			}
		}
		return true
	})
	return out
}

// recvAttrsRead are the receiver attributes (X of self.X) that e reads,
// directly or through the locals of fn it reads.
func (f *Facts) recvAttrsRead(fn *Func, e pyscan.Expr, depth int) []string {
	if depth > 3 || e == nil {
		return nil
	}
	var out []string
	pyscan.Inspect(e, func(n pyscan.Node, _ []pyscan.Node) bool {
		switch n := n.(type) {
		case *pyscan.Attribute:
			if attr := recvAttrOf(fn, n); attr != "" {
				out = append(out, attr)
				return false
			}
		case *pyscan.Name:
			for _, v := range f.Values(fn, n.Id) {
				if v.Expr != nil && v.Func == fn && v.Param == nil {
					out = append(out, f.recvAttrsRead(fn, v.Expr, depth+1)...)
				}
			}
		}
		return true
	})
	return out
}

// recvAttrOf is X of `self.X`, or "".
func recvAttrOf(fn *Func, e pyscan.Expr) string {
	if fn == nil || fn.Recv == "" {
		return ""
	}
	if a, ok := e.(*pyscan.Attribute); ok {
		if r, ok := a.Value.(*pyscan.Name); ok && r.Id == fn.Recv {
			return a.Attr
		}
	}
	return ""
}

// roundRobinStep reports whether an assignment steps self.attr by a
// constant: `self.i += 1`, `self.i = self.i + 1`, `self.i = (self.i + 1) %
// n`, through a local that holds self.i (`i = self.i; self.i = (i + 1) %
// n`), or wrapping with a conditional expression (`0 if self.i + 1 == n
// else self.i + 1`).
func (f *Facts) roundRobinStep(fn *Func, n pyscan.Node, attr string) bool {
	switch n := n.(type) {
	case *pyscan.AugAssign:
		return n.Op == pyscan.Add && isNumber(n.Value)
	case *pyscan.Assign:
		return f.stepOf(fn, n.Value, attr)
	}
	return false
}

// stepOf reports whether e is self.attr plus a constant, modulo anything,
// or a conditional expression of such a step and a constant.
func (f *Facts) stepOf(fn *Func, e pyscan.Expr, attr string) bool {
	if x, ok := e.(*pyscan.IfExp); ok {
		return isNumber(x.Body) && f.stepOf(fn, x.OrElse, attr) || isNumber(x.OrElse) && f.stepOf(fn, x.Body, attr)
	}
	if b, ok := e.(*pyscan.BinOp); ok && b.Op == pyscan.Mod {
		e = b.Left
	}
	b, ok := e.(*pyscan.BinOp)
	if !ok || b.Op != pyscan.Add {
		return false
	}
	return f.cursorRef(fn, b.Left, attr) && isNumber(b.Right) || f.cursorRef(fn, b.Right, attr) && isNumber(b.Left)
}

// cursorRef reports whether e reads self.attr, directly or through a local
// of fn every binding of which is self.attr.
func (f *Facts) cursorRef(fn *Func, e pyscan.Expr, attr string) bool {
	if recvAttrOf(fn, e) == attr {
		return true
	}
	n, ok := e.(*pyscan.Name)
	if !ok {
		return false
	}
	vs := f.Values(fn, n.Id)
	for _, v := range vs {
		if v.Expr == nil || v.Param != nil || recvAttrOf(fn, v.Expr) != attr {
			return false
		}
	}
	return len(vs) > 0
}

// isNumber reports whether e is a number literal.
func isNumber(e pyscan.Expr) bool {
	c, ok := e.(*pyscan.Constant)
	return ok && (c.Kind == pyscan.ConstInt || c.Kind == pyscan.ConstFloat)
}
