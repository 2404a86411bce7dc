package facts

import "github.com/gymlint/gymlint/pyscan"

// ContextAt says where a node of fn's own body sits (pyscan.ContextOf of
// its stack from fn). The stacks are found through an index of each
// node's parent, made for a function the first time a context of it is
// asked, so that calls and accesses need not carry one each.
func (f *Facts) ContextAt(fn *Func, n pyscan.Node) pyscan.Context {
	parents := f.parents.get(fn, func() map[pyscan.Node]pyscan.Node {
		parents := map[pyscan.Node]pyscan.Node{}
		walkOwn(fn.Fn, func(x pyscan.Node, stack []pyscan.Node) {
			parents[x] = stack[len(stack)-2]
		})
		return parents
	})
	var rev []pyscan.Node
	for x := n; x != nil; x = parents[x] {
		rev = append(rev, x)
		if x == pyscan.Node(fn.Fn) {
			break
		}
	}
	if len(rev) == 0 || rev[len(rev)-1] != pyscan.Node(fn.Fn) {
		return pyscan.Context{Function: fn.Fn}
	}
	stack := make([]pyscan.Node, len(rev))
	for i, x := range rev {
		stack[len(rev)-1-i] = x
	}
	return pyscan.ContextOf(stack)
}

// Ctx says where the call sits in In.
func (c *Call) Ctx() pyscan.Context { return c.f.ContextAt(c.In, c.Call) }

// Ctx says where the access sits in its function.
func (a *Access) Ctx() pyscan.Context { return a.f.ContextAt(a.Func, a.Node) }
