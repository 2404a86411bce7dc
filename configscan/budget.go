package configscan

import (
	"bytes"
	"fmt"
	"sync/atomic"
)

// The memory of YAML. A resolved tree takes about 165 bytes a value, and
// yaml.v3's node tree, which Parse builds first, as much again: a file of
// a value every two bytes ([1,1,1,...]) costs some 180 times its size (a
// 4 MB file, 0.76 GB), and a scan keeps its configs' trees. So, without
// parsing a file, Parse counts the values the file could hold at most
// (EstimateValues) and does not parse a file that could hold more than
// Options.MaxValues (default DefaultMaxValues): that bounds the memory of
// one parse. A Budget bounds what the Files of a scan hold together: each
// parse takes its estimate from it before it starts and gives back, once
// done, what its File does not hold. A file that the budget has no room
// for is not parsed either. Such a file has one Problem (KindTooLarge or
// KindBudget) and nothing else: it is not analysed.

// DefaultMaxValues is the most values (by EstimateValues) that a file may
// hold for Parse to parse it, when Options.MaxValues is 0: 600,000, whose
// parse takes at most about 200 MB. Configs hold hundreds (NeMo Gym's
// largest, 351); a file of 200,000 "key: value" lines still parses.
const DefaultMaxValues = 600_000

// DefaultBudgetValues is the budget of values a scan's configs may hold
// together that package gym gives a scan (about 165 MB): all of NeMo
// Gym's 561 YAML files hold 16,199.
const DefaultBudgetValues = 1_000_000

// Problem kinds of a file that was not parsed because of its size.
const (
	KindTooLarge = "too-large" // more values than Options.MaxValues
	KindBudget   = "budget"    // the Budget had no room for it
)

// EstimateValues returns, without parsing data, a number of values that
// data holds no more than: every node of yaml.v3's tree (a scalar, an
// alias, a mapping, a sequence, a document) comes from an indicator
// (":", "?", "-", ",", "[", "{", "*", a line starting with "...") that
// starts a key, a value, an entry or a collection, and one indicator brings
// at most three nodes (`? k` brings a mapping, its key and a null value).
// So it counts every byte that may be such an indicator, wherever it is
// (in a string or a comment too), times three. When the file has an alias,
// the values that aliases may copy in are added (Options.MaxNodeVisits).
// Plain text and block scalars count only for their punctuation: a file of
// prose counts for little, a list of numbers for three times its items.
func EstimateValues(data []byte, opts Options) int64 {
	var signs int64
	for _, b := range data {
		switch b {
		case ':', '?', '-', ',', '[', '{', '*':
			signs++
		}
	}
	// "..." ends a document; the next needs no "---".
	for i := 0; i < len(data); {
		if bytes.HasPrefix(data[i:], []byte("...")) {
			signs++
		}
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	n := 3*signs + 3
	if bytes.IndexByte(data, '*') >= 0 {
		n += int64(maxVisits(opts))
	}
	return n
}

func maxVisits(opts Options) int {
	if opts.MaxNodeVisits <= 0 {
		return DefaultMaxNodeVisits
	}
	return opts.MaxNodeVisits
}

// A Budget is the number of values that the Files of several parses (a
// scan's) may hold together. It is safe for concurrent use. A nil
// *Budget has no limit.
type Budget struct {
	limit int64
	used  atomic.Int64
}

// NewBudget returns a budget of values.
func NewBudget(values int64) *Budget { return &Budget{limit: values} }

// Limit is the budget's size.
func (b *Budget) Limit() int64 { return b.limit }

// Used is what the Files charged to the budget hold now, with the
// estimates of the parses in progress.
func (b *Budget) Used() int64 { return b.used.Load() }

// reserve takes n values if there is room for them.
func (b *Budget) reserve(n int64) bool {
	if b == nil {
		return true
	}
	for {
		u := b.used.Load()
		if u+n > b.limit {
			return false
		}
		if b.used.CompareAndSwap(u, u+n) {
			return true
		}
	}
}

// settle turns a reservation of reserved values into a charge of f's.
func (b *Budget) settle(reserved int64, f *File) {
	if b == nil {
		return
	}
	n := int64(f.Values())
	f.charged.Store(n)
	f.budget = b
	b.used.Add(n - reserved)
}

// Charge charges the values of f, a File that was not parsed within the
// budget (one of Decode), whatever room is left: the values it holds are
// in memory already.
func (b *Budget) Charge(f *File) {
	if b == nil || f.budget != nil {
		return
	}
	b.settle(0, f)
}

// Release gives back to its budget what f was charged, once its holder
// drops it. It is safe on a File charged to no budget, and more than once.
func Release(f *File) {
	if f == nil || f.budget == nil {
		return
	}
	if n := f.charged.Swap(0); n != 0 {
		f.budget.used.Add(-n)
	}
}

// Values is the number of values (nodes) f's documents hold: counted by
// Parse and Decode, 0 for a File made otherwise.
func (f *File) Values() int { return f.values }

// countValues counts the nodes of f's documents, which Parse makes trees
// (each use of an alias is a copy of its own).
func (f *File) countValues() {
	n := 0
	stack := append([]*Node(nil), f.Docs...)
	for len(stack) > 0 {
		nd := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if nd == nil {
			continue
		}
		n++
		for _, p := range nd.Pairs {
			stack = append(stack, p.Value)
		}
		stack = append(stack, nd.Items...)
	}
	f.values = n
}

// admit decides, before Parse parses data, whether it may: it returns the
// values reserved in opts.Budget, or the Problem that says why not.
func admit(path string, data []byte, opts Options) (reserved int64, p *Problem) {
	limit := int64(opts.MaxValues)
	if limit <= 0 {
		limit = DefaultMaxValues
	}
	n := EstimateValues(data, opts)
	if n > limit {
		return 0, &Problem{
			Pos:     Pos{Offset: 0, Line: 1, Col: 1},
			Kind:    KindTooLarge,
			Message: fmt.Sprintf("%s was not analysed: it may hold up to %d YAML values (by a count of its indicators - : , ? [ { *), more than the %d that gymlint parses in one file", path, n, limit),
			Help:    "split it, or keep large data out of the repository's YAML files",
		}
	}
	if !opts.Budget.reserve(n) {
		return 0, &Problem{
			Pos:     Pos{Offset: 0, Line: 1, Col: 1},
			Kind:    KindBudget,
			Message: fmt.Sprintf("%s was not analysed: the scan's budget of %d YAML values ran out before it was read", path, opts.Budget.Limit()),
			Help:    "keep large data out of the repository's YAML files: the budget bounds the memory of a scan",
		}
	}
	return n, nil
}
