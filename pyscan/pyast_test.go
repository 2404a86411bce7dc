package pyscan

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestDifferentialCPython compares pyscan's model with CPython's ast: for
// every Python fixture of the repository and every source of diffShapes,
// testdata/pyast.py (one python3 process for all of them) prints
// CPython's tree in a normalized S-expression, and pyRender prints
// pyscan's model in the same one; the two must be equal, spans included.
//
// The normalized form states pyscan's documented differences from
// CPython's ast rather than hiding them (see ast.go and pyast.py):
//
//   - a call's arguments are one list in source order, each pos, kw, star
//     or starstar (CPython keeps args and keywords apart: pyast.py merges
//     them by position);
//   - a def's or a lambda's parameters are one list in source order, each
//     with its kind, annotation and default (CPython keeps five lists);
//   - a match case's pattern is (Other);
//   - an f-string keeps its literal text and its replacement fields'
//     expressions and format specifications, not their conversions;
//   - `from __future__` imports name nothing;
//   - a str literal spelled with \N{...} is ?N: pyscan keeps those escapes
//     as written (it has no Unicode name table);
//   - floats are compared by value (Python's repr), ints as integers.
//
// Files CPython rejects are not compared; pyscan must then report a
// syntax error too, except for the code tree-sitter-python accepts that
// TestGrammarLeniency lists.
func TestDifferentialCPython(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the differential test against CPython's ast needs it")
	}
	if testing.Short() {
		t.Skip("slow: runs python3 over every fixture")
	}
	files, known := diffCorpus(t)
	var list bytes.Buffer
	for _, f := range files {
		list.WriteString(f + "\n")
	}
	cmd := exec.Command(python, filepath.Join("testdata", "pyast.py"))
	cmd.Stdin = &list
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3 testdata/pyast.py: %v\n%s", err, stderr.String())
	}
	want := parsePyastOutput(t, out)

	p := NewParser(Options{})
	defer p.Close()
	compared, rejected, mismatched := 0, 0, 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m := p.Parse("m.py", src)
		checkInvariants(t, m, src)
		py, ok := want[path]
		if !ok {
			t.Errorf("%s: no output from pyast.py", path)
			continue
		}
		if len(py) == 1 && strings.HasPrefix(py[0], "!error") {
			if strings.HasPrefix(filepath.Base(path), "diff") {
				t.Errorf("%s: CPython rejects a shape that should be valid Python: %s", shortPath(path), py[0])
			}
			rejected++
			if m.SyntaxError == nil {
				if !lenientSource(src) {
					t.Errorf("%s: CPython rejects it (%s) but pyscan reports no syntax error", path, py[0])
				} else {
					t.Logf("%s: CPython rejects it (%s); tree-sitter-python accepts its Python 2 statements", path, py[0])
				}
			}
			continue
		}
		compared++
		if why, ok := known[path]; ok {
			if m.SyntaxError == nil && firstDiff(pyRender(m), py) == "" {
				t.Errorf("%s: pyscan now agrees with CPython; remove it from diffKnown (%s)", shortPath(path), why)
			} else {
				t.Logf("known difference: %s", why)
			}
			continue
		}
		if m.SyntaxError != nil {
			mismatched++
			t.Errorf("%s: CPython parses it but pyscan reports %+v", shortPath(path), *m.SyntaxError)
			continue
		}
		got := pyRender(m)
		if d := firstDiff(got, py); d != "" {
			mismatched++
			t.Errorf("%s: pyscan's model differs from CPython's ast:\n%s", shortPath(path), d)
		}
	}
	t.Logf("%d files compared with CPython's ast (%d rejected by CPython), %d mismatched", compared, rejected, mismatched)
	if compared < 150 {
		t.Errorf("only %d files compared", compared)
	}
}

func shortPath(p string) string {
	if i := strings.Index(p, "diff"); i >= 0 && strings.HasPrefix(filepath.Base(p), "diff") {
		return p[i:]
	}
	return p
}

// lenientSource reports whether src holds code that tree-sitter-python
// parses without error although CPython rejects it (see
// TestGrammarLeniency): Python 2 print and exec statements.
func lenientSource(src []byte) bool {
	return regexp.MustCompile(`(?m)^\s*(print|exec)\s+[^\s(=]`).Match(src)
}

// diffCorpus writes diffShapes and diffKnown to a temporary directory and
// returns their paths with the repository's Python fixtures', and the
// paths of diffKnown's sources with the reason each differs.
func diffCorpus(t *testing.T) ([]string, map[string]string) {
	t.Helper()
	var files []string
	_ = filepath.WalkDir("..", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && p != ".." && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".py") && strings.Contains(filepath.ToSlash(p), "/testdata/") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 150 {
		t.Fatalf("only %d Python fixtures found", len(files))
	}
	dir := t.TempDir()
	for i, src := range diffShapes {
		p := filepath.Join(dir, fmt.Sprintf("diffshape%03d.py", i))
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	known := map[string]string{}
	for i, k := range diffKnown {
		p := filepath.Join(dir, fmt.Sprintf("diffknown%03d.py", i))
		if err := os.WriteFile(p, []byte(k.src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
		known[p] = k.why
	}
	sort.Strings(files)
	return files, known
}

func parsePyastOutput(t *testing.T, out []byte) map[string][]string {
	t.Helper()
	want := map[string][]string{}
	cur := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "=== "); ok {
			cur = p
			want[cur] = []string{}
			continue
		}
		want[cur] = append(want[cur], line)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return want
}

var spanRe = regexp.MustCompile(`@\d+:\d+-\d+:\d+`)

// firstDiff describes the first difference between two renderings: first
// of their structure (spans left out), then of their spans; "" when they
// are equal.
func firstDiff(got, want []string) string {
	strip := func(ls []string) []string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = spanRe.ReplaceAllString(l, "")
		}
		return out
	}
	if d := diffLines(strip(got), strip(want)); d != "" {
		return d
	}
	if d := diffLines(got, want); d != "" {
		return "spans: " + d
	}
	return ""
}

func diffLines(got, want []string) string {
	for i := 0; i < len(got) || i < len(want); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g == w {
			continue
		}
		j := 0
		for j < len(g) && j < len(w) && g[j] == w[j] {
			j++
		}
		from := max(0, j-80)
		return fmt.Sprintf("  statement %d, at byte %d:\n  pyscan:  ...%s\n  CPython: ...%s", i+1, j, clip(g[from:]), clip(w[from:]))
	}
	return ""
}

func clip(s string) string {
	if len(s) > 240 {
		return s[:240] + "..."
	}
	return s
}

// pyRender renders a module's model as pyast.py renders CPython's ast.
func pyRender(m *Module) []string {
	r := &pyRenderer{m: m}
	out := make([]string, 0, len(m.Body))
	for _, s := range m.Body {
		r.b.Reset()
		r.stmt(s)
		out = append(out, r.b.String())
	}
	return out
}

type pyRenderer struct {
	m *Module
	b strings.Builder
}

func (r *pyRenderer) w(format string, args ...any) { fmt.Fprintf(&r.b, format, args...) }

func (r *pyRenderer) span(s Span) {
	a, b := r.m.Pos(s.Start), r.m.Pos(s.End)
	ac, bc := a.Col-1, b.Col-1
	// CPython counts the first line's columns after a byte order mark.
	if strings.HasPrefix(r.m.text, "\ufeff") {
		if a.Line == 1 {
			ac -= 3
		}
		if b.Line == 1 {
			bc -= 3
		}
	}
	r.w("@%d:%d-%d:%d", a.Line, ac, b.Line, bc)
}

func pyQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteRune(c)
		default:
			fmt.Fprintf(&b, "\\u{%x}", c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func (r *pyRenderer) exprs(es []Expr) {
	r.w("[")
	for i, e := range es {
		if i > 0 {
			r.w(" ")
		}
		r.expr(e)
	}
	r.w("]")
}

func (r *pyRenderer) body(ss []Stmt) {
	r.w("[")
	for i, s := range ss {
		if i > 0 {
			r.w(" ")
		}
		r.stmt(s)
	}
	r.w("]")
}

func (r *pyRenderer) opt(e Expr) {
	if e == nil {
		r.w("nil")
		return
	}
	r.expr(e)
}

func (r *pyRenderer) params(ps []*Param) {
	r.w("[")
	for i, p := range ps {
		if i > 0 {
			r.w(" ")
		}
		kind := [...]string{ParamNormal: "normal", ParamPosOnly: "posonly", ParamKwOnly: "kwonly", ParamVarArgs: "vararg", ParamVarKwargs: "kwarg"}[p.Kind]
		r.w("(param %s %s ", kind, pyQuote(p.Name))
		r.opt(p.Annotation)
		r.w(" ")
		r.opt(p.Default)
		r.w(")")
	}
	r.w("]")
}

var cmpOpPy = [...]string{Eq: "==", NotEq: "!=", Lt: "<", LtE: "<=", Gt: ">", GtE: ">=", Is: "is", IsNot: "is-not", In: "in", NotIn: "not-in"}

func (r *pyRenderer) expr(e Expr) {
	r.exprNode(e)
	if _, pattern := e.(*Other); !pattern {
		r.span(e.Range())
	}
}

func (r *pyRenderer) exprNode(e Expr) {
	switch e := e.(type) {
	case *Name:
		r.w("(Name %s)", pyQuote(e.Id))
	case *Attribute:
		r.w("(Attribute ")
		r.expr(e.Value)
		r.w(" %s)", pyQuote(e.Attr))
	case *Call:
		r.w("(Call ")
		r.expr(e.Func)
		r.w(" [")
		for i, a := range e.Args {
			if i > 0 {
				r.w(" ")
			}
			switch a.Kind {
			case Positional:
				r.w("(arg pos ")
			case Keyword:
				r.w("(arg kw %s ", pyQuote(a.Name))
			case StarArg:
				r.w("(arg star ")
			case StarStarArg:
				r.w("(arg starstar ")
			}
			r.expr(a.Value)
			r.w(")")
		}
		r.w("])")
	case *Subscript:
		r.w("(Subscript ")
		r.expr(e.Value)
		r.w(" ")
		r.expr(e.Index)
		r.w(")")
	case *Slice:
		r.w("(Slice ")
		r.opt(e.Lower)
		r.w(" ")
		r.opt(e.Upper)
		r.w(" ")
		r.opt(e.Step)
		r.w(")")
	case *Constant:
		r.w("(Const %s)", pyConst(e))
	case *FString:
		for _, p := range e.Parts {
			if p.Value == nil && strings.Contains(p.Lit, `\N{`) {
				r.w("(FString ?N)")
				return
			}
		}
		r.w("(FString [")
		r.fparts(e.Parts)
		r.w("])")
	case *Compare:
		r.w("(Compare ")
		r.expr(e.Left)
		r.w(" [")
		for i, o := range e.Ops {
			if i > 0 {
				r.w(" ")
			}
			r.w("%s", cmpOpPy[o])
		}
		r.w("] ")
		r.exprs(e.Comparators)
		r.w(")")
	case *BoolOp:
		r.w("(BoolOp %s ", e.Op)
		r.exprs(e.Values)
		r.w(")")
	case *UnaryOp:
		r.w("(UnaryOp %s ", [...]string{Not: "not", USub: "-", UAdd: "+", Invert: "~"}[e.Op])
		r.expr(e.Operand)
		r.w(")")
	case *BinOp:
		r.w("(BinOp ")
		r.expr(e.Left)
		r.w(" %s ", e.Op)
		r.expr(e.Right)
		r.w(")")
	case *IfExp:
		r.w("(IfExp ")
		r.expr(e.Test)
		r.w(" ")
		r.expr(e.Body)
		r.w(" ")
		r.expr(e.OrElse)
		r.w(")")
	case *NamedExpr:
		r.w("(NamedExpr ")
		r.expr(e.Target)
		r.w(" ")
		r.expr(e.Value)
		r.w(")")
	case *Await:
		r.w("(Await ")
		r.expr(e.Value)
		r.w(")")
	case *Yield:
		if e.From {
			r.w("(YieldFrom ")
			r.expr(e.Value)
		} else {
			r.w("(Yield ")
			r.opt(e.Value)
		}
		r.w(")")
	case *Lambda:
		r.w("(Lambda ")
		r.params(e.Params)
		r.w(" ")
		r.expr(e.Body)
		r.w(")")
	case *List:
		r.w("(List ")
		r.exprs(e.Elts)
		r.w(")")
	case *Tuple:
		r.w("(Tuple ")
		r.exprs(e.Elts)
		r.w(")")
	case *Set:
		r.w("(Set ")
		r.exprs(e.Elts)
		r.w(")")
	case *Dict:
		r.w("(Dict [")
		for i, it := range e.Items {
			if i > 0 {
				r.w(" ")
			}
			r.w("(kv ")
			r.opt(it.Key)
			r.w(" ")
			r.expr(it.Value)
			r.w(")")
		}
		r.w("])")
	case *Comprehension:
		r.w("(Comp %s ", [...]string{ListComp: "list", SetComp: "set", DictComp: "dict", GeneratorExp: "gen"}[e.Kind])
		r.opt(e.Key)
		r.w(" ")
		r.expr(e.Elt)
		r.w(" [")
		for i, g := range e.Generators {
			if i > 0 {
				r.w(" ")
			}
			r.w("(for %s ", map[bool]string{false: "sync", true: "async"}[g.Async])
			r.expr(g.Target)
			r.w(" ")
			r.expr(g.Iter)
			r.w(" ")
			r.exprs(g.Ifs)
			r.w(")")
		}
		r.w("])")
	case *Starred:
		r.w("(Starred ")
		r.expr(e.Value)
		r.w(")")
	case *Other:
		r.w("(Other)")
	default:
		r.w("(%T)", e)
	}
}

// pyConst renders a constant's value as pyast.py renders CPython's.
func pyConst(c *Constant) string {
	switch c.Kind {
	case ConstNone:
		return "None"
	case ConstTrue:
		return "True"
	case ConstFalse:
		return "False"
	case ConstEllipsis:
		return "..."
	case ConstInt:
		var v big.Int
		if _, ok := v.SetString(c.Value, 0); !ok {
			return "int ?" + c.Value
		}
		return "int " + v.String()
	case ConstFloat:
		return "float " + pyFloat(strings.ReplaceAll(c.Value, "_", ""))
	case ConstComplex:
		return "complex " + pyFloat(strings.ReplaceAll(strings.TrimRight(c.Value, "jJ"), "_", ""))
	case ConstStr:
		if strings.Contains(c.Value, `\N{`) {
			return "str ?N"
		}
		if !utf8.ValidString(c.Value) {
			return "str ?invalid-utf8"
		}
		return "str " + pyQuote(c.Value)
	case ConstBytes:
		if c.Value == "" {
			return `bytes ""`
		}
		return fmt.Sprintf("bytes %x", c.Value)
	}
	return fmt.Sprintf("kind%d", c.Kind)
}

// pyFloat is Python's repr of the float a literal denotes: the shortest
// digits that round-trip, in fixed notation for exponents from -4 to 15
// and in scientific notation (at least two exponent digits) otherwise.
func pyFloat(lit string) string {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !math.IsInf(f, 0) {
		return "?" + lit
	}
	if math.IsInf(f, 1) {
		return "inf"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exps, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(exps)
	digits := strings.Replace(mant, ".", "", 1)
	if exp < -4 || exp >= 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		return fmt.Sprintf("%se%s%02d", m, sign, exp)
	}
	if exp < 0 {
		return "0." + strings.Repeat("0", -exp-1) + digits
	}
	for len(digits) < exp+1 {
		digits += "0"
	}
	frac := digits[exp+1:]
	if frac == "" {
		frac = "0"
	}
	return digits[:exp+1] + "." + frac
}

func (r *pyRenderer) stmt(s Stmt) {
	r.stmtNode(s)
	r.span(s.Range())
}

func (r *pyRenderer) stmtNode(s Stmt) {
	async := func(a bool) string {
		if a {
			return "async"
		}
		return "sync"
	}
	switch s := s.(type) {
	case *Function:
		r.w("(FunctionDef %s %s ", pyQuote(s.Name), async(s.Async))
		r.exprs(s.Decorators)
		r.w(" ")
		r.params(s.Params)
		r.w(" ")
		r.opt(s.ReturnType)
		r.w(" ")
		r.body(s.Body)
		r.w(")")
	case *Class:
		r.w("(ClassDef %s ", pyQuote(s.Name))
		r.exprs(s.Decorators)
		r.w(" ")
		r.exprs(s.Bases)
		r.w(" [")
		for i, k := range s.Keywords {
			if i > 0 {
				r.w(" ")
			}
			if k.Kind == StarStarArg {
				r.w("(kw ** ")
			} else {
				r.w("(kw %s ", pyQuote(k.Name))
			}
			r.expr(k.Value)
			r.w(")")
		}
		r.w("] ")
		r.body(s.Body)
		r.w(")")
	case *Return:
		r.w("(Return ")
		r.opt(s.Value)
		r.w(")")
	case *Delete:
		r.w("(Delete ")
		r.exprs(s.Targets)
		r.w(")")
	case *Assign:
		r.w("(Assign ")
		r.exprs(s.Targets)
		r.w(" ")
		r.expr(s.Value)
		r.w(")")
	case *AugAssign:
		r.w("(AugAssign ")
		r.expr(s.Target)
		r.w(" %s ", s.Op)
		r.expr(s.Value)
		r.w(")")
	case *AnnAssign:
		r.w("(AnnAssign ")
		r.expr(s.Target)
		r.w(" ")
		r.expr(s.Annotation)
		r.w(" ")
		r.opt(s.Value)
		r.w(")")
	case *For:
		r.w("(For %s ", async(s.Async))
		r.expr(s.Target)
		r.w(" ")
		r.expr(s.Iter)
		r.w(" ")
		r.body(s.Body)
		r.w(" ")
		r.body(s.Else)
		r.w(")")
	case *While:
		r.w("(While ")
		r.expr(s.Test)
		r.w(" ")
		r.body(s.Body)
		r.w(" ")
		r.body(s.Else)
		r.w(")")
	case *If:
		r.w("(If ")
		r.expr(s.Test)
		r.w(" ")
		r.body(s.Body)
		r.w(" ")
		r.body(s.Else)
		r.w(")")
	case *With:
		r.w("(With %s [", async(s.Async))
		for i, it := range s.Items {
			if i > 0 {
				r.w(" ")
			}
			r.w("(item ")
			r.expr(it.Context)
			r.w(" ")
			r.opt(it.Target)
			r.w(")")
		}
		r.w("] ")
		r.body(s.Body)
		r.w(")")
	case *Match:
		r.w("(Match ")
		r.expr(s.Subject)
		r.w(" [")
		for i, c := range s.Cases {
			if i > 0 {
				r.w(" ")
			}
			r.w("(case ")
			r.opt(c.Pattern)
			r.w(" ")
			r.opt(c.Guard)
			r.w(" ")
			r.body(c.Body)
			r.w(")")
		}
		r.w("])")
	case *Raise:
		r.w("(Raise ")
		r.opt(s.Exc)
		r.w(" ")
		r.opt(s.Cause)
		r.w(")")
	case *Try:
		r.w("(Try %s ", map[bool]string{false: "plain", true: "star"}[s.Star])
		r.body(s.Body)
		r.w(" [")
		for i, h := range s.Handlers {
			if i > 0 {
				r.w(" ")
			}
			r.w("(handler ")
			r.opt(h.Type)
			r.w(" %s ", pyQuote(h.Name))
			r.body(h.Body)
			r.w(")")
			r.span(h.Span)
		}
		r.w("] ")
		r.body(s.Else)
		r.w(" ")
		r.body(s.Finally)
		r.w(")")
	case *Assert:
		r.w("(Assert ")
		r.expr(s.Test)
		r.w(" ")
		r.opt(s.Msg)
		r.w(")")
	case *ImportStmt:
		switch {
		case s.Future:
			r.w(`(ImportFrom 0 "__future__" [])`)
		case len(s.Names) > 0 && s.Names[0].IsFrom():
			r.w("(ImportFrom %d %s [", s.Names[0].Level, pyQuote(s.Names[0].Module))
			for i, n := range s.Names {
				if i > 0 {
					r.w(" ")
				}
				r.w("(alias %s %s)", pyQuote(n.Name), pyQuote(n.Bound))
			}
			r.w("])")
		default:
			r.w("(Import [")
			for i, n := range s.Names {
				if i > 0 {
					r.w(" ")
				}
				r.w("(alias %s %s)", pyQuote(n.Module), pyQuote(n.Bound))
			}
			r.w("])")
		}
	case *Global:
		if s.Nonlocal {
			r.w("(Nonlocal [")
		} else {
			r.w("(Global [")
		}
		for i, n := range s.Names {
			if i > 0 {
				r.w(" ")
			}
			r.w("%s", pyQuote(n))
		}
		r.w("])")
	case *ExprStmt:
		r.w("(Expr ")
		r.expr(s.Value)
		r.w(")")
	case *Pass:
		r.w("(Pass)")
	case *Break:
		r.w("(Break)")
	case *Continue:
		r.w("(Continue)")
	case *TypeAlias:
		r.w("(TypeAlias %s ", pyQuote(s.Name))
		r.expr(s.Value)
		r.w(")")
	case *BadStmt:
		r.w("(BadStmt)")
	default:
		r.w("(%T)", s)
	}
}

// fparts renders the pieces of an f-string or of a format specification.
func (r *pyRenderer) fparts(ps []FStringPart) {
	for i, p := range ps {
		if i > 0 {
			r.w(" ")
		}
		if p.Value == nil {
			r.w("(lit %s)", pyQuote(p.Lit))
			continue
		}
		r.w("(val ")
		r.expr(p.Value)
		if len(p.Spec) > 0 {
			r.w(" [")
			r.fparts(p.Spec)
			r.w("]")
		}
		r.w(")")
	}
}
