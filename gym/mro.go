package gym

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/pyscan"
)

// This file computes what the view knows of a class's ancestry, in two
// steps, each bounded whatever the repository holds:
//
//   - the ancestry summary (ancestryOf): how many levels of repository
//     classes lie above a class, whether they reach a framework server
//     class, a base gymlint cannot resolve, a module with a syntax error,
//     or a cycle. One depth-first search (Tarjan's, which finds the cycles)
//     per question, over at most maxInheritanceDepth levels, with every
//     finished class kept for the life of the view: a chain of n classes
//     costs O(n) however it is asked about.
//   - the method resolution order (c3), only for a class whose summary is
//     within the bounds and has no cycle: C3 linearisation over interned
//     ancestors, each merge linear in its input, kept per class, and no
//     longer than maxMROLength.
//
// A class beyond a bound, on a cycle or with an order C3 cannot merge has
// no MRO: MRO returns a depth-first order with ok false, which every rule
// takes as "cannot decide". The cycles, the orders C3 cannot merge and the
// ancestries beyond the bounds are reported (RuleInconsistentMRO) at the
// class definition.

// maxInheritanceDepth bounds the levels of repository classes gymlint
// follows above a class (a class with only framework, foreign or builtin
// bases is one level). Real code has a handful; beyond the bound a class's
// ancestry is not followed to the end and its MRO is uncertain.
const maxInheritanceDepth = 256

// maxMROLength bounds the length of a method resolution order gymlint
// computes (and so the memory an MRO keeps); a class with a longer one, or
// with as many bases, has an uncertain MRO.
const maxMROLength = 512

// maxRelated bounds the related positions of a diagnostic of the rule.
const maxRelated = 10

// classState is a view's memory of class ancestries. Its maps are made on
// first use.
type classState struct {
	basesMu sync.Mutex
	bases   map[*pyscan.Class][]Ancestor
	fw      map[*pyscan.Class]bool // framework classes: derive from a server base

	sumMu    sync.Mutex
	sums     map[*pyscan.Class]ancestry // finished summaries, each within the depth bound
	lbs      map[*pyscan.Class]int      // classes known to be at least this many levels high
	reported map[any]bool               // cycles (by first class), deep modules (by path)

	mroMu sync.Mutex
	ids   map[ancKey]int32
	table []Ancestor // by id
	mros  map[*pyscan.Class]mroEntry

	// Work counters, for tests that check the cost grows linearly.
	visits atomic.Int64 // classes the summary searches entered
	steps  atomic.Int64 // entries the C3 merges read or wrote
}

// ancestry is the summary of a class's ancestry.
type ancestry struct {
	// height is 1 plus the height of the highest repository base (a cycle
	// counts as one level).
	height int
	// cyclic: the class is on a cycle of repository classes or derives
	// from one.
	cyclic bool
	// server: the ancestry reaches a framework server class.
	server bool
	// unresolved: it reaches a base gymlint cannot resolve.
	unresolved bool
	// broken: it reaches (or the class is in) a module with a syntax error.
	broken bool
}

func (a *ancestry) add(b ancestry) {
	a.cyclic = a.cyclic || b.cyclic
	a.server = a.server || b.server
	a.unresolved = a.unresolved || b.unresolved
	a.broken = a.broken || b.broken
}

// undecided reports whether a class with this summary may be a server
// class although gymlint did not find that it is one.
func (a ancestry) undecided(exceeded bool) bool {
	return !a.server && (exceeded || a.cyclic || a.unresolved || a.broken)
}

// bases is Bases, kept per class.
func (v *View) bases(c ClassRef) []Ancestor {
	st := &v.classes
	st.basesMu.Lock()
	b, ok := st.bases[c.Class]
	st.basesMu.Unlock()
	if ok {
		return b
	}
	// Resolve without the lock: resolution may parse modules.
	b = v.computeBases(c)
	st.basesMu.Lock()
	if st.bases == nil {
		st.bases = map[*pyscan.Class][]Ancestor{}
	}
	if old, ok := st.bases[c.Class]; ok {
		b = old
	} else {
		st.bases[c.Class] = b
	}
	st.basesMu.Unlock()
	return b
}

// ancestryOf returns the summary of a class's ancestry; exceeded is set,
// and the summary empty, when the ancestry is more than
// maxInheritanceDepth levels high.
func (v *View) ancestryOf(c ClassRef) (a ancestry, exceeded bool) {
	st := &v.classes
	st.sumMu.Lock()
	s, done := st.sums[c.Class]
	lb := st.lbs[c.Class]
	st.sumMu.Unlock()
	if done {
		return s, false
	}
	if lb > maxInheritanceDepth {
		return ancestry{}, true
	}
	q := &ancestryQuery{v: v, index: map[*pyscan.Class]int{}, low: map[*pyscan.Class]int{},
		onStack: map[*pyscan.Class]bool{}, acc: map[*pyscan.Class]*ancestry{}, self: map[*pyscan.Class]bool{}}
	if q.visit(c, maxInheritanceDepth) {
		return ancestry{}, true
	}
	st.sumMu.Lock()
	s = st.sums[c.Class]
	st.sumMu.Unlock()
	return s, false
}

// ancestryQuery is one search of ancestryOf: Tarjan's strongly connected
// components over repository classes, each class entered with the number
// of levels it may still have (its budget). The search ends at the first
// class over its budget: the class asked about is then more than
// maxInheritanceDepth levels high, and so is each class on the path to
// that one by its own budget, which is kept (lbs) so that the next search
// stops there at once. A class is finished when its component is: its
// summary is then kept for the view (sums). Concurrent searches may
// repeat each other's work; what they keep is the same.
type ancestryQuery struct {
	v       *View
	next    int
	index   map[*pyscan.Class]int
	low     map[*pyscan.Class]int
	onStack map[*pyscan.Class]bool
	stack   []ClassRef
	acc     map[*pyscan.Class]*ancestry // from each class's bases outside its component
	self    map[*pyscan.Class]bool      // classes that list themselves as a base
}

// visit searches the ancestry of c, which may be at most budget levels
// high. It returns true when the search found it higher (the search is
// then over).
func (q *ancestryQuery) visit(c ClassRef, budget int) (over bool) {
	v, st := q.v, &q.v.classes
	st.visits.Add(1)
	defer func() {
		if over {
			st.sumMu.Lock()
			if st.lbs == nil {
				st.lbs = map[*pyscan.Class]int{}
			}
			if st.lbs[c.Class] < budget+1 {
				st.lbs[c.Class] = budget + 1
			}
			st.sumMu.Unlock()
		}
	}()
	if budget < 1 {
		return true
	}
	idx := q.next
	q.next++
	q.index[c.Class], q.low[c.Class] = idx, idx
	q.stack = append(q.stack, c)
	q.onStack[c.Class] = true
	acc := &ancestry{height: 1, broken: c.Module.SyntaxError != nil}
	q.acc[c.Class] = acc
	for _, b := range v.bases(c) {
		switch b.Kind {
		case FrameworkServer:
			acc.server = true
			continue
		case Unresolved:
			acc.unresolved = true
			continue
		case Own:
		default:
			continue
		}
		bc := b.Class.Class
		if bc == c.Class {
			q.self[bc] = true
			continue
		}
		if q.onStack[bc] {
			q.low[c.Class] = min(q.low[c.Class], q.index[bc])
			continue
		}
		st.sumMu.Lock()
		s, done := st.sums[bc]
		lb := st.lbs[bc]
		st.sumMu.Unlock()
		if !done {
			if lb > budget-1 {
				return true
			}
			if q.visit(b.Class, budget-1) {
				return true
			}
			if q.onStack[bc] {
				q.low[c.Class] = min(q.low[c.Class], q.low[bc])
				continue
			}
			st.sumMu.Lock()
			s = st.sums[bc]
			st.sumMu.Unlock()
		}
		if s.height > budget-1 {
			return true
		}
		acc.height = max(acc.height, s.height+1)
		acc.add(s)
	}
	if q.low[c.Class] != idx {
		return false
	}
	// c is the root of a component: pop it and keep its summary.
	var comp []ClassRef
	for {
		n := len(q.stack) - 1
		x := q.stack[n]
		q.stack = q.stack[:n]
		q.onStack[x.Class] = false
		comp = append(comp, x)
		if x.Class == c.Class {
			break
		}
	}
	sum := ancestry{height: 1}
	for _, x := range comp {
		a := q.acc[x.Class]
		sum.height = max(sum.height, a.height)
		sum.add(*a)
	}
	cycle := len(comp) > 1 || q.self[c.Class]
	if cycle {
		sum.cyclic = true
	}
	st.sumMu.Lock()
	if st.sums == nil {
		st.sums = map[*pyscan.Class]ancestry{}
	}
	first := true
	for _, x := range comp {
		if _, ok := st.sums[x.Class]; ok {
			first = false
			continue
		}
		st.sums[x.Class] = sum
	}
	st.sumMu.Unlock()
	if cycle && first {
		v.reportCycle(comp)
	}
	return false
}

// reportCycle reports a cycle of repository classes once, at its first
// class (by path and position), when every base that makes it is
// certain: each class statement and the one binding of each base's name
// run unconditionally at module scope (no try, if or loop, no other
// binding of the name, no star import), and no module of it has a syntax
// error. Otherwise the classes' MROs are uncertain and nothing is said.
func (v *View) reportCycle(comp []ClassRef) {
	in := map[*pyscan.Class]bool{}
	for _, c := range comp {
		in[c.Class] = true
		if c.Module.SyntaxError != nil || v.IsFrameworkModule(c.Module.Name) {
			return
		}
	}
	// next[c] is c's first base in the component; every base in it must
	// be certain.
	next := map[*pyscan.Class]ClassRef{}
	for _, c := range comp {
		for i, b := range v.bases(c) {
			if b.Kind != Own || !in[b.Class.Class] {
				continue
			}
			if !v.certainBase(c, i) {
				return
			}
			if _, ok := next[c.Class]; !ok {
				next[c.Class] = b.Class
			}
		}
	}
	sort.Slice(comp, func(i, j int) bool { return classBefore(comp[i], comp[j]) })
	head := comp[0]
	st := &v.classes
	st.sumMu.Lock()
	if st.reported == nil {
		st.reported = map[any]bool{}
	}
	dup := st.reported[head.Class]
	st.reported[head.Class] = true
	st.sumMu.Unlock()
	if dup {
		return
	}
	// A path around the cycle from head, by shortest steps within the
	// component.
	path := cyclePath(v, head, in)
	var msg, help string
	modules := map[*pyscan.Module]bool{}
	for _, c := range comp {
		modules[c.Module] = true
	}
	fails := "NameError"
	if len(modules) > 1 {
		fails = "ImportError"
	}
	if len(comp) == 1 {
		msg = fmt.Sprintf(
			"class %s derives from itself: no method resolution order exists, and Python refuses the class at import with %s",
			head.Class.Name, fails)
		help = "derive it from another class"
	} else {
		var steps []string
		for i, c := range path[:len(path)-1] {
			if i == maxRelated {
				steps = append(steps, "...")
				break
			}
			steps = append(steps, c.Class.Name+"("+path[i+1].Class.Name+")")
		}
		msg = fmt.Sprintf(
			"class %s is its own ancestor (%s): no method resolution order exists, and Python refuses the classes at import with %s",
			head.Class.Name, strings.Join(steps, ", "), fails)
		help = "make one of them stop deriving from the other"
	}
	start, end := Range(head.Module, head.Class.NameSpan)
	d := core.InconsistentMRO.New(head.Module.Path, start, end, msg)
	d.Help = help
	for i, c := range comp[1:] {
		if i == maxRelated {
			d.Message += fmt.Sprintf(" (%d classes are on the cycle)", len(comp))
			break
		}
		d.Related = append(d.Related, Related(c.Module, c.Class.NameSpan, "class "+c.Class.Name+" is on the same cycle"))
	}
	v.report(d)
}

// cyclePath returns a shortest path of bases from head back to head
// within the component in, both ends included.
func cyclePath(v *View, head ClassRef, in map[*pyscan.Class]bool) []ClassRef {
	prev := map[*pyscan.Class]ClassRef{}
	seen := map[*pyscan.Class]bool{}
	queue := []ClassRef{head}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, b := range v.bases(c) {
			if b.Kind != Own || !in[b.Class.Class] {
				continue
			}
			if b.Class.Class == head.Class {
				path := []ClassRef{head}
				for x := c; x.Class != head.Class; x = prev[x.Class] {
					path = append(path, x)
				}
				path = append(path, head)
				// path is head, c, ..., head backwards: reverse the middle.
				for i, j := 1, len(path)-2; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			if !seen[b.Class.Class] {
				seen[b.Class.Class] = true
				prev[b.Class.Class] = c
				queue = append(queue, b.Class)
			}
		}
	}
	return []ClassRef{head, head}
}

func classBefore(a, b ClassRef) bool {
	if a.Module.Path != b.Module.Path {
		return a.Module.Path < b.Module.Path
	}
	return a.Class.Span.Start < b.Class.Span.Start
}

// certainBase reports whether base i of c names what gymlint resolved it
// to whenever Python runs the class statement: the statement runs
// unconditionally at module scope, and the module binds the base's first
// name once, unconditionally, with no star import that could rebind it.
func (v *View) certainBase(c ClassRef, i int) bool {
	if c.Class.Where != (pyscan.Where{}) {
		return false
	}
	first, _, _ := strings.Cut(BaseName(c.Class.Bases[i]), ".")
	ix := v.index(c.Module)
	return first != "" && ix.count[first] == 1 && !ix.conditional[first] && len(ix.stars) == 0
}

// ancKey identifies an ancestor: a repository class by its statement, an
// unresolved base by where it is written (two of them are never taken for
// the same class), any other by its dotted name.
type ancKey struct {
	cls  *pyscan.Class
	mod  *pyscan.Module
	at   int32
	name string
}

func (a Ancestor) ident() ancKey {
	switch {
	case a.Class.Class != nil:
		return ancKey{cls: a.Class.Class}
	case a.Kind == Unresolved:
		return ancKey{mod: a.mod, at: a.at, name: a.Name}
	}
	return ancKey{name: a.Name}
}

// intern returns the id of an ancestor. mroMu is held.
func (st *classState) intern(a Ancestor) int32 {
	k := a.ident()
	if id, ok := st.ids[k]; ok {
		return id
	}
	if st.ids == nil {
		st.ids = map[ancKey]int32{}
		st.mros = map[*pyscan.Class]mroEntry{}
	}
	id := int32(len(st.table))
	st.ids[k] = id
	st.table = append(st.table, a)
	return id
}

// mroStatus says whether a computed MRO is Python's.
type mroStatus int

const (
	mroOK mroStatus = iota
	// mroInconsistent: C3 cannot merge the class's bases (Python raises
	// TypeError), or it lists a base twice.
	mroInconsistent
	// mroTooLong: the MRO would be longer than maxMROLength, or a base's
	// is.
	mroTooLong
	// mroInherited: a base's MRO is not Python's.
	mroInherited
)

// mroEntry is a class's MRO by ancestor ids: C3's, or when status is not
// mroOK a depth-first order without repeats.
type mroEntry struct {
	ids    []int32
	status mroStatus
}

// ownAncestor is the first entry of c's MRO.
func ownAncestor(c ClassRef) Ancestor {
	return Ancestor{Kind: Own, Class: c, Name: c.Module.Name + "." + c.Class.Name}
}

// c3 returns the MRO of a class whose ancestry summary is within the
// depth bound and has no cycle (so neither has any repository ancestor,
// and the recursion is at most maxInheritanceDepth deep). mroMu is held;
// the bases of every class reached were resolved by the summary.
func (v *View) c3(c ClassRef) mroEntry {
	st := &v.classes
	if e, ok := st.mros[c.Class]; ok {
		return e
	}
	self := st.intern(ownAncestor(c))
	bases := v.bases(c)
	var e mroEntry
	switch {
	case len(bases) >= maxMROLength:
		e = mroEntry{ids: []int32{self}, status: mroTooLong}
	default:
		e = v.c3bases(c, self, bases)
	}
	st.mros[c.Class] = e
	return e
}

func (v *View) c3bases(c ClassRef, self int32, bases []Ancestor) mroEntry {
	st := &v.classes
	seqs := make([][]int32, 0, len(bases)+1)
	local := make([]int32, len(bases))
	status := mroOK
	for i, b := range bases {
		local[i] = st.intern(b)
		if b.Kind != Own {
			seqs = append(seqs, local[i:i+1])
			continue
		}
		be := v.c3(b.Class)
		switch {
		case be.status == mroTooLong:
			status = mroTooLong
		case be.status != mroOK && status == mroOK:
			status = mroInherited
		}
		seqs = append(seqs, be.ids)
	}
	if status != mroOK {
		return mroEntry{ids: depthFirstIDs(self, seqs), status: status}
	}
	if len(bases) == 1 && bases[0].Kind == Own {
		// C3 of one base is that base's MRO.
		b := seqs[0]
		if len(b)+1 > maxMROLength {
			return mroEntry{ids: depthFirstIDs(self, seqs), status: mroTooLong}
		}
		st.steps.Add(int64(len(b)))
		return mroEntry{ids: append([]int32{self}, b...)}
	}
	if dup := duplicateBase(local); dup >= 0 {
		v.reportInconsistent(c, fmt.Sprintf(
			"class %s lists %s twice among its bases: Python refuses the class at import (TypeError: duplicate base class)",
			c.Class.Name, bases[dup].Name), "list it once", nil)
		return mroEntry{ids: depthFirstIDs(self, seqs), status: mroInconsistent}
	}
	seqs = append(seqs, local)
	out, heads, ok := st.merge(seqs, maxMROLength-1)
	switch {
	case ok:
		return mroEntry{ids: append([]int32{self}, out...)}
	case heads == nil:
		return mroEntry{ids: depthFirstIDs(self, seqs[:len(bases)]), status: mroTooLong}
	}
	var names []string
	var related []ClassRef
	for _, h := range heads {
		a := st.table[h]
		names = append(names, shortName(a))
		if a.Class.Class != nil {
			related = append(related, a.Class)
		}
	}
	v.reportInconsistent(c, fmt.Sprintf(
		"Python cannot create a consistent method resolution order for class %s: its bases require %s each to come before the other, so the import fails with TypeError",
		c.Class.Name, andList(names)),
		"reorder the bases so that every class comes before its own bases and the bases agree on the order of the classes they share", related)
	return mroEntry{ids: depthFirstIDs(self, seqs[:len(bases)]), status: mroInconsistent}
}

// duplicateBase returns the index of a base listed a second time, or -1.
func duplicateBase(local []int32) int {
	seen := map[int32]bool{}
	for i, id := range local {
		if seen[id] {
			return i
		}
		seen[id] = true
	}
	return -1
}

func shortName(a Ancestor) string {
	if a.Class.Class != nil {
		return a.Class.Class.Name
	}
	return a.Name
}

func andList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// reportInconsistent reports a class whose bases C3 cannot merge, unless
// its ancestry passes through a module with a syntax error (what gymlint
// read of it may be wrong) or it is a framework class. mroMu is held.
func (v *View) reportInconsistent(c ClassRef, msg, help string, others []ClassRef) {
	if v.IsFrameworkModule(c.Module.Name) {
		return
	}
	if s, exceeded := v.ancestryOf(c); exceeded || s.broken {
		return
	}
	start, end := Range(c.Module, c.Class.NameSpan)
	d := core.InconsistentMRO.New(c.Module.Path, start, end, msg)
	d.Help = help
	for _, o := range others {
		d.Related = append(d.Related, Related(o.Module, o.Class.NameSpan, "class "+o.Class.Name+" is defined here"))
	}
	v.report(d)
}

// merge is the merge step of C3 linearisation, linear in the length of
// seqs plus the output times the number of seqs. It stops with ok false
// and heads nil when the output would be longer than limit; it fails with
// ok false and the candidate heads (the classes Python's TypeError names)
// when no head is in no other sequence's tail.
func (st *classState) merge(seqs [][]int32, limit int) (out, heads []int32, ok bool) {
	// inTail counts, for each ancestor, the sequences that hold it after
	// their current head.
	inTail := map[int32]int32{}
	work := int64(0)
	for _, s := range seqs {
		for _, x := range s[min(1, len(s)):] {
			inTail[x]++
		}
		work += int64(len(s))
	}
	pos := make([]int, len(seqs))
	for {
		var head int32 = -1
		left := false
		for i, s := range seqs {
			if pos[i] >= len(s) {
				continue
			}
			left = true
			work++
			if inTail[s[pos[i]]] == 0 {
				head = s[pos[i]]
				break
			}
		}
		if !left {
			st.steps.Add(work)
			return out, nil, true
		}
		if head < 0 {
			seen := map[int32]bool{}
			for i, s := range seqs {
				if pos[i] < len(s) && !seen[s[pos[i]]] {
					seen[s[pos[i]]] = true
					heads = append(heads, s[pos[i]])
				}
			}
			st.steps.Add(work)
			return out, heads, false
		}
		if len(out) >= limit {
			st.steps.Add(work)
			return out, nil, false
		}
		out = append(out, head)
		for i, s := range seqs {
			if pos[i] < len(s) && s[pos[i]] == head {
				pos[i]++
				work++
				if pos[i] < len(s) {
					inTail[s[pos[i]]]--
				}
			}
		}
	}
}

// depthFirstIDs is the order used when there is no MRO: self, then each
// sequence's entries in turn, without repeats, at most maxMROLength.
func depthFirstIDs(self int32, seqs [][]int32) []int32 {
	out := []int32{self}
	seen := map[int32]bool{self: true}
	for _, s := range seqs {
		for _, x := range s {
			if len(out) >= maxMROLength {
				return out
			}
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	return out
}

// depthFirst is the order MRO gives a class on a cycle or beyond the
// depth bound: the class, then its ancestors depth first and left to
// right, without repeats, at most maxInheritanceDepth levels up and
// maxMROLength entries.
func (v *View) depthFirst(c ClassRef) []Ancestor {
	self := ownAncestor(c)
	out := []Ancestor{self}
	seen := map[ancKey]bool{self.ident(): true}
	var walk func(c ClassRef, depth int)
	walk = func(c ClassRef, depth int) {
		if depth >= maxInheritanceDepth {
			return
		}
		for _, b := range v.bases(c) {
			if len(out) >= maxMROLength {
				return
			}
			k := b.ident()
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, b)
			if b.Kind == Own {
				walk(b.Class, depth+1)
			}
		}
	}
	walk(c, 1)
	return out
}

// checkClasses works out the ancestry of every class of an entrypoint
// module, which reports the cycles and the orders C3 cannot merge among
// them and their ancestors, and reports once the first class (in source
// order) whose ancestry is beyond gymlint's bounds. It returns the
// classes that may be server classes although gymlint could not tell
// (Entrypoint.Undecided).
func (v *View) checkClasses(m *pyscan.Module) []ClassRef {
	if v.IsFrameworkModule(m.Name) {
		return nil
	}
	var undecided, deep []ClassRef
	var deepWhy []mroStatus
	for _, cl := range m.Classes {
		c := ClassRef{Module: m, Class: cl}
		s, exceeded := v.ancestryOf(c)
		status := mroOK
		if !exceeded && !s.cyclic {
			v.classes.mroMu.Lock()
			status = v.c3(c).status
			v.classes.mroMu.Unlock()
		}
		if exceeded || status == mroTooLong {
			deep = append(deep, c)
			deepWhy = append(deepWhy, status)
		}
		if s.undecided(exceeded) {
			undecided = append(undecided, c)
		}
	}
	if len(deep) == 0 || m.SyntaxError != nil {
		return undecided
	}
	st := &v.classes
	st.sumMu.Lock()
	if st.reported == nil {
		st.reported = map[any]bool{}
	}
	dup := st.reported[m.Path]
	st.reported[m.Path] = true
	st.sumMu.Unlock()
	if dup {
		return undecided
	}
	c := deep[0]
	what := fmt.Sprintf("has more than %d levels of repository classes above it", maxInheritanceDepth)
	if deepWhy[0] == mroTooLong {
		what = fmt.Sprintf("has a method resolution order of more than %d classes", maxMROLength)
	}
	others := ""
	switch n := len(deep) - 1; n {
	case 0:
	case 1:
		others = " nor of the 1 other class of this module beyond that bound"
	default:
		others = fmt.Sprintf(" nor of the %d other classes of this module beyond that bound", n)
	}
	start, end := Range(m, c.Class.NameSpan)
	d := core.InconsistentMRO.New(m.Path, start, end, fmt.Sprintf(
		"class %s %s, more than gymlint follows: the rules say nothing of it%s",
		c.Class.Name, what, others))
	d.Help = "flatten the hierarchy"
	v.report(d)
	return undecided
}
