package boolmin

import (
	"math/rand"
	"testing"
)

var names = []string{"a", "b", "c", "d"}

func format(terms []Term) string {
	return Format(terms, func(l Literal, _ bool) string {
		if l.Neg {
			return "not " + names[l.Var]
		}
		return names[l.Var]
	})
}

func table(n int, f func(m int) bool) []bool {
	t := make([]bool, 1<<n)
	for m := range t {
		t[m] = f(m)
	}
	return t
}

func TestMinimize(t *testing.T) {
	// a or (b and not c), over 3 variables.
	on := table(3, func(m int) bool {
		a, b, c := m&1 != 0, m&2 != 0, m&4 != 0
		return a || (b && !c)
	})
	if got := format(Minimize(3, on, nil)); got != "a or (b and not c)" {
		t.Errorf("got %q", got)
	}
	// Don't-cares let the condition shrink.
	dc := table(3, func(m int) bool { return !on[m] && m&2 != 0 })
	if got := format(Minimize(3, on, dc)); got != "a or b" {
		t.Errorf("with don't-cares: got %q", got)
	}
}

func TestMinimizeEdges(t *testing.T) {
	never := make([]bool, 4)
	if got := Minimize(2, never, nil); got != nil {
		t.Errorf("never true: got %v", got)
	}
	always := table(2, func(int) bool { return true })
	if got := Minimize(2, always, nil); len(got) != 1 || len(got[0]) != 0 {
		t.Errorf("always true: got %v", got)
	}
	// True wherever it matters.
	on := table(2, func(m int) bool { return m == 3 })
	dc := table(2, func(m int) bool { return m != 3 })
	if got := Minimize(2, on, dc); len(got) != 1 || len(got[0]) != 0 {
		t.Errorf("true outside the don't-cares: got %v", got)
	}
	if got := format(Minimize(1, []bool{false, true}, nil)); got != "a" {
		t.Errorf("one variable: got %q", got)
	}
	if got := format(Minimize(1, []bool{true, false}, nil)); got != "not a" {
		t.Errorf("one negated variable: got %q", got)
	}
	if got := Format(nil, nil); got != "" {
		t.Errorf("Format of false: %q", got)
	}
}

// Every result agrees with its truth table: true on the on-set, false
// outside on+dc.
func TestMinimizeAgrees(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for n := 1; n <= 4; n++ {
		for trial := 0; trial < 200; trial++ {
			on := make([]bool, 1<<n)
			dc := make([]bool, 1<<n)
			for m := range on {
				switch r.Intn(3) {
				case 0:
					on[m] = true
				case 1:
					dc[m] = r.Intn(2) == 0
				}
			}
			terms := Minimize(n, on, dc)
			for m := range on {
				got := Eval(terms, m)
				if on[m] && !got || !on[m] && !dc[m] && got {
					t.Fatalf("n=%d on=%v dc=%v: %v gives %v at %d", n, on, dc, terms, got, m)
				}
			}
		}
	}
}

func TestFormatParenthesises(t *testing.T) {
	terms := []Term{{{Var: 0}, {Var: 1, Neg: true}}, {{Var: 2}}}
	var products []bool
	got := Format(terms, func(l Literal, inProduct bool) string {
		products = append(products, inProduct)
		return names[l.Var]
	})
	if got != "(a and b) or c" {
		t.Errorf("got %q", got)
	}
	if len(products) != 3 || !products[0] || !products[1] || products[2] {
		t.Errorf("inProduct: %v", products)
	}
}
