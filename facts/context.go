package facts

import "github.com/gymlint/gymlint/pyscan"

// ContextAt says where a node of fn's own body sits (pyscan.ContextOf of
// its stack from fn). The stacks are found through an index of each
// node's parent, made for a function the first time a context of it is
// asked, so that calls and accesses need not carry one each.
func (f *Facts) ContextAt(fn *Func, n pyscan.Node) pyscan.Context {
	stack := f.stackAt(fn, n)
	if stack == nil {
		return pyscan.Context{Function: fn.Fn}
	}
	return pyscan.ContextOf(stack)
}

// ExitGuardsAt are the tests that a node of fn's own body holds false
// because an if statement before it leaves fn (pyscan.ExitGuards).
func (f *Facts) ExitGuardsAt(fn *Func, n pyscan.Node) []pyscan.Guard {
	return pyscan.ExitGuards(f.stackAt(fn, n))
}

// stackAt is the stack from fn down to n, a node of fn's own body; nil
// when n is not one.
func (f *Facts) stackAt(fn *Func, n pyscan.Node) []pyscan.Node {
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
		return nil
	}
	stack := make([]pyscan.Node, len(rev))
	for i, x := range rev {
		stack[len(rev)-1-i] = x
	}
	return stack
}

// Ctx says where the call sits in In.
func (c *Call) Ctx() pyscan.Context { return c.f.ContextAt(c.In, c.Call) }

// Ctx says where the access sits in its function.
func (a *Access) Ctx() pyscan.Context { return a.f.ContextAt(a.Func, a.Node) }
