// Package refusal reads, without running it, what a server's
// multiple_workers_unsupported_reason() answers: a reason on every path
// (Always), never one (Never), or one under a condition on the server's
// config (When), with that condition written out when it can be; and it
// decides that answer against the settings of one config instance
// (Result.Decide).
//
// The method that wins in the server's method resolution order is read
// from pyscan's typed model. Its exits are its return statements (each
// branch of `A if C else B` one exit), its raise and assert statements, and
// the end of its body, in source order; each exit is taken when the tests
// that guard it hold (pyscan.ContextOf's if/elif guards) and no earlier
// exit was taken. A statement inside a loop, a try statement or a match
// case is reached under a test of its own that gymlint does not decide,
// and an assert raises under one. A returned value is a reason when it is a
// non-empty string literal, an f-string, a "...".format() or "..." % x
// template with text of its own, a + with such a string, or a module
// constant or a ClassVar/Final class attribute bound once to a non-empty
// literal; None, "", a bare return and the end of the body give none;
// `super().multiple_workers_unsupported_reason()` is read through to the
// parent's override, and gives none when it reaches the framework's
// default. Anything else is unknown.
//
// A test is an atom of a boolean formula: `self.config.<field>` tests
// (truthiness, `is None`, `== literal`, `in (literals)`, `>`/`>=`/`<`/`<=`
// a number) are atoms a config can decide; any other test is an opaque
// atom, identified by the structure of its expression (never its text),
// so that the same test written twice is one atom and `a != b` is the
// negation of `a == b`. The analysis enumerates every assignment of the
// atoms (at most maxAtoms of them) and writes conditions with package
// boolmin (at most maxMinimize atoms).
package refusal

import (
	"strconv"
	"sync"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// Method is the name of the refusal method (contract.RefusalMethod).
const Method = contract.RefusalMethod

// Limits: how many distinct tests gymlint enumerates (2^maxAtoms
// assignments), how many it writes a condition over, and how many super()
// calls it follows.
const (
	maxAtoms    = 12
	maxMinimize = 8
	maxDepth    = 8
)

// Kind classifies a server's answer to several workers.
type Kind int

// The kinds of answer.
const (
	Never  Kind = iota // no override (or it returns None or "" on every path)
	Always             // every path returns a non-empty reason
	When               // the reason depends on a condition
)

func (k Kind) String() string {
	switch k {
	case Never:
		return "never"
	case Always:
		return "always"
	case When:
		return "when"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Outcome is what one exit of the method gives.
type Outcome int

// The outcomes of a path.
const (
	Accepts Outcome = iota // returns None, "" or nothing: several workers are fine
	Refuses                // returns a non-empty string: the reason
	Unknown                // returns something gymlint does not evaluate
	Raises                 // raises, or an assert fails
)

func (o Outcome) String() string {
	switch o {
	case Accepts:
		return "accepts"
	case Refuses:
		return "refuses"
	case Unknown:
		return "unknown"
	case Raises:
		return "raises"
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// Path is one way through the method: a return (one branch of it, for
// `A if C else B`), a raise or an assert, or the implicit `return None` at
// the end of the body. Paths that no assignment of the tests reaches are
// left out of Result.Paths.
type Path struct {
	Outcome Outcome
	// Reason is the reason's text when Outcome is Refuses and the value is
	// a string literal (or a constant bound to one).
	Reason string
	// Value is the returned expression (the branch, for `A if C else B`);
	// nil for a bare return, a raise and the end of the body.
	Value pyscan.Expr
	// Conditional is set when the path is taken only under a condition;
	// Condition is that condition written as Python, or "" when it cannot
	// be written (it involves a loop, a try, an assert, or too many tests).
	Conditional bool
	Condition   string
	// Method and Class are where the path is: the winning override, or a
	// parent's override reached through super().
	Method *pyscan.Function
	Class  gym.ClassRef
	// Stmt is the Return, Raise or Assert (nil for the end of the body);
	// Guards are its enclosing if/elif tests.
	Stmt   pyscan.Stmt
	Guards []pyscan.Guard
	// Span is the statement, or the method's name for the end of the body.
	Span pyscan.Span

	idx     int  // the path's index in the analysis
	literal bool // a refusing value that is a literal (Reason may still be "")
}

// ValueText is the returned expression's source on one line, for messages;
// "" when there is none.
func (p Path) ValueText() string {
	if p.Value == nil || p.Class.Module == nil {
		return ""
	}
	return display(p.Class.Module, p.Value)
}

// Result is what a server's multiple_workers_unsupported_reason() answers.
type Result struct {
	Kind Kind
	// Def is the definition of the method that wins in the server's MRO
	// (gym.View.Lookup).
	Def gym.Definition
	// Method is the winning override, nil if none (or if the name is bound
	// to something other than a def; Kind is then When with an unknown
	// Condition).
	Method *pyscan.Function
	// Class is where the override is defined.
	Class gym.ClassRef
	// Reason is the literal reason when every refusing path returns the
	// same string literal; "" otherwise (f-strings, computed values).
	Reason string
	// Condition is, for When, the condition under which it refuses
	// (`self.config.metrics_source == "prometheus"`); "" when it is not
	// known (the method delegates, returns a computed value on some path,
	// loops, or tests too many things).
	Condition string
	// Paths are the method's reachable exits, in source order.
	Paths []Path
	// Uncertain is set when the ancestry runs through a class gymlint could
	// not resolve, or a module the method is read from has a syntax error:
	// another definition might win, or the method might be read wrong.
	// Rules say nothing about uncertain refusals.
	Uncertain bool

	prog  *program
	atoms []*atom
}

type cacheKey struct{}

type cache struct {
	mu      sync.Mutex
	results map[*pyscan.Class]*cacheEntry
}

type cacheEntry struct {
	once sync.Once
	r    *Result
}

// Of returns the refusal of a server class, analysed once per view and
// shared by every rule that asks. The result must not be modified.
func Of(v *gym.View, server gym.ClassRef) *Result {
	c := v.Shared(cacheKey{}, func() any { return &cache{results: map[*pyscan.Class]*cacheEntry{}} }).(*cache)
	c.mu.Lock()
	e := c.results[server.Class]
	if e == nil {
		e = &cacheEntry{}
		c.results[server.Class] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.r = Analyze(v, server) })
	return e.r
}

// Analyze reads the refusal of a server class (Of caches it).
func Analyze(v *gym.View, server gym.ClassRef) *Result {
	r := &Result{}
	if server.Class == nil {
		r.Uncertain = true
		return r
	}
	def := v.Lookup(server, Method)
	r.Def = def
	if !def.Found() {
		r.Kind = Never
		r.Uncertain = def.Uncertain
		return r
	}
	r.Class = def.Class
	r.Uncertain = def.Uncertain || def.Class.Module.SyntaxError != nil
	if def.Method == nil {
		// Bound to a value (an alias of another function, a lambda):
		// gymlint does not follow it.
		r.Kind = When
		return r
	}
	r.Method = def.Method
	b := newBuilder(v, server)
	prog := b.method(def.Class, def.Method, 0)
	for i := range b.paths {
		b.paths[i].idx = i
	}
	prog.paths = b.paths
	r.prog, r.atoms = prog, b.atoms
	if b.uncertain {
		r.Uncertain = true
	}
	n := len(b.atoms)
	if n > maxAtoms {
		r.Kind = When
		for _, p := range b.paths {
			p.Conditional = true
			r.Paths = append(r.Paths, p)
		}
		return r
	}
	total := 1 << n
	taken := make([][]bool, len(b.paths))
	for i := range taken {
		taken[i] = make([]bool, total)
	}
	var seen [4]bool
	on, dc := make([]bool, total), make([]bool, total)
	assign := make([]bool, n)
	for m := 0; m < total; m++ {
		setAssign(assign, m)
		p := prog.eval(assign)
		taken[p][m] = true
		o := b.paths[p].Outcome
		seen[o] = true
		on[m] = o == Refuses
		dc[m] = o == Raises
	}
	refuses, accepts, unknown := seen[Refuses], seen[Accepts], seen[Unknown]
	switch {
	case refuses && !accepts && !unknown:
		r.Kind = Always
	case !refuses && !unknown && accepts:
		r.Kind = Never
	default:
		r.Kind = When
		if !unknown && refuses && n <= maxMinimize {
			r.Condition = b.render(minimize(n, on, dc))
		}
	}
	// Keep the reachable paths, each with the condition it is taken under.
	reasons := map[string]bool{}
	literal := true
	for i, p := range b.paths {
		some, all := false, true
		for m := 0; m < total; m++ {
			if taken[i][m] {
				some = true
			} else {
				all = false
			}
		}
		if !some {
			continue
		}
		if !all {
			p.Conditional = true
			if n <= maxMinimize {
				p.Condition = b.render(minimize(n, taken[i], nil))
			}
		}
		if p.Outcome == Refuses {
			literal = literal && p.literal
			reasons[p.Reason] = true
		}
		r.Paths = append(r.Paths, p)
	}
	if literal && len(reasons) == 1 {
		for s := range reasons {
			r.Reason = s
		}
	}
	return r
}

func setAssign(assign []bool, m int) {
	for i := range assign {
		assign[i] = m&(1<<i) != 0
	}
}
