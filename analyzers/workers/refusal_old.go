//go:build ignore

package workers

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// RefusalKind classifies a server's answer to several workers.
type RefusalKind int

// The kinds of answer.
const (
	RefusesNever  RefusalKind = iota // no override found (or it returns None/"" on every path)
	RefusesAlways                    // every path returns a non-empty reason
	RefusesWhen                      // the reason depends on a condition
)

func (k RefusalKind) String() string {
	switch k {
	case RefusesNever:
		return "never"
	case RefusesAlways:
		return "always"
	case RefusesWhen:
		return "when"
	}
	return "RefusalKind(" + strconv.Itoa(int(k)) + ")"
}

// PathOutcome is what one exit of the refusal method gives.
type PathOutcome int

// The outcomes of a path.
const (
	PathAccepts PathOutcome = iota // returns None, "" or nothing: several workers are fine
	PathRefuses                    // returns a non-empty string: the reason
	PathUnknown                    // returns something gymlint does not evaluate
	PathRaises                     // raises, or an assert fails
)

func (o PathOutcome) String() string {
	switch o {
	case PathAccepts:
		return "accepts"
	case PathRefuses:
		return "refuses"
	case PathUnknown:
		return "unknown"
	case PathRaises:
		return "raises"
	}
	return "PathOutcome(" + strconv.Itoa(int(o)) + ")"
}

// RefusalPath is one way through the refusal method: a return (one branch
// of it, for `A if C else B`), a raise, or the implicit `return None` at the
// end of the body. Paths that no assignment of the conditions reaches are
// left out.
type RefusalPath struct {
	Outcome PathOutcome
	// Reason is the reason's text when Outcome is PathRefuses and the value
	// is a string literal (or a constant bound to one).
	Reason string
	// Value is the source text of the returned expression; "" for a bare
	// return, a raise and the end of the body.
	Value string
	// Conditional is set when the path is taken only under a condition;
	// Condition is that condition as source text, or "" when it cannot be
	// written (it involves a loop, a try, or too many tests).
	Conditional bool
	Condition   string
	// Method and Class are where the path is: the winning override, or a
	// parent's override reached through super().
	Method *pyscan.Function
	Class  gym.ClassRef
	// Return or Raise is the statement (both nil for the end of the body);
	// Guards are its enclosing if/elif tests.
	Return *pyscan.Return
	Raise  *pyscan.Raise
	Guards []pyscan.Guard
	// Span is the statement, or the method's name for the end of the body.
	Span pyscan.Span

	idx int // the path's index in the analysis
}

// Refusal is what a server's multiple_workers_unsupported_reason() answers.
type Refusal struct {
	Kind RefusalKind
	// Method is the override that wins in the MRO, nil if none (or if the
	// name is bound to something other than a def; Kind is then RefusesWhen
	// with an unknown Condition).
	Method *pyscan.Function
	// Class is where the override is defined.
	Class gym.ClassRef
	// Reason is the literal reason text when every refusing path returns
	// the same string literal; "" otherwise (f-strings, computed values).
	Reason string
	// Condition is, for RefusesWhen, the condition under which it refuses,
	// as source text (e.g. `self.config.metrics_source == "prometheus"`);
	// "" when it is not known (the method delegates, returns a computed
	// value on some path, loops, or tests too many things).
	Condition string
	// Paths are the method's reachable exits, in source order.
	Paths []RefusalPath
	// Uncertain is set when the ancestry runs through a class gymlint could
	// not resolve, or the method's module has a syntax error: another
	// definition might win, or the method might be read wrong. Rules say
	// nothing about uncertain refusals.
	Uncertain bool

	prog  *rfProgram
	atoms []*rfAtom
}

// Analyze reads the refusal of a server class.
func Analyze(v *gym.View, s gym.Server) Refusal {
	var r Refusal
	if s.Class.Class == nil {
		r.Uncertain = true
		return r
	}
	def := v.Lookup(s.Class, Method)
	if !def.Found() {
		r.Kind = RefusesNever
		r.Uncertain = def.Uncertain
		return r
	}
	r.Class = def.Class
	r.Uncertain = def.Uncertain || def.Class.Module.SyntaxError != nil
	if def.Method == nil {
		// Bound to a value (an alias of another function, a lambda):
		// gymlint does not follow it.
		r.Kind = RefusesWhen
		return r
	}
	r.Method = def.Method
	b := &rfBuilder{v: v, server: s.Class, atomIdx: map[string]int{}, texts: map[string][]byte{}}
	b.mro, _ = v.MRO(s.Class)
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
	if n > rfMaxAtoms {
		r.Kind = RefusesWhen
		for _, p := range b.paths {
			p.Conditional = true
			r.Paths = append(r.Paths, p.RefusalPath)
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
		rfSetAssign(assign, m)
		p := prog.eval(assign)
		taken[p][m] = true
		o := b.paths[p].Outcome
		seen[o] = true
		on[m] = o == PathRefuses
		dc[m] = o == PathRaises
	}
	refuses, accepts, unknown := seen[PathRefuses], seen[PathAccepts], seen[PathUnknown]
	switch {
	case refuses && !accepts && !unknown:
		r.Kind = RefusesAlways
	case !refuses && !unknown && accepts:
		r.Kind = RefusesNever
	default:
		r.Kind = RefusesWhen
		if !unknown && refuses && n <= rfMaxMinimize {
			r.Condition = b.render(rfMinimize(n, on, dc))
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
			if n <= rfMaxMinimize {
				p.Condition = b.render(rfMinimize(n, taken[i], nil))
			}
		}
		if p.Outcome == PathRefuses {
			literal = literal && p.literal
			reasons[p.Reason] = true
		}
		r.Paths = append(r.Paths, p.RefusalPath)
	}
	if literal && len(reasons) == 1 {
		for s := range reasons {
			r.Reason = s
		}
	}
	return r
}

func rfSetAssign(assign []bool, m int) {
	for i := range assign {
		assign[i] = m&(1<<i) != 0
	}
}

// Verdict is the answer of a refusal for one config.
type Verdict int

// The verdicts.
const (
	Undecided     Verdict = iota // it depends on something the config does not give
	VerdictRefuse                // the server refuses several workers with this config
	VerdictAccept                // the server accepts several workers with this config
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
	// leaves open returns the same literal; Value is the source text of the
	// refusing value when there is one path and it is not a literal.
	Reason string
	Value  string
	// Fields are the config fields whose values decided it, in the order
	// the method tests them.
	Fields []FieldValue
	// Paths are the refusing paths the config leaves open.
	Paths []RefusalPath
}

// Decide evaluates the refusal against a config instance's settings (the
// mapping under the server dir key). Only simple tests of the server's own
// config fields are decided (`self.config.x == "lit"`, `!=`, `in (...)`,
// truthiness, `is None`, `is not None`, `<`, `<=`, `>`, `>=` against a
// number), and only when the YAML gives the field a literal value: an
// interpolation (`${...}`), `???`, a field the YAML does not set, or a
// value whose type does not match the test leaves the test open. The
// verdict is VerdictRefuse when every path the config leaves open refuses
// (or raises) and at least one refuses, VerdictAccept when every open path
// accepts (or raises), and Undecided otherwise.
func (r Refusal) Decide(settings *configscan.Node) Decision {
	if r.Uncertain {
		return Decision{}
	}
	if r.prog == nil {
		if r.Kind == RefusesNever {
			return Decision{Verdict: VerdictAccept}
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
	case seen[PathRefuses] && !seen[PathAccepts] && !seen[PathUnknown]:
		d.Verdict = VerdictRefuse
	case seen[PathAccepts] && !seen[PathRefuses] && !seen[PathUnknown]:
		d.Verdict = VerdictAccept
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
	if d.Verdict == VerdictRefuse {
		reasons := map[string]bool{}
		literal := true
		for _, p := range r.Paths {
			if p.Outcome != PathRefuses || !open[p.idx] {
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
			d.Value = d.Paths[0].Value
		}
	}
	return d
}

// outcomes enumerates the assignments that agree with fixed and returns
// which outcomes occur and which refusing paths (by index) are taken. ok
// is false when too many tests are open.
func (r Refusal) outcomes(fixed []int8) (seen [4]bool, open map[int]bool, ok bool) {
	var free []int
	for i, f := range fixed {
		if f < 0 {
			free = append(free, i)
		}
	}
	if len(free) > rfMaxAtoms {
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
		if p.Outcome == PathRefuses {
			open[i] = true
		}
	}
	return seen, open, true
}

// WorkerStatus summarises how a server answers several workers.
type WorkerStatus struct {
	Kind      string // one of the Status* constants
	Reason    string // the literal reason, for the refusing kinds
	Condition string // for StatusRefusesWhen: when it refuses ("" unknown)
	HasApp    bool   // the entrypoint has a module-level app
}

// String renders the status for a listing: "app", "refuses always",
// "refuses when: <condition>", "refuses when: (condition not known
// statically)", "no app", "undeclared", "exempt" or "unknown"; a refusing
// server that also has a module-level app gets " (+app)".
func (s WorkerStatus) String() string {
	out := s.Kind
	if s.Kind == StatusRefusesWhen {
		if s.Condition != "" {
			out += ": " + s.Condition
		} else {
			out += ": (condition not known statically)"
		}
	}
	if s.HasApp && (s.Kind == StatusRefusesAlways || s.Kind == StatusRefusesWhen) {
		out += " (+app)"
	}
	return out
}

// Status summarises a server of an entrypoint for the inventory.
func Status(v *gym.View, e *gym.Entrypoint, s gym.Server) WorkerStatus {
	var st WorkerStatus
	if e.Module != nil {
		st.HasApp = gym.HasModuleApp(e.Module) != nil
	}
	switch {
	case e.Exemption != nil:
		st.Kind = StatusExempt
		return st
	case e.Module == nil || e.Module.SyntaxError != nil:
		st.Kind = StatusUnknown
		return st
	}
	r := Analyze(v, s)
	switch r.Kind {
	case RefusesAlways:
		st.Kind, st.Reason = StatusRefusesAlways, r.Reason
	case RefusesWhen:
		st.Kind, st.Reason, st.Condition = StatusRefusesWhen, r.Reason, r.Condition
	default:
		switch {
		case st.HasApp:
			st.Kind = StatusApp
		case r.Uncertain:
			st.Kind = StatusUnknown
		case r.Method != nil:
			st.Kind = StatusNoApp
		default:
			st.Kind = StatusUndeclared
		}
	}
	return st
}

// rfWho names the refusal method of a server for a message:
// "EchoServer.multiple_workers_unsupported_reason()", or, when the method
// is inherited, "EchoServer's multiple_workers_unsupported_reason()
// (inherited from Base in path)".
func rfWho(s gym.Server, r Refusal) string {
	if r.Class.Class == nil || r.Class.Class == s.Class.Class {
		return s.Class.Class.Name + "." + Method + "()"
	}
	from := r.Class.Class.Name
	if r.Class.Module != s.Class.Module {
		from += " in " + r.Class.Module.Path
	}
	return fmt.Sprintf("%s's %s() (inherited from %s)", s.Class.Class.Name, Method, from)
}

type rfPath struct {
	RefusalPath
	literal bool // the refusing value is a literal (Reason may still be "")
}

type rfProgram struct {
	exits []rfExit
	end   *rfValue
	paths []rfPath // shared by every program of one analysis
}

type rfExit struct {
	guard *rfBool // nil: always
	val   *rfValue
}

// rfValue is what an exit gives: a path (term >= 0), a choice between two
// values (`A if C else B`), or another method's program (super()).
type rfValue struct {
	term int
	cond *rfBool
	a, b *rfValue
	sub  *rfProgram
}

func (p *rfProgram) eval(assign []bool) int {
	for _, x := range p.exits {
		if x.guard == nil || x.guard.eval(assign) {
			return x.val.eval(assign)
		}
	}
	return p.end.eval(assign)
}

func (v *rfValue) eval(assign []bool) int {
	switch {
	case v.sub != nil:
		return v.sub.eval(assign)
	case v.cond != nil:
		if v.cond.eval(assign) {
			return v.a.eval(assign)
		}
		return v.b.eval(assign)
	}
	return v.term
}

// rfBool is a boolean formula over atoms.
type rfBool struct {
	op   byte // 'a' atom, '!' not, '&' and, '|' or, 't' true, 'f' false
	atom int
	kids []*rfBool
}

var (
	rfTrue  = &rfBool{op: 't'}
	rfFalse = &rfBool{op: 'f'}
)

func (b *rfBool) eval(assign []bool) bool {
	switch b.op {
	case 'a':
		return assign[b.atom]
	case '!':
		return !b.kids[0].eval(assign)
	case '&':
		for _, k := range b.kids {
			if !k.eval(assign) {
				return false
			}
		}
		return true
	case '|':
		for _, k := range b.kids {
			if k.eval(assign) {
				return true
			}
		}
		return false
	case 't':
		return true
	}
	return false
}

func rfNot(b *rfBool) *rfBool { return &rfBool{op: '!', kids: []*rfBool{b}} }

type rfAtomKind int

const (
	rfOpaque     rfAtomKind = iota // a test gymlint does not decide
	rfTruthy                       // self.config.x
	rfIsNone                       // self.config.x is None
	rfEq                           // self.config.x == lit
	rfIn                           // self.config.x in (lit, ...)
	rfGt                           // self.config.x > n
	rfGe                           // self.config.x >= n
	rfStruct                       // a statement inside a loop/try/match is reached
	rfAssertFail                   // an assert fails
)

type rfLiteral struct {
	kind byte // 's' str, 'n' number, 'b' bool, '0' None
	s    string
	n    float64
	b    bool
}

type rfAtom struct {
	kind     rfAtomKind
	key      string
	pos, neg string   // how the atom reads, and its negation
	field    []string // the config path, for decidable atoms
	lits     []rfLiteral
	num      float64
	noSource bool // pos/neg are descriptions, not source text
}

func (b *rfBuilder) atom(a *rfAtom) *rfBool {
	if i, ok := b.atomIdx[a.key]; ok {
		return &rfBool{op: 'a', atom: i}
	}
	b.atomIdx[a.key] = len(b.atoms)
	b.atoms = append(b.atoms, a)
	return &rfBool{op: 'a', atom: len(b.atoms) - 1}
}

type rfBuilder struct {
	v         *gym.View
	server    gym.ClassRef
	mro       []gym.Ancestor
	atoms     []*rfAtom
	atomIdx   map[string]int
	paths     []rfPath
	texts     map[string][]byte
	uncertain bool
}

func (b *rfBuilder) term(p rfPath) *rfValue {
	b.paths = append(b.paths, p)
	return &rfValue{term: len(b.paths) - 1}
}

func (b *rfBuilder) source(path string) []byte {
	if t, ok := b.texts[path]; ok {
		return t
	}
	t, err := b.v.Source(path)
	if err != nil {
		t = nil
	}
	b.texts[path] = t
	return t
}

type rfStmt struct {
	off int
	ret *pyscan.Return
	rai *pyscan.Raise
}

func (b *rfBuilder) method(cls gym.ClassRef, fn *pyscan.Function, depth int) *rfProgram {
	prog := &rfProgram{}
	recv := fn.Receiver()
	src := b.source(cls.Module.Path)
	if src == nil {
		b.uncertain = true
	}
	var stmts []rfStmt
	for _, r := range fn.Returns {
		stmts = append(stmts, rfStmt{off: r.Span.Start.Offset, ret: r})
	}
	for _, r := range fn.Raises {
		stmts = append(stmts, rfStmt{off: r.Span.Start.Offset, rai: r})
	}
	sort.SliceStable(stmts, func(i, j int) bool { return stmts[i].off < stmts[j].off })
	for _, st := range stmts {
		var guards []pyscan.Guard
		var span pyscan.Span
		if st.ret != nil {
			guards, span = st.ret.Guards, st.ret.Span
		} else {
			guards, span = st.rai.Guards, st.rai.Span
		}
		var conj []*rfBool
		for _, g := range guards {
			c := b.cond(g.Cond.Text, recv)
			if g.Negated {
				c = rfNot(c)
			}
			conj = append(conj, c)
		}
		if src != nil {
			if kw, line, ok := rfEnclosingBlock(src, fn, span.Start); ok {
				conj = append(conj, b.atom(&rfAtom{
					kind: rfStruct, key: fmt.Sprintf("struct@%s:%d", cls.Module.Path, span.Start.Offset),
					pos:      fmt.Sprintf("<the statement at line %d in the %s block at line %d is reached>", span.Start.Line, kw, line),
					neg:      fmt.Sprintf("<the statement at line %d in the %s block at line %d is not reached>", span.Start.Line, kw, line),
					noSource: true,
				}))
			}
		}
		path := rfPath{RefusalPath: RefusalPath{Method: fn, Class: cls, Guards: guards, Span: span}}
		var val *rfValue
		if st.rai != nil {
			path.Raise = st.rai
			path.Outcome = PathRaises
			if st.rai.Assert {
				// An assert is a raise when its test fails.
				conj = append(conj, b.atom(&rfAtom{
					kind: rfAssertFail, key: fmt.Sprintf("assert@%s:%d", cls.Module.Path, span.Start.Offset),
					pos:      fmt.Sprintf("<the assert at line %d fails>", span.Start.Line),
					neg:      fmt.Sprintf("<the assert at line %d holds>", span.Start.Line),
					noSource: true,
				}))
			}
			val = b.term(path)
		} else {
			path.Return = st.ret
			if st.ret.Value == nil {
				path.Outcome = PathAccepts
				val = b.term(path)
			} else {
				val = b.value(rfParse(st.ret.Value.Text), st.ret.Value.Text, path, cls, recv, depth)
			}
		}
		var guard *rfBool
		if len(conj) == 1 {
			guard = conj[0]
		} else if len(conj) > 1 {
			guard = &rfBool{op: '&', kids: conj}
		}
		prog.exits = append(prog.exits, rfExit{guard: guard, val: val})
	}
	prog.end = b.term(rfPath{RefusalPath: RefusalPath{Outcome: PathAccepts, Method: fn, Class: cls, Span: fn.NameSpan}})
	return prog
}

var rfSuperCall = regexp.MustCompile(`^super\(\s*(?:[A-Za-z_][\w.]*\s*,\s*[A-Za-z_]\w*\s*,?\s*)?\)\s*\.\s*` + Method + `\(\s*\)$`)

// value classifies a returned expression.
func (b *rfBuilder) value(n *rfNode, text string, path rfPath, cls gym.ClassRef, recv string, depth int) *rfValue {
	path.Value = rfOneLine(text)
	if n == nil {
		path.Outcome = PathUnknown
		return b.term(path)
	}
	switch n.kind {
	case rnConst:
		if n.text == "None" {
			path.Outcome = PathAccepts
		} else {
			path.Outcome = PathUnknown
		}
	case rnStr:
		switch {
		case n.bytes:
			path.Outcome = PathUnknown
		case n.str == "":
			path.Outcome = PathAccepts
		default:
			path.Outcome, path.Reason, path.literal = PathRefuses, n.str, true
		}
	case rnFStr:
		if n.hasText {
			path.Outcome = PathRefuses
		} else {
			path.Outcome = PathUnknown
		}
	case rnTernary:
		return &rfValue{
			term: -1,
			cond: b.boolOf(n.kids[1], recv),
			a:    b.value(n.kids[0], n.kids[0].text, path, cls, recv, depth),
			b:    b.value(n.kids[2], n.kids[2].text, path, cls, recv, depth),
		}
	case rnBin:
		path.Outcome = PathUnknown
		switch n.op {
		case "+":
			for _, k := range n.kids {
				if (k.kind == rnStr && !k.bytes && k.str != "") || (k.kind == rnFStr && k.hasText) {
					path.Outcome = PathRefuses
				}
			}
		case "%":
			if l := n.kids[0]; l.kind == rnStr && !l.bytes && l.str != "" {
				path.Outcome = PathRefuses
			}
		}
	case rnCall:
		path.Outcome = PathUnknown
		if c := n.kids[0]; c.kind == rnAttr && c.op == "format" && c.kids[0].kind == rnStr && rfFormatHasText(c.kids[0]) {
			path.Outcome = PathRefuses
			break
		}
		if rfSuperCall.MatchString(rfSquash(n.text)) {
			return b.superValue(path, cls, depth)
		}
	case rnName:
		path.Outcome = PathUnknown
		if s, ok := b.constant(n.dotted, cls, recv); ok {
			if s == "" {
				path.Outcome = PathAccepts
			} else {
				path.Outcome, path.Reason, path.literal = PathRefuses, s, true
			}
		}
	default:
		path.Outcome = PathUnknown
	}
	return b.term(path)
}

// superValue follows super().multiple_workers_unsupported_reason() to the
// next definition in the server's MRO.
func (b *rfBuilder) superValue(path rfPath, cls gym.ClassRef, depth int) *rfValue {
	path.Outcome = PathUnknown
	i := 0
	for ; i < len(b.mro); i++ {
		if b.mro[i].Class.Class == cls.Class {
			break
		}
	}
	for i++; i < len(b.mro); i++ {
		a := b.mro[i]
		switch a.Kind {
		case gym.Own:
			if a.Class.Module.SyntaxError != nil {
				b.uncertain = true
				return b.term(path)
			}
			m := a.Class.Class.Method(Method)
			at := a.Class.Class.Attr(Method)
			if m == nil && at == nil {
				continue
			}
			if m == nil || (at != nil && at.StmtSpan.Start.Offset > m.Span.Start.Offset) || depth >= rfMaxDepth {
				return b.term(path)
			}
			return &rfValue{term: -1, sub: b.method(a.Class, m, depth+1)}
		case gym.FrameworkServer:
			// The framework's default returns None.
			path.Outcome = PathAccepts
			return b.term(path)
		case gym.Unresolved:
			return b.term(path)
		}
	}
	return b.term(path)
}

// constant resolves a returned name to a string literal: a module-level
// name bound exactly once, unconditionally, to a string literal in the
// method's module, or `self.NAME` where NAME is a class attribute annotated
// ClassVar (or Final) and bound to a string literal.
func (b *rfBuilder) constant(dotted string, cls gym.ClassRef, recv string) (string, bool) {
	if !strings.Contains(dotted, ".") {
		var found *pyscan.Binding
		for _, bd := range cls.Module.Bindings {
			if bd.Name != dotted {
				continue
			}
			if found != nil {
				return "", false
			}
			found = bd
		}
		if found == nil || found.Value == nil || found.Where.Conditional || found.Where.InTry ||
			(found.Kind != pyscan.BindAssign && found.Kind != pyscan.BindAnnAssign) {
			return "", false
		}
		return rfStringLiteral(found.Value.Text)
	}
	name, ok := strings.CutPrefix(dotted, recv+".")
	if recv == "" || !ok || strings.Contains(name, ".") {
		return "", false
	}
	def := b.v.Lookup(b.server, name)
	if !def.Found() || def.Uncertain || def.Attr == nil || def.Attr.Value == nil {
		return "", false
	}
	if !strings.Contains(def.Attr.Annotation, "ClassVar") && !strings.Contains(def.Attr.Annotation, "Final") {
		return "", false
	}
	return rfStringLiteral(def.Attr.Value.Text)
}

func rfStringLiteral(text string) (string, bool) {
	n := rfParse(text)
	if n == nil || n.kind != rnStr || n.bytes {
		return "", false
	}
	return n.str, true
}

// cond turns a guard's test into a formula.
func (b *rfBuilder) cond(text, recv string) *rfBool {
	n := rfParse(text)
	if n == nil {
		t := rfOneLine(text)
		return b.atom(&rfAtom{kind: rfOpaque, key: "?" + rfSquash(t), pos: t, neg: "not (" + t + ")"})
	}
	return b.boolOf(n, recv)
}

func (b *rfBuilder) boolOf(n *rfNode, recv string) *rfBool {
	switch n.kind {
	case rnNot:
		return rfNot(b.boolOf(n.kids[0], recv))
	case rnAnd, rnOr:
		op := byte('&')
		if n.kind == rnOr {
			op = '|'
		}
		out := &rfBool{op: op}
		for _, k := range n.kids {
			out.kids = append(out.kids, b.boolOf(k, recv))
		}
		return out
	case rnConst:
		if n.text == "True" {
			return rfTrue
		}
		return rfFalse
	case rnStr:
		if n.str != "" {
			return rfTrue
		}
		return rfFalse
	case rnNum:
		if n.num != 0 {
			return rfTrue
		}
		return rfFalse
	case rnName:
		if f := rfField(n, recv); f != nil {
			t := "self.config." + strings.Join(f, ".")
			return b.atom(&rfAtom{kind: rfTruthy, key: "truthy:" + strings.Join(f, "."), field: f, pos: t, neg: "not " + t})
		}
	case rnCmp:
		return b.compare(n, recv)
	}
	t := rfOneLine(n.text)
	neg := "not " + t
	if strings.ContainsAny(t, " ") {
		neg = "not (" + t + ")"
	}
	return b.atom(&rfAtom{kind: rfOpaque, key: "?" + rfSquash(t), pos: t, neg: neg})
}

// rfField returns the config path of `self.config.a.b`, or nil.
func rfField(n *rfNode, recv string) []string {
	if n.kind != rnName || recv == "" {
		return nil
	}
	rest, ok := strings.CutPrefix(n.dotted, recv+".config.")
	if !ok || rest == "" {
		return nil
	}
	return strings.Split(rest, ".")
}

var rfNegOp = map[string]string{
	"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">",
	"is": "is not", "is not": "is", "in": "not in", "not in": "in",
}

// rfCanonOp: the operator an atom is stored under; the others are its
// negations.
var rfCanonOp = map[string]bool{"==": true, ">": true, ">=": true, "is": true, "in": true}

var rfFlipOp = map[string]string{"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}

func (b *rfBuilder) compare(n *rfNode, recv string) *rfBool {
	l, r, op := n.kids[0], n.kids[1], n.op
	field := rfField(l, recv)
	lit, litOK := rfLiteralOf(r)
	if field == nil {
		if f := rfField(r, recv); f != nil {
			if fl, ok := rfFlipOp[op]; ok {
				if ll, ok := rfLiteralOf(l); ok {
					field, lit, litOK, op, l, r = f, ll, true, fl, r, l
				}
			}
		}
	}
	if field != nil {
		if a := b.fieldAtom(field, op, lit, litOK, r); a != nil {
			return a
		}
	}
	// An opaque comparison, stored under its canonical operator so that
	// `a != b` and `a == b` are one atom.
	lt, rt := rfOneLine(l.text), rfOneLine(r.text)
	canon, negated := op, false
	if !rfCanonOp[op] {
		canon, negated = rfNegOp[op], true
	}
	a := b.atom(&rfAtom{kind: rfOpaque, key: "?" + rfSquash(lt) + " " + canon + " " + rfSquash(rt),
		pos: lt + " " + canon + " " + rt, neg: lt + " " + rfNegOp[canon] + " " + rt})
	if negated {
		return rfNot(a)
	}
	return a
}

func (b *rfBuilder) fieldAtom(field []string, op string, lit []rfLiteral, litOK bool, r *rfNode) *rfBool {
	if !litOK {
		return nil
	}
	path := strings.Join(field, ".")
	t := "self.config." + path
	rt := rfOneLine(r.text)
	single := len(lit) == 1 && r.kind != rnTuple
	switch {
	case single && (op == "is" || op == "is not" || op == "==" || op == "!=") && lit[0].kind == '0':
		a := b.atom(&rfAtom{kind: rfIsNone, key: "none:" + path, field: field, pos: t + " is None", neg: t + " is not None"})
		if op == "is not" || op == "!=" {
			return rfNot(a)
		}
		return a
	case single && (op == "==" || op == "!=" || ((op == "is" || op == "is not") && lit[0].kind == 'b')):
		eq, ne := "==", "!="
		if op == "is" || op == "is not" {
			eq, ne = "is", "is not"
		}
		a := b.atom(&rfAtom{kind: rfEq, key: "eq:" + path + ":" + lit[0].key(), field: field, lits: lit,
			pos: t + " " + eq + " " + rt, neg: t + " " + ne + " " + rt})
		if op == "!=" || op == "is not" {
			return rfNot(a)
		}
		return a
	case (op == "in" || op == "not in") && r.kind == rnTuple:
		keys := make([]string, len(lit))
		for i, l := range lit {
			keys[i] = l.key()
		}
		sort.Strings(keys)
		a := b.atom(&rfAtom{kind: rfIn, key: "in:" + path + ":" + strings.Join(keys, ","), field: field, lits: lit,
			pos: t + " in " + rt, neg: t + " not in " + rt})
		if op == "not in" {
			return rfNot(a)
		}
		return a
	case single && (op == "<" || op == "<=" || op == ">" || op == ">=") && lit[0].kind == 'n':
		canon, negated := op, false
		if op == "<" || op == "<=" {
			canon, negated = rfNegOp[op], true
		}
		kind := rfGt
		if canon == ">=" {
			kind = rfGe
		}
		a := b.atom(&rfAtom{kind: kind, key: canon + ":" + path + ":" + lit[0].key(), field: field, num: lit[0].n,
			pos: t + " " + canon + " " + rt, neg: t + " " + rfNegOp[canon] + " " + rt})
		if negated {
			return rfNot(a)
		}
		return a
	}
	return nil
}

func (l rfLiteral) key() string {
	switch l.kind {
	case 's':
		return strconv.Quote(l.s)
	case 'n':
		return strconv.FormatFloat(l.n, 'g', -1, 64)
	case 'b':
		return strconv.FormatBool(l.b)
	}
	return "None"
}

// rfLiteralOf reads a literal operand: a string, a number, True, False,
// None, or a tuple/list/set of those.
func rfLiteralOf(n *rfNode) ([]rfLiteral, bool) {
	switch n.kind {
	case rnStr:
		if n.bytes {
			return nil, false
		}
		return []rfLiteral{{kind: 's', s: n.str}}, true
	case rnNum:
		return []rfLiteral{{kind: 'n', n: n.num}}, true
	case rnConst:
		switch n.text {
		case "True":
			return []rfLiteral{{kind: 'b', b: true}}, true
		case "False":
			return []rfLiteral{{kind: 'b', b: false}}, true
		}
		return []rfLiteral{{kind: '0'}}, true
	case rnTuple:
		var out []rfLiteral
		for _, k := range n.kids {
			l, ok := rfLiteralOf(k)
			if !ok || k.kind == rnTuple {
				return nil, false
			}
			out = append(out, l...)
		}
		return out, true
	}
	return nil, false
}

// rfYAML is a config value as Python would see it after OmegaConf and
// pydantic, as far as gymlint can tell.
type rfYAML struct {
	kind byte // '0' null, 'b' bool, 'n' number, 's' string, 'm' mapping, 'q' sequence, '?' unknown
	b    bool
	n    float64
	s    string
	size int
}

var rfDecimal = regexp.MustCompile(`^[-+]?[0-9]+$`)

func rfYAMLOf(n *configscan.Node) rfYAML {
	switch n.Kind {
	case configscan.NullNode:
		return rfYAML{kind: '0'}
	case configscan.MappingNode:
		return rfYAML{kind: 'm', size: len(n.Pairs)}
	case configscan.SequenceNode:
		return rfYAML{kind: 'q', size: len(n.Items)}
	}
	switch n.Tag {
	case "!!null":
		return rfYAML{kind: '0'}
	case "!!bool":
		switch strings.ToLower(n.Value) {
		case "true":
			return rfYAML{kind: 'b', b: true}
		case "false":
			return rfYAML{kind: 'b', b: false}
		}
	case "!!int":
		if rfDecimal.MatchString(n.Value) {
			if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
				return rfYAML{kind: 'n', n: f}
			}
		}
	case "!!float":
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil && !strings.ContainsAny(n.Value, "nN") {
			return rfYAML{kind: 'n', n: f}
		}
	case "!!str":
		if strings.Contains(n.Value, "${") || n.Value == "???" {
			return rfYAML{kind: '?'}
		}
		return rfYAML{kind: 's', s: n.Value}
	}
	return rfYAML{kind: '?'}
}

// rfBoolish are the strings that YAML 1.1 (and so OmegaConf) or pydantic
// may read as booleans: gymlint does not guess which.
var rfBoolish = map[string]bool{
	"y": true, "yes": true, "n": true, "no": true, "on": true, "off": true,
	"true": true, "false": true, "t": true, "f": true, "1": true, "0": true,
}

func (a *rfAtom) eval(settings *configscan.Node) (val, known bool, node *configscan.Node) {
	node = settings
	for _, p := range a.field {
		node = node.Get(p)
		if node == nil {
			return false, false, nil
		}
	}
	y := rfYAMLOf(node)
	if y.kind == '?' {
		return false, false, nil
	}
	switch a.kind {
	case rfTruthy:
		switch y.kind {
		case '0':
			return false, true, node
		case 'b':
			return y.b, true, node
		case 'n':
			return y.n != 0, true, node
		case 's':
			if y.s == "" || rfBoolish[strings.ToLower(y.s)] {
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
	case rfIsNone:
		return y.kind == '0', true, node
	case rfEq, rfIn:
		anyUnknown := false
		for _, l := range a.lits {
			v, k := rfEqual(y, l)
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
	case rfGt, rfGe:
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
		if a.kind == rfGt {
			return x > a.num, true, node
		}
		return x >= a.num, true, node
	}
	return false, false, nil
}

// rfEqual compares a config value with a literal, as `==` would after
// pydantic; known is false when the types leave it open.
func rfEqual(y rfYAML, l rfLiteral) (eq, known bool) {
	if y.kind == '0' {
		return l.kind == '0', true
	}
	if l.kind == '0' {
		return false, y.kind != '?'
	}
	switch l.kind {
	case 's':
		if y.kind == 's' && !rfBoolish[strings.ToLower(y.s)] {
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

type rfLit struct {
	atom int
	neg  bool
}

// rfMinimize returns a smallest-ish sum of products covering the on-set,
// free to include the don't-care set: the prime implicants of on+dc, then a
// greedy cover of the on-set. all is set when on+dc is everything (the
// condition is always true). n is at most rfMaxMinimize: the work grows as
// 3^n cubes, each checked against up to 2^n minterms.
func rfMinimize(n int, on, dc []bool) [][]rfLit {
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
		return [][]rfLit{{}}
	}
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
	bits := func(x int) int {
		k := 0
		for ; x != 0; x &= x - 1 {
			k++
		}
		return k
	}
	sort.SliceStable(primes, func(i, j int) bool {
		if bi, bj := bits(primes[i].mask), bits(primes[j].mask); bi != bj {
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
	var out [][]rfLit
	for _, c := range chosen {
		var t []rfLit
		for i := 0; i < n; i++ {
			if c.mask&(1<<i) != 0 {
				t = append(t, rfLit{atom: i, neg: c.val&(1<<i) == 0})
			}
		}
		out = append(out, t)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		for k := 0; k < len(a) && k < len(b); k++ {
			if a[k].atom != b[k].atom {
				return a[k].atom < b[k].atom
			}
			if a[k].neg != b[k].neg {
				return !a[k].neg
			}
		}
		return len(a) < len(b)
	})
	return out
}

// render writes a sum of products as a Python condition; "" when it is
// empty, always true, or reads a loop/try/assert marker (not source text).
func (b *rfBuilder) render(terms [][]rfLit) string {
	if len(terms) == 0 || (len(terms) == 1 && len(terms[0]) == 0) {
		return ""
	}
	var parts []string
	for _, t := range terms {
		var lits []string
		for _, l := range t {
			a := b.atoms[l.atom]
			if a.noSource {
				return ""
			}
			s := a.pos
			if l.neg {
				s = a.neg
			}
			if len(t) > 1 && a.kind == rfOpaque && rfHasBoolOp(s) {
				s = "(" + s + ")"
			}
			lits = append(lits, s)
		}
		p := strings.Join(lits, " and ")
		if len(terms) > 1 && len(lits) > 1 {
			p = "(" + p + ")"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " or ")
}

func rfHasBoolOp(s string) bool {
	return strings.Contains(s, " or ") || strings.Contains(s, " and ") || strings.Contains(s, " if ")
}

var rfSpaces = regexp.MustCompile(`\s*\n\s*`)

// rfOneLine puts a multi-line expression on one line.
func rfOneLine(s string) string { return strings.TrimSpace(rfSpaces.ReplaceAllString(s, " ")) }

// rfSquash removes all whitespace (for keys and comparisons of source text).
func rfSquash(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			return -1
		}
		return r
	}, s)
}

// rfEnclosingBlock reports whether the statement at pos, in fn, sits in a
// loop, a try statement (or one of its clauses), or a match statement,
// reading the indentation of the lines between the def and the statement:
// each enclosing block's header is the nearest line above with less
// indentation. pyscan's guards cover if/elif/else; `with` never decides
// whether its body runs. A line of a multi-line string that happens to
// start like a header can only make a statement look nested (never the
// reverse), which makes the analysis more conservative.
func rfEnclosingBlock(src []byte, fn *pyscan.Function, pos pyscan.Pos) (kw string, line int, nested bool) {
	lines := rfLines(src)
	defLine := fn.NameSpan.Start.Line
	if pos.Line < 1 || pos.Line > len(lines) || defLine < 1 {
		return "", 0, false
	}
	threshold := pos.Col - 1
	check := func(l int, text string, ind int) (string, bool, bool) {
		k := rfFirstWord(text)
		switch k {
		case "for", "while", "try", "except", "finally", "match", "case":
			return k, true, true
		case "else":
			owner := rfBlockOwner(lines, l, ind, defLine)
			switch owner {
			case "for", "while", "try", "except":
				return owner, true, true
			}
			return "", true, false
		case "if", "elif", "with":
			return "", true, false
		}
		return "", false, false
	}
	// A one-line compound statement: `for x in y: return x`.
	cur := lines[pos.Line-1]
	if threshold <= len(cur) {
		if prefix := strings.TrimLeft(cur[:threshold], " \t"); strings.TrimSpace(prefix) != "" {
			ind := threshold - len(prefix)
			if k, _, bad := check(pos.Line, prefix, ind); bad {
				return k, pos.Line, true
			}
			threshold = ind
		}
	}
	for l := pos.Line - 1; l > defLine; l-- {
		text := lines[l-1]
		trimmed := strings.TrimLeft(text, " \t")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		ind := len(text) - len(trimmed)
		if ind >= threshold {
			continue
		}
		k, header, bad := check(l, trimmed, ind)
		if bad {
			return k, l, true
		}
		if header {
			threshold = ind
		}
	}
	return "", 0, false
}

// rfBlockOwner finds the statement an else clause at line l belongs to.
func rfBlockOwner(lines []string, l, ind, defLine int) string {
	for k := l - 1; k > defLine; k-- {
		text := lines[k-1]
		trimmed := strings.TrimLeft(text, " \t")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		i := len(text) - len(trimmed)
		if i > ind {
			continue
		}
		if i < ind {
			return ""
		}
		switch w := rfFirstWord(trimmed); w {
		case "if", "for", "while", "try":
			return w
		case "elif", "except", "finally", "else":
			continue
		}
		return ""
	}
	return ""
}

func rfLines(src []byte) []string {
	s := strings.ReplaceAll(string(src), "\r\n", "\n")
	return strings.Split(s, "\n")
}

// rfFirstWord returns the keyword a line starts with ("async for" gives
// "for"), or "".
func rfFirstWord(s string) string {
	word := func(s string) (string, string) {
		i := 0
		for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
			i++
		}
		return s[:i], s[i:]
	}
	w, rest := word(s)
	if w == "async" {
		w, _ = word(strings.TrimLeft(rest, " \t"))
	}
	return w
}

type rfNodeKind int

const (
	rnName      rfNodeKind = iota // a name or attribute chain of names (dotted)
	rnAttr                        // an attribute of something else (op = the name)
	rnStr                         // string literal(s)
	rnFStr                        // an f-string, possibly concatenated with literals
	rnNum                         // a number
	rnConst                       // True, False, None
	rnNot                         // not x
	rnAnd                         // a and b and ...
	rnOr                          // a or b or ...
	rnCmp                         // a OP b, one operator (op)
	rnTernary                     // kids: body, test, orelse
	rnBin                         // a OP b for arithmetic and bitwise operators (op)
	rnUnary                       // -x, +x, ~x
	rnCall                        // kids[0] is the callee
	rnSubscript                   // a[...]
	rnTuple                       // (a, b), [a, b], {a, b}
	rnOther                       // chained comparison and the like
)

type rfNode struct {
	kind    rfNodeKind
	text    string
	dotted  string
	op      string
	kids    []*rfNode
	str     string  // decoded string literal
	bytes   bool    // a bytes literal
	hasText bool    // an f-string or format string with literal text
	num     float64 // number value
}

type rfTok struct {
	kind       byte // 'n' name, '1' number, 's' string, 'o' operator
	s          string
	start, end int
}

var rfOps = []string{"**", "//", "==", "!=", "<=", ">=", "<<", ">>", "->", ":=", "...",
	"(", ")", "[", "]", "{", "}", ",", ".", ":", ";", "+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">", "="}

func rfTokenize(src string) ([]rfTok, bool) {
	var toks []rfTok
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
			continue
		case c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
			i += 2
			continue
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		}
		start := i
		if rfIdentStart(c) || c >= 0x80 {
			for i < len(src) && (rfIdentStart(src[i]) || src[i] >= '0' && src[i] <= '9' || src[i] >= 0x80) {
				i++
			}
			if i < len(src) && (src[i] == '\'' || src[i] == '"') && i-start <= 3 && rfStringPrefix(src[start:i]) {
				end, ok := rfStringEnd(src, i)
				if !ok {
					return nil, false
				}
				i = end
				toks = append(toks, rfTok{kind: 's', s: src[start:i], start: start, end: i})
				continue
			}
			toks = append(toks, rfTok{kind: 'n', s: src[start:i], start: start, end: i})
			continue
		}
		if c == '\'' || c == '"' {
			end, ok := rfStringEnd(src, i)
			if !ok {
				return nil, false
			}
			i = end
			toks = append(toks, rfTok{kind: 's', s: src[start:i], start: start, end: i})
			continue
		}
		if c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9' {
			for i < len(src) && (rfIdentStart(src[i]) || src[i] >= '0' && src[i] <= '9' || src[i] == '.' ||
				(src[i] == '+' || src[i] == '-') && (src[i-1] == 'e' || src[i-1] == 'E') && !strings.HasPrefix(strings.ToLower(src[start:i]), "0x")) {
				i++
			}
			toks = append(toks, rfTok{kind: '1', s: src[start:i], start: start, end: i})
			continue
		}
		matched := false
		for _, op := range rfOps {
			if strings.HasPrefix(src[i:], op) {
				i += len(op)
				toks = append(toks, rfTok{kind: 'o', s: op, start: start, end: i})
				matched = true
				break
			}
		}
		if !matched {
			return nil, false
		}
	}
	return toks, true
}

func rfIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func rfStringPrefix(p string) bool {
	switch strings.ToLower(p) {
	case "r", "u", "b", "f", "br", "rb", "fr", "rf":
		return true
	}
	return false
}

// rfStringEnd returns the offset after the string literal whose opening
// quote is at i.
func rfStringEnd(src string, i int) (int, bool) {
	q := src[i]
	triple := strings.HasPrefix(src[i:], strings.Repeat(string(q), 3))
	if triple {
		j := i + 3
		for j < len(src) {
			if src[j] == '\\' {
				j += 2
				continue
			}
			if strings.HasPrefix(src[j:], strings.Repeat(string(q), 3)) {
				return j + 3, true
			}
			j++
		}
		return 0, false
	}
	j := i + 1
	for j < len(src) {
		switch src[j] {
		case '\\':
			j += 2
			continue
		case q:
			return j + 1, true
		case '\n':
			return 0, false
		}
		j++
	}
	return 0, false
}

type rfParser struct {
	src  string
	toks []rfTok
	i    int
	bad  bool
}

// rfParse reads one expression; nil when it is not one gymlint reads.
func rfParse(src string) *rfNode {
	toks, ok := rfTokenize(src)
	if !ok || len(toks) == 0 {
		return nil
	}
	p := &rfParser{src: src, toks: toks}
	n := p.expr(0)
	if p.bad || n == nil || p.i != len(p.toks) {
		return nil
	}
	return n
}

func (p *rfParser) peek() *rfTok {
	if p.i < len(p.toks) {
		return &p.toks[p.i]
	}
	return nil
}

func (p *rfParser) isOp(s string) bool {
	t := p.peek()
	return t != nil && t.kind == 'o' && t.s == s
}

func (p *rfParser) isName(s string) bool {
	t := p.peek()
	return t != nil && t.kind == 'n' && t.s == s
}

func (p *rfParser) fail() *rfNode {
	p.bad = true
	return nil
}

func (p *rfParser) span(start int) string {
	return p.src[p.toks[start].start:p.toks[p.i-1].end]
}

// expr: a conditional expression.
func (p *rfParser) expr(depth int) *rfNode {
	if depth > rfMaxNesting {
		return p.fail()
	}
	start := p.i
	body := p.or(depth + 1)
	if p.bad {
		return nil
	}
	if p.isName("if") {
		p.i++
		test := p.or(depth + 1)
		if p.bad || !p.isName("else") {
			return p.fail()
		}
		p.i++
		orelse := p.expr(depth + 1)
		if p.bad {
			return nil
		}
		return &rfNode{kind: rnTernary, text: p.span(start), kids: []*rfNode{body, test, orelse}}
	}
	return body
}

func (p *rfParser) or(depth int) *rfNode {
	return p.boolChain(depth, "or", rnOr, p.and)
}

func (p *rfParser) and(depth int) *rfNode {
	return p.boolChain(depth, "and", rnAnd, p.not)
}

func (p *rfParser) boolChain(depth int, word string, kind rfNodeKind, next func(int) *rfNode) *rfNode {
	start := p.i
	first := next(depth + 1)
	if p.bad {
		return nil
	}
	if !p.isName(word) {
		return first
	}
	n := &rfNode{kind: kind, kids: []*rfNode{first}}
	for p.isName(word) {
		p.i++
		k := next(depth + 1)
		if p.bad {
			return nil
		}
		n.kids = append(n.kids, k)
	}
	n.text = p.span(start)
	return n
}

func (p *rfParser) not(depth int) *rfNode {
	if depth > rfMaxNesting {
		return p.fail()
	}
	if p.isName("not") {
		start := p.i
		p.i++
		k := p.not(depth + 1)
		if p.bad {
			return nil
		}
		return &rfNode{kind: rnNot, text: p.span(start), kids: []*rfNode{k}}
	}
	return p.comparison(depth + 1)
}

func (p *rfParser) compOp() (string, bool) {
	t := p.peek()
	if t == nil {
		return "", false
	}
	if t.kind == 'o' {
		switch t.s {
		case "==", "!=", "<", ">", "<=", ">=":
			p.i++
			return t.s, true
		}
		return "", false
	}
	if t.kind != 'n' {
		return "", false
	}
	switch t.s {
	case "in":
		p.i++
		return "in", true
	case "is":
		p.i++
		if p.isName("not") {
			p.i++
			return "is not", true
		}
		return "is", true
	case "not":
		if p.i+1 < len(p.toks) && p.toks[p.i+1].kind == 'n' && p.toks[p.i+1].s == "in" {
			p.i += 2
			return "not in", true
		}
	}
	return "", false
}

func (p *rfParser) comparison(depth int) *rfNode {
	start := p.i
	left := p.arith(depth + 1)
	if p.bad {
		return nil
	}
	var ops []string
	kids := []*rfNode{left}
	for {
		op, ok := p.compOp()
		if !ok {
			break
		}
		r := p.arith(depth + 1)
		if p.bad {
			return nil
		}
		ops = append(ops, op)
		kids = append(kids, r)
	}
	switch len(ops) {
	case 0:
		return left
	case 1:
		return &rfNode{kind: rnCmp, op: ops[0], text: p.span(start), kids: kids}
	}
	return &rfNode{kind: rnOther, text: p.span(start), kids: kids}
}

// rfBinLevels are the binary operators by increasing precedence.
var rfBinLevels = [][]string{{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}}

func (p *rfParser) arith(depth int) *rfNode { return p.binary(depth, 0) }

func (p *rfParser) binary(depth, level int) *rfNode {
	if depth > rfMaxNesting {
		return p.fail()
	}
	if level == len(rfBinLevels) {
		return p.unary(depth + 1)
	}
	start := p.i
	left := p.binary(depth+1, level+1)
	if p.bad {
		return nil
	}
	for {
		t := p.peek()
		if t == nil || t.kind != 'o' {
			return left
		}
		found := false
		for _, op := range rfBinLevels[level] {
			if t.s == op {
				found = true
			}
		}
		if !found {
			return left
		}
		p.i++
		right := p.binary(depth+1, level+1)
		if p.bad {
			return nil
		}
		left = &rfNode{kind: rnBin, op: t.s, text: p.span(start), kids: []*rfNode{left, right}}
	}
}

func (p *rfParser) unary(depth int) *rfNode {
	if depth > rfMaxNesting {
		return p.fail()
	}
	start := p.i
	if p.isOp("-") || p.isOp("+") || p.isOp("~") {
		op := p.peek().s
		p.i++
		k := p.unary(depth + 1)
		if p.bad {
			return nil
		}
		if k.kind == rnNum && op != "~" {
			n := *k
			if op == "-" {
				n.num = -n.num
			}
			n.text = p.span(start)
			return &n
		}
		return &rfNode{kind: rnUnary, op: op, text: p.span(start), kids: []*rfNode{k}}
	}
	base := p.primary(depth + 1)
	if p.bad {
		return nil
	}
	if p.isOp("**") {
		p.i++
		e := p.unary(depth + 1)
		if p.bad {
			return nil
		}
		return &rfNode{kind: rnBin, op: "**", text: p.span(start), kids: []*rfNode{base, e}}
	}
	return base
}

var rfKeywords = map[string]bool{
	"and": true, "or": true, "not": true, "if": true, "else": true, "in": true, "is": true,
	"lambda": true, "await": true, "yield": true, "for": true, "async": true, "from": true,
	"def": true, "class": true, "return": true, "import": true, "pass": true, "del": true,
	"global": true, "nonlocal": true, "while": true, "with": true, "try": true, "except": true,
	"finally": true, "raise": true, "assert": true, "break": true, "continue": true, "elif": true, "as": true,
}

func (p *rfParser) primary(depth int) *rfNode {
	start := p.i
	n := p.atom(depth + 1)
	if p.bad {
		return nil
	}
	for {
		switch {
		case p.isOp("."):
			p.i++
			t := p.peek()
			if t == nil || t.kind != 'n' || rfKeywords[t.s] {
				return p.fail()
			}
			p.i++
			if n.kind == rnName {
				n = &rfNode{kind: rnName, dotted: n.dotted + "." + t.s, text: p.span(start)}
			} else {
				n = &rfNode{kind: rnAttr, op: t.s, text: p.span(start), kids: []*rfNode{n}}
			}
		case p.isOp("("):
			if !p.skipBalanced(depth) {
				return p.fail()
			}
			n = &rfNode{kind: rnCall, text: p.span(start), kids: []*rfNode{n}}
		case p.isOp("["):
			if !p.skipBalanced(depth) {
				return p.fail()
			}
			n = &rfNode{kind: rnSubscript, text: p.span(start), kids: []*rfNode{n}}
		default:
			return n
		}
	}
}

// skipBalanced skips a bracketed group (call arguments, a subscript),
// refusing what the reader does not accept inside expressions.
func (p *rfParser) skipBalanced(depth int) bool {
	level := 0
	for p.i < len(p.toks) {
		t := p.toks[p.i]
		p.i++
		if t.kind == 'n' && (t.s == "lambda" || t.s == "yield") {
			return false
		}
		if t.kind != 'o' {
			continue
		}
		switch t.s {
		case "(", "[", "{":
			level++
			if level > rfMaxNesting {
				return false
			}
		case ")", "]", "}":
			level--
			if level == 0 {
				return true
			}
			if level < 0 {
				return false
			}
		case ":=":
			return false
		}
	}
	return false
}

func (p *rfParser) atom(depth int) *rfNode {
	if depth > rfMaxNesting {
		return p.fail()
	}
	t := p.peek()
	if t == nil {
		return p.fail()
	}
	start := p.i
	switch t.kind {
	case 'n':
		switch t.s {
		case "True", "False", "None":
			p.i++
			return &rfNode{kind: rnConst, text: t.s}
		}
		if rfKeywords[t.s] {
			return p.fail()
		}
		p.i++
		return &rfNode{kind: rnName, dotted: t.s, text: t.s}
	case '1':
		p.i++
		v, ok := rfNumber(t.s)
		if !ok {
			return p.fail()
		}
		return &rfNode{kind: rnNum, num: v, text: t.s}
	case 's':
		n := &rfNode{kind: rnStr}
		var sb strings.Builder
		kinds := map[byte]bool{}
		for p.peek() != nil && p.peek().kind == 's' {
			s, f, b, text, ok := rfDecodeString(p.peek().s)
			if !ok {
				return p.fail()
			}
			p.i++
			switch {
			case f:
				kinds['f'] = true
				if text {
					n.hasText = true
				}
			case b:
				kinds['b'] = true
			default:
				kinds['s'] = true
				if s != "" {
					n.hasText = true
				}
			}
			sb.WriteString(s)
		}
		if kinds['b'] && (kinds['s'] || kinds['f']) {
			return p.fail()
		}
		n.bytes = kinds['b']
		if kinds['f'] {
			n.kind = rnFStr
		} else {
			n.str = sb.String()
		}
		n.text = p.span(start)
		return n
	case 'o':
		switch t.s {
		case "(", "[", "{":
			closing := map[string]string{"(": ")", "[": "]", "{": "}"}[t.s]
			p.i++
			var elems []*rfNode
			tuple := t.s != "("
			for !p.isOp(closing) {
				e := p.expr(depth + 1)
				if p.bad {
					return nil
				}
				elems = append(elems, e)
				if p.isOp(",") {
					p.i++
					tuple = true
					continue
				}
				if !p.isOp(closing) {
					return p.fail()
				}
			}
			p.i++
			if t.s == "(" && len(elems) == 0 {
				tuple = true
			}
			if t.s == "{" && len(elems) == 0 {
				return &rfNode{kind: rnOther, text: p.span(start)} // an empty dict
			}
			if !tuple {
				return elems[0]
			}
			return &rfNode{kind: rnTuple, text: p.span(start), kids: elems}
		}
	}
	return p.fail()
}

func rfNumber(s string) (float64, bool) {
	s = strings.ReplaceAll(s, "_", "")
	l := strings.ToLower(s)
	if strings.HasSuffix(l, "j") {
		return 0, false
	}
	if strings.HasPrefix(l, "0x") || strings.HasPrefix(l, "0o") || strings.HasPrefix(l, "0b") {
		v, err := strconv.ParseInt(l, 0, 64)
		return float64(v), err == nil
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// rfDecodeString decodes one string literal token: its value (for plain
// strings), whether it is an f-string or bytes, and whether it has
// literal text (for f-strings: text outside the replacement fields).
func rfDecodeString(tok string) (val string, f, b, hasText, ok bool) {
	i := 0
	for i < len(tok) && tok[i] != '\'' && tok[i] != '"' {
		i++
	}
	prefix := strings.ToLower(tok[:i])
	raw := strings.Contains(prefix, "r")
	f = strings.Contains(prefix, "f")
	b = strings.Contains(prefix, "b")
	body := tok[i:]
	q := 1
	if len(body) >= 6 && (strings.HasPrefix(body, `"""`) || strings.HasPrefix(body, `'''`)) {
		q = 3
	}
	if len(body) < 2*q {
		return "", false, false, false, false
	}
	body = body[q : len(body)-q]
	if f {
		depth := 0
		for j := 0; j < len(body); j++ {
			c := body[j]
			switch {
			case depth == 0 && c == '{' && j+1 < len(body) && body[j+1] == '{':
				hasText = true
				j++
			case depth == 0 && c == '}' && j+1 < len(body) && body[j+1] == '}':
				hasText = true
				j++
			case c == '{':
				depth++
			case c == '}':
				if depth > 0 {
					depth--
				}
			case depth == 0:
				hasText = true
			}
		}
		return "", true, b, hasText, true
	}
	if raw {
		return body, false, b, body != "", true
	}
	var sb strings.Builder
	for j := 0; j < len(body); j++ {
		c := body[j]
		if c != '\\' || j+1 == len(body) {
			sb.WriteByte(c)
			continue
		}
		j++
		switch e := body[j]; e {
		case '\n':
		case '\r':
			if j+1 < len(body) && body[j+1] == '\n' {
				j++
			}
		case '\\', '\'', '"':
			sb.WriteByte(e)
		case 'n':
			sb.WriteByte('\n')
		case 't':
			sb.WriteByte('\t')
		case 'r':
			sb.WriteByte('\r')
		case 'a':
			sb.WriteByte('\a')
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'v':
			sb.WriteByte('\v')
		case 'x', 'u', 'U':
			size := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if b && e != 'x' {
				sb.WriteByte('\\')
				sb.WriteByte(e)
				continue
			}
			if j+1+size > len(body) {
				return "", false, false, false, false
			}
			v, err := strconv.ParseUint(body[j+1:j+1+size], 16, 32)
			if err != nil {
				return "", false, false, false, false
			}
			sb.WriteRune(rune(v))
			j += size
		case '0', '1', '2', '3', '4', '5', '6', '7':
			k := j
			for k < len(body) && k < j+3 && body[k] >= '0' && body[k] <= '7' {
				k++
			}
			v, _ := strconv.ParseUint(body[j:k], 8, 32)
			sb.WriteRune(rune(v))
			j = k - 1
		default:
			// \N{...} and unknown escapes are kept as written.
			sb.WriteByte('\\')
			sb.WriteByte(e)
		}
	}
	val = sb.String()
	return val, false, b, val != "", true
}

// rfFormatHasText reports whether a "...".format() template has text
// outside its replacement fields.
func rfFormatHasText(n *rfNode) bool {
	depth := 0
	s := n.str
	for j := 0; j < len(s); j++ {
		switch c := s[j]; {
		case depth == 0 && (c == '{' || c == '}') && j+1 < len(s) && s[j+1] == c:
			return true
		case c == '{':
			depth++
		case c == '}':
			if depth > 0 {
				depth--
			}
		case depth == 0:
			return true
		}
	}
	return false
}
