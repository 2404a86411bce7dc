package pyscan

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// kind is a node kind of the Python grammar that the model cares about.
type kind uint8

const (
	kOther kind = iota
	kModule
	kBlock
	kExpressionStatement
	kAssignment
	kAugmentedAssignment
	kImportStatement
	kImportFromStatement
	kFutureImportStatement
	kAliasedImport
	kDottedName
	kRelativeImport
	kImportPrefix
	kWildcardImport
	kClassDefinition
	kFunctionDefinition
	kDecoratedDefinition
	kDecorator
	kIfStatement
	kElifClause
	kElseClause
	kTryStatement
	kExceptClause
	kExceptGroupClause
	kFinallyClause
	kWithStatement
	kWithClause
	kWithItem
	kAsPattern
	kAsPatternTarget
	kForStatement
	kWhileStatement
	kMatchStatement
	kCaseClause
	kRaiseStatement
	kAssertStatement
	kTypeAliasStatement
	kCall
	kAttribute
	kSubscript
	kIdentifier
	kArgumentList
	kKeywordArgument
	kNamedExpression
	kLambda
	kPatternList
	kTuplePattern
	kListPattern
	kTuple
	kList
	kParenthesizedExpression
	kListSplatPattern
	kParameters
	kTypedParameter
	kDefaultParameter
	kTypedDefaultParameter
	kDictSplatParameter
	kComment
	kString
	kComparisonOperator
	kType
	kGlobalStatement
	kNonlocalStatement
	kAsync
	kComma
)

var kindNames = map[string]kind{
	"module":                   kModule,
	"block":                    kBlock,
	"expression_statement":     kExpressionStatement,
	"assignment":               kAssignment,
	"augmented_assignment":     kAugmentedAssignment,
	"import_statement":         kImportStatement,
	"import_from_statement":    kImportFromStatement,
	"future_import_statement":  kFutureImportStatement,
	"aliased_import":           kAliasedImport,
	"dotted_name":              kDottedName,
	"relative_import":          kRelativeImport,
	"import_prefix":            kImportPrefix,
	"wildcard_import":          kWildcardImport,
	"class_definition":         kClassDefinition,
	"function_definition":      kFunctionDefinition,
	"decorated_definition":     kDecoratedDefinition,
	"decorator":                kDecorator,
	"if_statement":             kIfStatement,
	"elif_clause":              kElifClause,
	"else_clause":              kElseClause,
	"try_statement":            kTryStatement,
	"except_clause":            kExceptClause,
	"except_group_clause":      kExceptGroupClause,
	"finally_clause":           kFinallyClause,
	"with_statement":           kWithStatement,
	"with_clause":              kWithClause,
	"with_item":                kWithItem,
	"as_pattern":               kAsPattern,
	"as_pattern_target":        kAsPatternTarget,
	"for_statement":            kForStatement,
	"while_statement":          kWhileStatement,
	"match_statement":          kMatchStatement,
	"case_clause":              kCaseClause,
	"raise_statement":          kRaiseStatement,
	"assert_statement":         kAssertStatement,
	"type_alias_statement":     kTypeAliasStatement,
	"call":                     kCall,
	"attribute":                kAttribute,
	"subscript":                kSubscript,
	"identifier":               kIdentifier,
	"argument_list":            kArgumentList,
	"keyword_argument":         kKeywordArgument,
	"named_expression":         kNamedExpression,
	"lambda":                   kLambda,
	"pattern_list":             kPatternList,
	"tuple_pattern":            kTuplePattern,
	"list_pattern":             kListPattern,
	"tuple":                    kTuple,
	"list":                     kList,
	"parenthesized_expression": kParenthesizedExpression,
	"list_splat_pattern":       kListSplatPattern,
	"parameters":               kParameters,
	"typed_parameter":          kTypedParameter,
	"default_parameter":        kDefaultParameter,
	"typed_default_parameter":  kTypedDefaultParameter,
	"dictionary_splat_pattern": kDictSplatParameter,
	"comment":                  kComment,
	"string":                   kString,
	"comparison_operator":      kComparisonOperator,
	"type":                     kType,
	"global_statement":         kGlobalStatement,
	"nonlocal_statement":       kNonlocalStatement,
	"async":                    kAsync,
	",":                        kComma,
}

// grammar holds the Python language and the lookup tables derived from it.
// It is built once and shared read-only by every parser.
type grammar struct {
	lang   *sitter.Language
	kinds  []kind // by node symbol id
	fields map[string]uint16
}

var (
	grammarOnce sync.Once
	pyGrammar   *grammar
)

func loadGrammar() *grammar {
	grammarOnce.Do(func() {
		g := &grammar{lang: sitter.NewLanguage(python.Language()), fields: map[string]uint16{}}
		n := g.lang.NodeKindCount()
		g.kinds = make([]kind, n)
		// Several symbol ids can share a name (aliases); map every id by name.
		for id := uint32(0); id < n; id++ {
			name := g.lang.NodeKindForId(uint16(id))
			if g.lang.NodeKindIsNamed(uint16(id)) || name == "async" || name == "," {
				g.kinds[id] = kindNames[name]
			}
		}
		for _, f := range []string{"name", "alias", "body", "superclasses", "left", "right", "type",
			"condition", "consequence", "alternative", "function", "arguments", "object", "attribute",
			"value", "module_name", "parameters", "definition", "subscript", "cause"} {
			g.fields[f] = g.lang.FieldIdForName(f)
		}
		pyGrammar = g
	})
	return pyGrammar
}

// Options tune a Parser.
type Options struct {
	// Timeout bounds the time tree-sitter may spend on one file; 0 means 10s.
	Timeout time.Duration
}

// Parser parses Python files into Modules. A Parser is not safe for
// concurrent use: give each goroutine its own, and Close it when done.
type Parser struct {
	g       *grammar
	p       *sitter.Parser
	timeout time.Duration
}

// NewParser returns a parser for Python source.
func NewParser(opts Options) *Parser {
	g := loadGrammar()
	p := sitter.NewParser()
	if err := p.SetLanguage(g.lang); err != nil {
		// The grammar is compiled in; a version mismatch is a build error.
		panic(fmt.Sprintf("pyscan: tree-sitter-python grammar rejected: %v", err))
	}
	t := opts.Timeout
	if t <= 0 {
		t = 10 * time.Second
	}
	return &Parser{g: g, p: p, timeout: t}
}

// Close releases the parser's C memory.
func (p *Parser) Close() {
	if p.p != nil {
		p.p.Close()
		p.p = nil
	}
}

// ModuleName returns the dotted module name of a slash-separated path
// relative to the root ("a/b.py" gives "a.b", "a/__init__.py" gives "a"),
// and whether the file is a package's __init__.py.
func ModuleName(relPath string) (string, bool) {
	p := strings.TrimSuffix(relPath, ".py")
	pkg := false
	if p == "__init__" || strings.HasSuffix(p, "/__init__") {
		p = strings.TrimSuffix(strings.TrimSuffix(p, "__init__"), "/")
		pkg = true
	}
	return strings.ReplaceAll(p, "/", "."), pkg
}

// Parse builds the Module for one file. path is the file's slash-separated
// path relative to the root; src is its content. Parse never panics on any
// input; a file tree-sitter cannot finish in time gets a SyntaxError.
func (p *Parser) Parse(path string, src []byte) *Module {
	m := &Module{Path: path, Size: len(src)}
	m.Name, m.IsPackage = ModuleName(path)
	lines := newLineIndex(src)

	deadline := time.Now().Add(p.timeout)
	calls := 0
	opts := &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool {
		// Checking the clock on every callback is cheap next to parsing,
		// but sample it anyway.
		calls++
		return calls%64 == 0 && time.Now().After(deadline)
	}}
	n := len(src)
	tree := p.p.ParseWithOptions(func(i int, _ sitter.Point) []byte {
		if i < n {
			return src[i:]
		}
		return nil
	}, nil, opts)
	if tree == nil {
		p.p.Reset()
		m.SyntaxError = &SyntaxError{
			Span:    Span{Start: lines.pos(0), End: lines.pos(0)},
			Message: fmt.Sprintf("parsing did not finish within %s; the file was skipped", p.timeout),
		}
		return m
	}
	defer tree.Close()
	root := tree.RootNode()
	w := &walker{g: p.g, src: src, lines: lines, m: m}
	if root.HasError() {
		m.SyntaxError = w.firstError(root)
	}
	w.block(root, scope{module: true})
	return m
}

// scope is where the walker is.
type scope struct {
	module bool      // statements bind module-level names
	class  *Class    // directly in this class's body
	fn     *Function // inside this function's body
	where  Where
}

type walker struct {
	g     *grammar
	src   []byte
	lines lineIndex
	m     *Module
}

func (w *walker) kind(n *sitter.Node) kind {
	id := int(n.KindId())
	if id < len(w.g.kinds) {
		return w.g.kinds[id]
	}
	return kOther
}

func (w *walker) field(n *sitter.Node, name string) *sitter.Node {
	return n.ChildByFieldId(w.g.fields[name])
}

func (w *walker) text(n *sitter.Node) string {
	s, e := n.StartByte(), n.EndByte()
	if int(e) > len(w.src) || s > e {
		return ""
	}
	return string(w.src[s:e])
}

func (w *walker) span(n *sitter.Node) Span {
	return Span{Start: w.lines.pos(int(n.StartByte())), End: w.lines.pos(int(n.EndByte()))}
}

// children returns the node's children (named and anonymous), skipping comments.
func (w *walker) children(n *sitter.Node) []*sitter.Node {
	c := int(n.ChildCount())
	out := make([]*sitter.Node, 0, c)
	for i := 0; i < c; i++ {
		ch := n.Child(uint(i))
		if ch == nil || w.kind(ch) == kComment {
			continue
		}
		out = append(out, ch)
	}
	return out
}

func (w *walker) namedChildren(n *sitter.Node) []*sitter.Node {
	c := int(n.NamedChildCount())
	out := make([]*sitter.Node, 0, c)
	for i := 0; i < c; i++ {
		ch := n.NamedChild(uint(i))
		if ch == nil || w.kind(ch) == kComment {
			continue
		}
		out = append(out, ch)
	}
	return out
}

// firstError finds the first ERROR or MISSING node in document order.
func (w *walker) firstError(root *sitter.Node) *SyntaxError {
	n := root
	for depth := 0; depth < 10000; depth++ {
		if n.IsMissing() {
			return &SyntaxError{Span: w.span(n), Message: fmt.Sprintf("syntax error: missing %q", n.Kind())}
		}
		if n.IsError() {
			// Report the start of the erroneous region; name the first token
			// it contains when that helps.
			msg := "syntax error"
			if t := strings.TrimSpace(w.text(n)); t != "" {
				if i := strings.IndexAny(t, "\r\n"); i >= 0 {
					t = t[:i]
				}
				if len(t) > 40 {
					t = t[:40] + "..."
				}
				msg = fmt.Sprintf("syntax error near %q", t)
			}
			return &SyntaxError{Span: w.span(n), Message: msg}
		}
		var next *sitter.Node
		c := int(n.ChildCount())
		for i := 0; i < c; i++ {
			ch := n.Child(uint(i))
			if ch != nil && (ch.HasError() || ch.IsMissing() || ch.IsError()) {
				next = ch
				break
			}
		}
		if next == nil {
			return &SyntaxError{Span: w.span(n), Message: "syntax error"}
		}
		n = next
	}
	return &SyntaxError{Span: w.span(root), Message: "syntax error"}
}

// block walks the statements of a module or block.
func (w *walker) block(n *sitter.Node, sc scope) {
	if n == nil {
		return
	}
	for _, st := range w.namedChildren(n) {
		w.statement(st, sc)
	}
}

func (w *walker) statement(n *sitter.Node, sc scope) {
	switch w.kind(n) {
	case kExpressionStatement:
		for _, ch := range w.namedChildren(n) {
			switch w.kind(ch) {
			case kAssignment:
				w.assignment(ch, n, sc)
			case kAugmentedAssignment:
				if left := w.field(ch, "left"); left != nil && sc.module {
					w.bindTargets(left, BindAugAssign, sc, nil)
				}
				w.expr(w.field(ch, "right"), sc)
			default:
				w.expr(ch, sc)
			}
		}
	case kImportStatement, kImportFromStatement, kFutureImportStatement:
		w.importStmt(n, sc)
	case kClassDefinition:
		w.classDef(n, nil, sc)
	case kFunctionDefinition:
		w.funcDef(n, nil, sc)
	case kDecoratedDefinition:
		var decos []Expr
		for _, ch := range w.namedChildren(n) {
			if w.kind(ch) == kDecorator {
				for _, e := range w.namedChildren(ch) {
					decos = append(decos, w.exprRef(e))
					w.expr(e, sc)
				}
			}
		}
		def := w.field(n, "definition")
		if def == nil {
			return
		}
		switch w.kind(def) {
		case kClassDefinition:
			w.classDef(def, decos, sc)
		case kFunctionDefinition:
			w.funcDef(def, decos, sc)
		}
	case kIfStatement:
		cond := w.field(n, "condition")
		w.expr(cond, sc)
		body := sc
		body.where.Conditional = true
		if sc.module && sc.fn == nil && sc.class == nil && cond != nil && w.isMainGuard(cond) {
			body.where.InMainGuard = true
		}
		w.block(w.field(n, "consequence"), body)
		alt := sc
		alt.where.Conditional = true
		for _, ch := range w.namedChildren(n) {
			switch w.kind(ch) {
			case kElifClause:
				w.expr(w.field(ch, "condition"), alt)
				w.block(w.field(ch, "consequence"), alt)
			case kElseClause:
				w.block(w.field(ch, "body"), alt)
			}
		}
	case kTryStatement:
		in := sc
		in.where.InTry = true
		w.block(w.field(n, "body"), in)
		for _, ch := range w.namedChildren(n) {
			switch w.kind(ch) {
			case kExceptClause, kExceptGroupClause:
				for _, c := range w.namedChildren(ch) {
					switch w.kind(c) {
					case kBlock:
						w.block(c, in)
					default:
						// The exception type; an `as e` name is unbound
						// again when the handler ends, so it binds nothing.
						w.expr(c, in)
					}
				}
			case kElseClause:
				w.block(w.field(ch, "body"), in)
			case kFinallyClause:
				for _, c := range w.namedChildren(ch) {
					w.block(c, in)
				}
			}
		}
	case kWithStatement:
		in := sc
		in.where.Conditional = true
		for _, ch := range w.namedChildren(n) {
			if w.kind(ch) != kWithClause {
				continue
			}
			for _, item := range w.namedChildren(ch) {
				v := w.field(item, "value")
				if v == nil {
					continue
				}
				if w.kind(v) == kAsPattern {
					kids := w.namedChildren(v)
					if len(kids) > 0 {
						w.expr(kids[0], sc)
					}
					if sc.module {
						for _, t := range kids[1:] {
							if w.kind(t) == kAsPatternTarget {
								for _, tt := range w.namedChildren(t) {
									w.bindTargets(tt, BindWith, sc, nil)
								}
							}
						}
					}
				} else {
					w.expr(v, sc)
				}
			}
		}
		w.block(w.field(n, "body"), in)
	case kForStatement:
		in := sc
		in.where.Conditional = true
		if left := w.field(n, "left"); left != nil && sc.module {
			w.bindTargets(left, BindFor, sc, nil)
		}
		w.expr(w.field(n, "right"), sc)
		w.block(w.field(n, "body"), in)
		if alt := w.field(n, "alternative"); alt != nil {
			w.block(w.field(alt, "body"), in)
		}
	case kWhileStatement:
		in := sc
		in.where.Conditional = true
		w.expr(w.field(n, "condition"), sc)
		w.block(w.field(n, "body"), in)
		if alt := w.field(n, "alternative"); alt != nil {
			w.block(w.field(alt, "body"), in)
		}
	case kMatchStatement:
		in := sc
		in.where.Conditional = true
		for _, ch := range w.namedChildren(n) {
			switch w.kind(ch) {
			case kBlock:
				for _, c := range w.namedChildren(ch) {
					if w.kind(c) == kCaseClause {
						w.block(w.field(c, "consequence"), in)
					}
				}
			default:
				w.expr(ch, sc)
			}
		}
	case kRaiseStatement:
		r := &Raise{Span: w.span(n)}
		kids := w.namedChildren(n)
		if len(kids) > 0 && w.kind(kids[0]) != kComment {
			e := w.exprRef(kids[0])
			r.Exc = &e
		}
		w.addRaise(r, sc)
		for _, k := range kids {
			w.expr(k, sc)
		}
	case kAssertStatement:
		w.addRaise(&Raise{Assert: true, Span: w.span(n)}, sc)
		for _, k := range w.namedChildren(n) {
			w.expr(k, sc)
		}
	case kTypeAliasStatement:
		if sc.module {
			if left := w.field(n, "left"); left != nil {
				id := left
				if w.kind(id) == kType && id.NamedChildCount() > 0 {
					id = id.NamedChild(0)
				}
				if w.kind(id) == kIdentifier {
					w.m.Bindings = append(w.m.Bindings, &Binding{Name: w.text(id), Kind: BindTypeAlias, Span: w.span(id), Where: sc.where})
				}
			}
		}
	case kGlobalStatement, kNonlocalStatement, kComment:
	default:
		// return, delete, print, exec, pass, ...: look for calls inside.
		for _, ch := range w.namedChildren(n) {
			w.expr(ch, sc)
		}
	}
}

func (w *walker) addRaise(r *Raise, sc scope) {
	if sc.fn != nil {
		sc.fn.Raises = append(sc.fn.Raises, r)
	}
}

// isMainGuard reports whether cond is `__name__ == "__main__"` (either
// order, either quote style, in parentheses or not).
func (w *walker) isMainGuard(cond *sitter.Node) bool {
	t := w.text(cond)
	if len(t) > 64 {
		return false
	}
	t = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n', '\\', '(', ')':
			return -1
		case '\'':
			return '"'
		}
		return r
	}, t)
	return t == `__name__=="__main__"` || t == `"__main__"==__name__`
}

func (w *walker) assignment(n, stmt *sitter.Node, sc scope) {
	left := w.field(n, "left")
	right := w.field(n, "right")
	typ := w.field(n, "type")
	// Chained assignment a = b = value: the right side is itself an assignment.
	var value *sitter.Node = right
	for value != nil && w.kind(value) == kAssignment {
		value = w.field(value, "right")
	}
	if sc.class != nil && sc.fn == nil {
		w.classAttrs(n, stmt, sc.class)
	} else if sc.module && left != nil {
		if typ != nil && right == nil {
			// `x: int` declares without binding.
		} else {
			kindOf := BindAssign
			if typ != nil {
				kindOf = BindAnnAssign
			}
			var val *Expr
			if value != nil && w.kind(left) == kIdentifier {
				e := w.exprRef(value)
				val = &e
			}
			w.bindTargets(left, kindOf, sc, val)
			for r := right; r != nil && w.kind(r) == kAssignment; r = w.field(r, "right") {
				if l := w.field(r, "left"); l != nil {
					w.bindTargets(l, kindOf, sc, val)
				}
			}
		}
	}
	if value != nil {
		w.expr(value, sc)
	}
}

func (w *walker) classAttrs(n, stmt *sitter.Node, c *Class) {
	for a := n; a != nil && w.kind(a) == kAssignment; a = w.field(a, "right") {
		left := w.field(a, "left")
		if left == nil || w.kind(left) != kIdentifier {
			continue
		}
		attr := &ClassAttr{Name: w.text(left), Span: w.span(left), StmtSpan: w.span(stmt)}
		if t := w.field(a, "type"); t != nil {
			attr.Annotation = w.text(t)
		}
		v := w.field(a, "right")
		for v != nil && w.kind(v) == kAssignment {
			v = w.field(v, "right")
		}
		if v != nil {
			e := w.exprRef(v)
			attr.Value = &e
		}
		c.Attrs = append(c.Attrs, attr)
	}
}

// bindTargets records module-level bindings for the names in an assignment
// target: identifiers, possibly nested in tuple or list patterns. Attribute
// and subscript targets bind no name.
func (w *walker) bindTargets(t *sitter.Node, k BindingKind, sc scope, val *Expr) {
	if !sc.module || t == nil {
		return
	}
	switch w.kind(t) {
	case kIdentifier:
		w.m.Bindings = append(w.m.Bindings, &Binding{Name: w.text(t), Kind: k, Span: w.span(t), Where: sc.where, Value: val})
	case kPatternList, kTuplePattern, kListPattern, kTuple, kList, kParenthesizedExpression, kListSplatPattern:
		for _, ch := range w.namedChildren(t) {
			w.bindTargets(ch, k, sc, nil)
		}
	default:
		if t.NamedChildCount() == 1 && w.kind(t) != kAttribute && w.kind(t) != kSubscript {
			// list_splat_pattern and friends wrap one identifier.
			w.bindTargets(t.NamedChild(0), k, sc, nil)
		}
	}
}

func (w *walker) importStmt(n *sitter.Node, sc scope) {
	moduleScope := sc.fn == nil && sc.class == nil
	add := func(imp *Import) {
		imp.Span = w.span(n)
		imp.Where = sc.where
		imp.ModuleScope = moduleScope
		w.m.Imports = append(w.m.Imports, imp)
		if sc.module && imp.Bound != "" {
			w.m.Bindings = append(w.m.Bindings, &Binding{Name: imp.Bound, Kind: BindImport, Span: w.span(n), Where: sc.where})
		}
	}
	switch w.kind(n) {
	case kFutureImportStatement:
		return
	case kImportStatement:
		for _, ch := range w.namedChildren(n) {
			switch w.kind(ch) {
			case kDottedName:
				mod := w.text(ch)
				bound := mod
				if i := strings.IndexByte(mod, '.'); i >= 0 {
					bound = mod[:i]
				}
				add(&Import{Module: compactDots(mod), Bound: bound})
			case kAliasedImport:
				name, alias := w.field(ch, "name"), w.field(ch, "alias")
				if name != nil && alias != nil {
					add(&Import{Module: compactDots(w.text(name)), Bound: w.text(alias)})
				}
			}
		}
	case kImportFromStatement:
		modNode := w.field(n, "module_name")
		if modNode == nil {
			return
		}
		level, mod := 0, ""
		if w.kind(modNode) == kRelativeImport {
			for _, ch := range w.children(modNode) {
				switch w.kind(ch) {
				case kImportPrefix:
					level = strings.Count(w.text(ch), ".")
				case kDottedName:
					mod = w.text(ch)
				}
			}
		} else {
			mod = w.text(modNode)
		}
		mod = compactDots(mod)
		for _, ch := range w.namedChildren(n) {
			if ch.Equals(*modNode) {
				continue
			}
			switch w.kind(ch) {
			case kWildcardImport:
				add(&Import{Module: mod, Level: level, Name: "*"})
			case kDottedName:
				name := w.text(ch)
				add(&Import{Module: mod, Level: level, Name: name, Bound: name})
			case kAliasedImport:
				name, alias := w.field(ch, "name"), w.field(ch, "alias")
				if name != nil && alias != nil {
					add(&Import{Module: mod, Level: level, Name: w.text(name), Bound: w.text(alias)})
				}
			}
		}
	}
}

// compactDots removes white space inside a dotted name ("a . b" is legal Python).
func compactDots(s string) string {
	if !strings.ContainsAny(s, " \t\r\n\\") {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n', '\\':
			return -1
		}
		return r
	}, s)
}

func (w *walker) classDef(n *sitter.Node, decos []Expr, sc scope) {
	nameNode := w.field(n, "name")
	if nameNode == nil {
		return
	}
	c := &Class{Name: w.text(nameNode), NameSpan: w.span(nameNode), Span: w.span(n), Decorators: decos, Where: sc.where}
	if sup := w.field(n, "superclasses"); sup != nil {
		for _, a := range w.namedChildren(sup) {
			if w.kind(a) == kKeywordArgument {
				if kn := w.field(a, "name"); kn != nil {
					var v Expr
					if vn := w.field(a, "value"); vn != nil {
						v = w.exprRef(vn)
					}
					c.Keywords = append(c.Keywords, KeywordArg{Name: w.text(kn), Value: v})
				}
			} else {
				c.Bases = append(c.Bases, w.exprRef(a))
			}
			w.expr(a, sc)
		}
	}
	if sc.module {
		w.m.Classes = append(w.m.Classes, c)
		w.m.Bindings = append(w.m.Bindings, &Binding{Name: c.Name, Kind: BindClass, Span: c.NameSpan, Where: sc.where})
	} else if sc.class != nil && sc.fn == nil {
		sc.class.Attrs = append(sc.class.Attrs, &ClassAttr{Name: c.Name, Span: c.NameSpan, StmtSpan: c.Span})
	}
	// A nested class body is its own scope; its methods are not this
	// module's or the enclosing class's, but their calls still count for
	// the enclosing function.
	inner := scope{class: c, fn: sc.fn, where: sc.where}
	w.block(w.field(n, "body"), inner)
}

func (w *walker) funcDef(n *sitter.Node, decos []Expr, sc scope) {
	nameNode := w.field(n, "name")
	if nameNode == nil {
		return
	}
	f := &Function{Name: w.text(nameNode), NameSpan: w.span(nameNode), Span: w.span(n), Decorators: decos}
	if first := n.Child(0); first != nil && w.kind(first) == kAsync {
		f.Async = true
	}
	if params := w.field(n, "parameters"); params != nil {
		for _, p := range w.namedChildren(params) {
			f.Params = append(f.Params, w.paramName(p))
			// Default values are evaluated where the def runs.
			if v := w.field(p, "value"); v != nil {
				w.expr(v, sc)
			}
		}
	}
	switch {
	case sc.class != nil && sc.fn == nil:
		sc.class.Methods = append(sc.class.Methods, f)
	case sc.fn != nil:
		sc.fn.Nested = append(sc.fn.Nested, f)
	case sc.module:
		w.m.Functions = append(w.m.Functions, f)
		w.m.Bindings = append(w.m.Bindings, &Binding{Name: f.Name, Kind: BindDef, Span: f.NameSpan, Where: sc.where})
	}
	w.block(w.field(n, "body"), scope{fn: f, where: sc.where})
}

func (w *walker) paramName(p *sitter.Node) string {
	switch w.kind(p) {
	case kIdentifier:
		return w.text(p)
	case kDefaultParameter, kTypedDefaultParameter:
		if nn := w.field(p, "name"); nn != nil {
			return w.text(nn)
		}
	}
	// typed_parameter, splats: the first identifier inside.
	for _, ch := range w.namedChildren(p) {
		if w.kind(ch) == kIdentifier {
			prefix := ""
			t := w.text(p)
			if strings.HasPrefix(t, "**") {
				prefix = "**"
			} else if strings.HasPrefix(t, "*") {
				prefix = "*"
			}
			return prefix + w.text(ch)
		}
		if sub := w.paramName(ch); sub != "" {
			return sub
		}
	}
	return w.text(p)
}

// exprRef reduces an expression to an Expr.
func (w *walker) exprRef(n *sitter.Node) Expr {
	e := Expr{Text: w.text(n), Span: w.span(n)}
	switch w.kind(n) {
	case kIdentifier, kAttribute:
		e.Dotted = w.dotted(n)
	case kSubscript:
		if v := w.field(n, "value"); v != nil {
			e.Dotted = w.dotted(v)
		}
		for i, s := range w.namedChildren(n) {
			if i == 0 || w.kind(s) == kComma {
				continue
			}
			e.Args = append(e.Args, w.exprRef(s))
		}
	case kCall:
		e.Call = true
		if f := w.field(n, "function"); f != nil {
			e.Dotted = w.dotted(f)
		}
	}
	return e
}

// dotted returns "a.b.c" for a name or an attribute chain of names, else "".
func (w *walker) dotted(n *sitter.Node) string {
	switch w.kind(n) {
	case kIdentifier:
		return w.text(n)
	case kAttribute:
		obj, attr := w.field(n, "object"), w.field(n, "attribute")
		if obj == nil || attr == nil {
			return ""
		}
		base := w.dotted(obj)
		if base == "" {
			return ""
		}
		return base + "." + w.text(attr)
	}
	return ""
}

// expr walks an expression for calls and walrus bindings.
func (w *walker) expr(n *sitter.Node, sc scope) {
	if n == nil {
		return
	}
	switch w.kind(n) {
	case kIdentifier, kString, kComment:
		return
	case kCall:
		c := &Call{Span: w.span(n), Where: sc.where}
		if f := w.field(n, "function"); f != nil {
			c.Callee = w.exprRef(f)
			w.expr(f, sc)
		}
		if args := w.field(n, "arguments"); args != nil {
			for _, a := range w.namedChildren(args) {
				if w.kind(a) == kKeywordArgument {
					if kn := w.field(a, "name"); kn != nil {
						var v Expr
						if vn := w.field(a, "value"); vn != nil {
							v = w.exprRef(vn)
							w.expr(vn, sc)
						}
						c.Kwargs = append(c.Kwargs, KeywordArg{Name: w.text(kn), Value: v})
					}
					continue
				}
				c.Args = append(c.Args, w.exprRef(a))
				w.expr(a, sc)
			}
		}
		switch {
		case sc.fn != nil:
			sc.fn.Calls = append(sc.fn.Calls, c)
		case sc.class == nil:
			w.m.Calls = append(w.m.Calls, c)
		}
		return
	case kNamedExpression:
		if sc.module && sc.fn == nil && sc.class == nil {
			if name := w.field(n, "name"); name != nil {
				w.m.Bindings = append(w.m.Bindings, &Binding{Name: w.text(name), Kind: BindWalrus, Span: w.span(name), Where: sc.where})
			}
		}
		w.expr(w.field(n, "value"), sc)
		return
	case kLambda:
		// A lambda's body runs later, in its own scope: walrus targets in it
		// bind nothing at module level. Its calls are not module-level calls.
		inner := scope{fn: &Function{Name: "<lambda>"}, where: sc.where}
		if sc.fn != nil {
			inner.fn = sc.fn
		}
		for _, ch := range w.namedChildren(n) {
			w.expr(ch, inner)
		}
		return
	}
	for _, ch := range w.namedChildren(n) {
		w.expr(ch, sc)
	}
}

// lineIndex maps byte offsets to 1-based lines and byte columns.
type lineIndex []int // start offset of each line

func newLineIndex(src []byte) lineIndex {
	idx := make(lineIndex, 1, len(src)/32+1)
	for i, b := range src {
		if b == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

func (l lineIndex) pos(off int) Pos {
	i := sort.Search(len(l), func(i int) bool { return l[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return Pos{Offset: off, Line: i + 1, Col: off - l[i] + 1}
}
