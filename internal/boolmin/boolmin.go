// Package boolmin writes a boolean function of a few variables, given as
// its truth table, as a short sum of products: "a or (b and not c)".
//
// Variables are numbered 0..n-1. A minterm m is the assignment in which
// variable i is true exactly when bit i of m is set, so a truth table over
// n variables has 2^n entries. Minimize takes the minterms where the
// function is true (the on-set) and, optionally, those where its value does
// not matter (the don't-care set: assignments that cannot happen, or whose
// outcome is irrelevant), and returns products that cover every on-set
// minterm and nothing outside the on-set and the don't-care set.
//
// The method is Quine-McCluskey's: every prime implicant of on+dc, then a
// greedy cover of the on-set (largest first). The greedy cover is not
// always the smallest, but it is deterministic and small enough to read.
// The work grows as 3^n cubes, each checked against up to 2^n minterms:
// callers keep n small (gymlint's refusal analysis writes conditions of at
// most 8 tests).
package boolmin

import (
	"math/bits"
	"sort"
	"strings"
)

// Literal is a variable or its negation.
type Literal struct {
	Var int
	Neg bool
}

// Term is a product (a conjunction) of literals, ordered by variable. An
// empty Term is true.
type Term []Literal

// Minimize returns a sum of products equal to the function that is true on
// on and free on dc (nil when nothing is free). on and dc have 2^n
// entries. The result is nil when the function is never true, and one
// empty Term when it is true on every minterm outside the don't-care set.
// Terms are sorted by their literals (variable, then positive before
// negated), and shorter first among those that share a prefix.
func Minimize(n int, on, dc []bool) []Term {
	total := 1 << n
	care := func(m int) bool { return on[m] || (dc != nil && dc[m]) }
	anyOn := false
	allCare := true
	for m := 0; m < total; m++ {
		anyOn = anyOn || on[m]
		allCare = allCare && care(m)
	}
	if !anyOn {
		return nil
	}
	if allCare {
		return []Term{{}}
	}
	// A cube fixes the variables of mask to the bits of val; the others
	// are free.
	type cube struct{ mask, val int }
	implicant := map[cube]bool{}
	covers := func(c cube, f func(m int) bool) bool {
		free := (total - 1) &^ c.mask
		for s := free; ; s = (s - 1) & free {
			if !f(c.val | s) {
				return false
			}
			if s == 0 {
				return true
			}
		}
	}
	var cubes []cube
	for mask := 0; mask < total; mask++ {
		for val := mask; ; val = (val - 1) & mask {
			c := cube{mask, val}
			if covers(c, care) {
				implicant[c] = true
				cubes = append(cubes, c)
			}
			if val == 0 {
				break
			}
		}
	}
	var primes []cube
	for _, c := range cubes {
		prime := true
		for i := 0; i < n && prime; i++ {
			if c.mask&(1<<i) != 0 && implicant[cube{c.mask &^ (1 << i), c.val &^ (1 << i)}] {
				prime = false
			}
		}
		if prime {
			primes = append(primes, c)
		}
	}
	sort.SliceStable(primes, func(i, j int) bool {
		if bi, bj := bits.OnesCount(uint(primes[i].mask)), bits.OnesCount(uint(primes[j].mask)); bi != bj {
			return bi < bj
		}
		if primes[i].mask != primes[j].mask {
			return primes[i].mask < primes[j].mask
		}
		return primes[i].val > primes[j].val
	})
	covered := make([]bool, total)
	var chosen []cube
	for {
		best, bestN := -1, 0
		for i, c := range primes {
			k := 0
			free := (total - 1) &^ c.mask
			for s := free; ; s = (s - 1) & free {
				if m := c.val | s; on[m] && !covered[m] {
					k++
				}
				if s == 0 {
					break
				}
			}
			if k > bestN {
				best, bestN = i, k
			}
		}
		if best < 0 {
			break
		}
		c := primes[best]
		chosen = append(chosen, c)
		free := (total - 1) &^ c.mask
		for s := free; ; s = (s - 1) & free {
			covered[c.val|s] = true
			if s == 0 {
				break
			}
		}
	}
	var out []Term
	for _, c := range chosen {
		var t Term
		for i := 0; i < n; i++ {
			if c.mask&(1<<i) != 0 {
				t = append(t, Literal{Var: i, Neg: c.val&(1<<i) == 0})
			}
		}
		out = append(out, t)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		for k := 0; k < len(a) && k < len(b); k++ {
			if a[k].Var != b[k].Var {
				return a[k].Var < b[k].Var
			}
			if a[k].Neg != b[k].Neg {
				return !a[k].Neg
			}
		}
		return len(a) < len(b)
	})
	return out
}

// Eval reports whether a sum of products holds for minterm m.
func Eval(terms []Term, m int) bool {
	for _, t := range terms {
		holds := true
		for _, l := range t {
			if (m&(1<<l.Var) != 0) == l.Neg {
				holds = false
				break
			}
		}
		if holds {
			return true
		}
	}
	return false
}

// Format writes a sum of products with Python's operators: products joined
// by " and ", sums by " or ", a product of several literals parenthesised
// when it is one of several terms. literal writes one literal; inProduct is
// set when it stands beside others in a product (so that the caller can
// parenthesise a literal that is itself an or, a conditional expression or
// a lambda). Format returns "" for no terms (false) and for one empty term
// (true).
func Format(terms []Term, literal func(l Literal, inProduct bool) string) string {
	if len(terms) == 0 || len(terms) == 1 && len(terms[0]) == 0 {
		return ""
	}
	parts := make([]string, 0, len(terms))
	for _, t := range terms {
		lits := make([]string, 0, len(t))
		for _, l := range t {
			lits = append(lits, literal(l, len(t) > 1))
		}
		p := strings.Join(lits, " and ")
		if len(terms) > 1 && len(lits) > 1 {
			p = "(" + p + ")"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " or ")
}
