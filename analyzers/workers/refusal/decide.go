package refusal

import (
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/configscan"
)

// Verdict is the answer of a refusal for one config.
type Verdict int

// The verdicts.
const (
	Undecided Verdict = iota // it depends on something the config does not give
	Refuse                   // the server refuses several workers with this config
	Accept                   // the server accepts several workers with this config
)

// FieldValue is a config field that a decision read.
type FieldValue struct {
	Field string           // the path under the server's config, "metrics_source" or "a.b"
	Node  *configscan.Node // its value in the YAML
}

// Decision is what a refusal answers for one config instance.
type Decision struct {
	Verdict Verdict
	// Reason is the literal reason when every refusing path the config
	// leaves open returns the same literal; Value is the source of the
	// refusing value, on one line, when there is one such path and it is
	// not a literal.
	Reason string
	Value  string
	// Fields are the config fields whose values decided it, in the order
	// the method tests them.
	Fields []FieldValue
	// Paths are the refusing paths the config leaves open.
	Paths []Path
}

// Decide evaluates the refusal against a config instance's settings (the
// mapping under the server dir key). Only tests of the server's own config
// fields are decided (`self.config.x == "lit"`, `!=`, `in (...)`,
// truthiness, `is None`, `is not None`, `<`, `<=`, `>`, `>=` against a
// number), and only when the YAML gives the field a literal value: an
// interpolation (`${...}`), `???`, a field the YAML does not set, or a
// value whose type does not match the test leaves the test open. The
// verdict is Refuse when every path the config leaves open refuses (or
// raises) and at least one refuses, Accept when every open path accepts
// (or raises), and Undecided otherwise.
func (r *Result) Decide(settings *configscan.Node) Decision {
	if r.Uncertain {
		return Decision{}
	}
	if r.prog == nil {
		if r.Kind == Never {
			return Decision{Verdict: Accept}
		}
		return Decision{}
	}
	n := len(r.atoms)
	fixed := make([]int8, n) // -1 open, 0 false, 1 true
	nodes := make([]*configscan.Node, n)
	for i, a := range r.atoms {
		fixed[i] = -1
		if a.field == nil || settings == nil {
			continue
		}
		val, known, node := a.eval(settings)
		if known {
			fixed[i] = 0
			if val {
				fixed[i] = 1
			}
			nodes[i] = node
		}
	}
	seen, open, ok := r.outcomes(fixed)
	if !ok {
		return Decision{}
	}
	var d Decision
	switch {
	case seen[Refuses] && !seen[Accepts] && !seen[Unknown]:
		d.Verdict = Refuse
	case seen[Accepts] && !seen[Refuses] && !seen[Unknown]:
		d.Verdict = Accept
	default:
		return Decision{}
	}
	// The fields that matter: those whose value, if it were open, would
	// change the answer.
	for i, a := range r.atoms {
		if fixed[i] < 0 {
			continue
		}
		f := fixed[i]
		fixed[i] = -1
		alt, _, aok := r.outcomes(fixed)
		fixed[i] = f
		if aok && alt == seen {
			continue
		}
		name := strings.Join(a.field, ".")
		dup := false
		for _, fv := range d.Fields {
			if fv.Field == name {
				dup = true
			}
		}
		if !dup {
			d.Fields = append(d.Fields, FieldValue{Field: name, Node: nodes[i]})
		}
	}
	if d.Verdict == Refuse {
		reasons := map[string]bool{}
		literal := true
		for _, p := range r.Paths {
			if p.Outcome != Refuses || !open[p.idx] {
				continue
			}
			d.Paths = append(d.Paths, p)
			if p.Reason == "" {
				literal = false
			}
			reasons[p.Reason] = true
		}
		if literal && len(reasons) == 1 {
			for s := range reasons {
				d.Reason = s
			}
		}
		if len(d.Paths) == 1 && d.Reason == "" {
			d.Value = d.Paths[0].ValueText()
		}
	}
	return d
}

// outcomes enumerates the assignments that agree with fixed and returns
// which outcomes occur and which refusing paths (by index) are taken. ok
// is false when too many tests are open.
func (r *Result) outcomes(fixed []int8) (seen [4]bool, open map[int]bool, ok bool) {
	var free []int
	for i, f := range fixed {
		if f < 0 {
			free = append(free, i)
		}
	}
	if len(free) > maxAtoms {
		return seen, nil, false
	}
	open = map[int]bool{}
	assign := make([]bool, len(fixed))
	for i, f := range fixed {
		assign[i] = f == 1
	}
	for m := 0; m < 1<<len(free); m++ {
		for j, i := range free {
			assign[i] = m&(1<<j) != 0
		}
		i := r.prog.eval(assign)
		p := r.prog.paths[i]
		seen[p.Outcome] = true
		if p.Outcome == Refuses {
			open[i] = true
		}
	}
	return seen, open, true
}

// yamlValue is a config value as Python would see it after OmegaConf and
// pydantic, as far as gymlint can tell.
type yamlValue struct {
	kind byte // '0' null, 'b' bool, 'n' number, 's' string, 'm' mapping, 'q' sequence, '?' unknown
	b    bool
	n    float64
	s    string
	size int
}

// Decimal reports whether s is a decimal integer, with an optional sign:
// what YAML and pydantic both read as an int.
func Decimal(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func yamlOf(n *configscan.Node) yamlValue {
	switch n.Kind {
	case configscan.NullNode:
		return yamlValue{kind: '0'}
	case configscan.MappingNode:
		return yamlValue{kind: 'm', size: len(n.Pairs)}
	case configscan.SequenceNode:
		return yamlValue{kind: 'q', size: len(n.Items)}
	}
	switch n.Tag {
	case "!!null":
		return yamlValue{kind: '0'}
	case "!!bool":
		switch strings.ToLower(n.Value) {
		case "true":
			return yamlValue{kind: 'b', b: true}
		case "false":
			return yamlValue{kind: 'b', b: false}
		}
	case "!!int":
		if Decimal(n.Value) {
			if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
				return yamlValue{kind: 'n', n: f}
			}
		}
	case "!!float":
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil && !strings.ContainsAny(n.Value, "nN") {
			return yamlValue{kind: 'n', n: f}
		}
	case "!!str":
		if strings.Contains(n.Value, "${") || n.Value == "???" {
			return yamlValue{kind: '?'}
		}
		return yamlValue{kind: 's', s: n.Value}
	}
	return yamlValue{kind: '?'}
}

// Boolish reports whether a string is one that YAML 1.1 (and so OmegaConf)
// or pydantic may read as a boolean (yes, off, t, 0, ...): gymlint does not
// guess which.
func Boolish(s string) bool { return boolish[strings.ToLower(s)] }

var boolish = map[string]bool{
	"y": true, "yes": true, "n": true, "no": true, "on": true, "off": true,
	"true": true, "false": true, "t": true, "f": true, "1": true, "0": true,
}

func (a *atom) eval(settings *configscan.Node) (val, known bool, node *configscan.Node) {
	node = settings
	for _, p := range a.field {
		node = node.Get(p)
		if node == nil {
			return false, false, nil
		}
	}
	y := yamlOf(node)
	if y.kind == '?' {
		return false, false, nil
	}
	switch a.kind {
	case truthy:
		switch y.kind {
		case '0':
			return false, true, node
		case 'b':
			return y.b, true, node
		case 'n':
			return y.n != 0, true, node
		case 's':
			if y.s == "" || Boolish(y.s) {
				return false, false, nil
			}
			return true, true, node
		case 'm':
			if y.size == 0 {
				return false, false, nil
			}
			return true, true, node
		case 'q':
			return y.size > 0, true, node
		}
	case isNone:
		return y.kind == '0', true, node
	case equals, within:
		anyUnknown := false
		for _, l := range a.lits {
			v, k := equal(y, l)
			if k && v {
				return true, true, node
			}
			if !k {
				anyUnknown = true
			}
		}
		if anyUnknown {
			return false, false, nil
		}
		return false, true, node
	case greater, atLeast:
		x := y.n
		switch y.kind {
		case 'n':
		case 's':
			f, err := strconv.ParseFloat(strings.TrimSpace(y.s), 64)
			if err != nil || strings.ContainsAny(y.s, "nNxX_") {
				return false, false, nil
			}
			x = f
		default:
			return false, false, nil
		}
		if a.kind == greater {
			return x > a.num, true, node
		}
		return x >= a.num, true, node
	}
	return false, false, nil
}

// equal compares a config value with a literal, as `==` would after
// pydantic; known is false when the types leave it open.
func equal(y yamlValue, l literal) (eq, known bool) {
	if y.kind == '0' {
		return l.kind == '0', true
	}
	if l.kind == '0' {
		return false, y.kind != '?'
	}
	switch l.kind {
	case 's':
		if y.kind == 's' && !Boolish(y.s) {
			return y.s == l.s, true
		}
	case 'n':
		if y.kind == 'n' {
			return y.n == l.n, true
		}
	case 'b':
		if y.kind == 'b' {
			return y.b == l.b, true
		}
	}
	return false, false
}
