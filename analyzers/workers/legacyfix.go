package workers

import (
	"slices"
	"strings"

	"github.com/gymlint/gymlint/analyzers/workers/refusal"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// GL103's fix: a legacy check becomes an override of the refusal method
// that returns the check's reason under the check's condition, and the
// check goes. It is offered only where both carry over exactly from the
// model:
//
//   - `num_workers: Literal[1]` on a config class: the override refuses
//     always (with a TODO reason: the annotation gives none), and the
//     annotation goes;
//   - a `@field_validator("num_workers")` (mode "after") or
//     `@validator("num_workers")` whose body is `if TEST: raise X("reason")`
//     (or `assert TEST, "reason"`) then `return VALUE`: the override
//     returns the reason when TEST holds of self.config.num_workers, and
//     the validator goes;
//   - a `@model_validator(mode="after")` with such an if at the top of its
//     body, whose TEST reads only fields of the config: the override tests
//     them on self.config, and the if goes (the whole validator when it
//     did nothing else);
//   - an `if TEST: raise X("reason")` at the top of a server's
//     model_post_init whose TEST reads only self.config: the override
//     tests the same, and the if becomes refuse_unsupported_num_workers(self),
//     so that the server still refuses before the setup that follows.
//
// The override goes on the class that annotates config (for a config
// class's check) or that defines model_post_init, for every server the
// check applies to, unless the server's own override already refuses
// always (for Literal[1]). Two checks that would give one class two
// overrides give no fix.

// conversion is the fix of one legacy check.
type conversion struct {
	message string
	edits   []diag.TextEdit
	// targets are the classes the override is appended to; servers are
	// the server classes whose refusal the fix changes.
	targets []gym.ClassRef
	servers []*pyscan.Class
	// always is set when the override refuses on every path.
	always bool
}

// conversions are the fixes of the legacy checks of a view.
type conversions struct {
	byPlace  map[convPlace]*conversion
	byServer map[*pyscan.Class]*conversion
	byTarget map[*pyscan.Class]*conversion
}

type convPlace struct {
	path   string
	offset int
}

// at returns the conversion of the check reported at an offset of a file.
func (c *conversions) at(path string, offset int) *conversion {
	return c.byPlace[convPlace{path, offset}]
}

type conversionsKey struct{}

// legacyConversions computes the conversions of a view once.
func legacyConversions(v *gym.View) *conversions {
	return v.Shared(conversionsKey{}, func() any { return computeConversions(v) }).(*conversions)
}

func computeConversions(v *gym.View) *conversions {
	out := &conversions{byPlace: map[convPlace]*conversion{}, byServer: map[*pyscan.Class]*conversion{}, byTarget: map[*pyscan.Class]*conversion{}}
	cfg := newConfigIndex(v)
	var all []*conversion
	var places []convPlace
	seen := map[convPlace]bool{}
	for _, e := range v.Entrypoints {
		if !usable(e) {
			continue
		}
		for _, c := range legacyChecks(v, e) {
			m := c.class.Module
			p := convPlace{m.Path, int(c.span().Start)}
			if seen[p] {
				continue
			}
			seen[p] = true
			if conv, ok := convert(v, cfg, c); ok {
				all = append(all, conv)
				places = append(places, p)
			}
		}
	}
	// A class that two conversions would give an override, or a server
	// whose refusal two of them change, gets neither.
	servers, targets := map[*pyscan.Class]int{}, map[*pyscan.Class]int{}
	for _, c := range all {
		for _, s := range c.servers {
			servers[s]++
		}
		for _, t := range c.targets {
			targets[t.Class]++
		}
	}
	for i, c := range all {
		clash := false
		for _, s := range c.servers {
			clash = clash || servers[s] > 1
		}
		for _, t := range c.targets {
			clash = clash || targets[t.Class] > 1
		}
		if clash {
			continue
		}
		out.byPlace[places[i]] = c
		for _, s := range c.servers {
			out.byServer[s] = c
		}
		for _, t := range c.targets {
			out.byTarget[t.Class] = c
		}
	}
	return out
}

// convert returns the fix of one legacy check, or false.
func convert(v *gym.View, cfg *configIndex, c legacyCheck) (*conversion, bool) {
	m := c.class.Module
	if m.SyntaxError != nil || v.IsFrameworkModule(m.Name) {
		return nil, false
	}
	switch {
	case c.attr != nil:
		return convertLiteral1(v, cfg, c)
	case c.fn.Name == contract.ModelPostInitMethod && v.IsServerClass(c.class):
		return convertPostInit(v, c)
	case c.fn.Name == contract.ModelPostInitMethod:
		return nil, false
	}
	return convertValidator(v, cfg, c)
}

// ---- the servers a config class's check applies to ----

// serverConfig is the config class of a server: the first repository
// class of its MRO that annotates config (before a framework server base,
// whose own annotation would win), that annotation's class, and that
// class's repository ancestors, in MRO order.
type serverConfig struct {
	server gym.ClassRef
	annot  gym.ClassRef
	chain  []gym.ClassRef
}

// configIndex finds the servers a config class's check applies to, and
// remembers the config class of each server it looks at.
type configIndex struct {
	v        *gym.View
	configs  map[*pyscan.Class]serverConfig
	unknown  map[*pyscan.Class]bool
	starting []gym.ClassRef // the server classes the entrypoints start
}

func newConfigIndex(v *gym.View) *configIndex {
	ix := &configIndex{v: v, configs: map[*pyscan.Class]serverConfig{}, unknown: map[*pyscan.Class]bool{}}
	seen := map[*pyscan.Class]bool{}
	for _, e := range v.Entrypoints {
		for _, s := range e.Servers {
			if s.Class.Class != nil && !seen[s.Class.Class] {
				seen[s.Class.Class] = true
				ix.starting = append(ix.starting, s.Class)
			}
		}
	}
	return ix
}

// of returns the config class of server s; false when it cannot be told.
func (ix *configIndex) of(s gym.ClassRef) (serverConfig, bool) {
	if sc, ok := ix.configs[s.Class]; ok {
		return sc, true
	}
	if ix.unknown[s.Class] {
		return serverConfig{}, false
	}
	sc, ok := configOf(ix.v, s)
	if !ok {
		ix.unknown[s.Class] = true
		return serverConfig{}, false
	}
	ix.configs[s.Class] = sc
	return sc, true
}

// configOf finds the config class of a server; a server whose config is
// the framework's has none (annot is zero). ok is false when it cannot be
// told.
func configOf(v *gym.View, s gym.ClassRef) (serverConfig, bool) {
	mro, ok := v.MRO(s)
	if !ok {
		return serverConfig{}, false
	}
	for _, a := range mro {
		switch a.Kind {
		case gym.Own:
			at := a.Class.Class.Attr("config")
			if at == nil {
				continue
			}
			if at.Annotation == nil {
				return serverConfig{}, false
			}
			sym := v.Resolve(a.Class.Module, annotationName(at.Annotation))
			switch {
			case sym.Kind == gym.External:
				// A config class of the framework (or another package).
				return serverConfig{server: s, annot: a.Class}, true
			case sym.Kind != gym.RepoClass:
				return serverConfig{}, false
			}
			k := gym.ClassRef{Module: sym.Module, Class: sym.Class}
			cm, ok := v.MRO(k)
			if !ok {
				return serverConfig{}, false
			}
			sc := serverConfig{server: s, annot: a.Class}
			for _, x := range cm {
				switch x.Kind {
				case gym.Own:
					sc.chain = append(sc.chain, x.Class)
				case gym.Unresolved:
					return serverConfig{}, false
				}
			}
			return sc, true
		case gym.FrameworkServer:
			return serverConfig{server: s}, true
		case gym.Unresolved:
			return serverConfig{}, false
		}
	}
	return serverConfig{server: s}, true
}

// applying returns the servers whose config class takes the member of
// config class k that has(class) finds (k defines it, and no class before
// k in the config's MRO does), each with the class that annotates config
// in k's own module; false when a server's config class cannot be told,
// or one of them annotates config outside k's module.
//
// The servers looked at are those the entrypoints start and the server
// classes of k's module. gymlint analyses entrypoints in groups whose
// servers share a repository class (gym.View.Family), and a config class
// is not part of that family: a server of another group that imports k
// from its module is not seen. Requiring the annotation in k's module
// keeps to the common case, a config class written beside its server.
func (ix *configIndex) applying(k gym.ClassRef, has func(*pyscan.Class) bool) ([]serverConfig, bool) {
	candidates := slices.Clone(ix.starting)
	for _, c := range k.Module.Classes {
		ref := gym.ClassRef{Module: k.Module, Class: c}
		if !slices.ContainsFunc(candidates, func(x gym.ClassRef) bool { return x.Class == c }) && ix.v.IsServerClass(ref) {
			candidates = append(candidates, ref)
		}
	}
	var out []serverConfig
	for _, s := range candidates {
		sc, ok := ix.of(s)
		if !ok {
			return nil, false
		}
		for _, c := range sc.chain {
			if !has(c.Class) {
				continue
			}
			if c.Class == k.Class {
				if sc.annot.Module != k.Module {
					return nil, false
				}
				out = append(out, sc)
			}
			break
		}
	}
	return out, true
}

// configTargets returns the classes the override of a config class's
// check goes on, and the servers it changes: for each server the check
// applies to, the class that annotates config, unless the server has an
// override already, which must refuse always when always is set (and no
// override may exist otherwise).
func configTargets(v *gym.View, servers []serverConfig, always bool) (targets []gym.ClassRef, changed []*pyscan.Class, ok bool) {
	if len(servers) == 0 {
		return nil, nil, false
	}
	for _, sc := range servers {
		d := v.Lookup(sc.server, Method)
		if d.Uncertain {
			return nil, nil, false
		}
		if d.Found() || d.Shadowed != nil {
			r := refusal.Of(v, sc.server)
			if !always || !d.Found() || r.Uncertain || r.Kind != refusal.Always {
				return nil, nil, false
			}
			changed = append(changed, sc.server.Class)
			continue
		}
		if !overrideWins(v, sc.annot.Class, sc.server) {
			return nil, nil, false
		}
		changed = append(changed, sc.server.Class)
		if !slices.ContainsFunc(targets, func(t gym.ClassRef) bool { return t.Class == sc.annot.Class }) {
			targets = append(targets, sc.annot)
		}
	}
	return targets, changed, true
}

// overrideTo appends the override to each target, and adds edits.
func overrideTo(v *gym.View, targets []gym.ClassRef, lines []methodLine, edits []diag.TextEdit) ([]diag.TextEdit, bool) {
	for _, t := range targets {
		es, ok := appendMethodEdits(v, t, lines)
		if !ok {
			return nil, false
		}
		edits = append(edits, es...)
	}
	return dedupFixEdits(edits)
}

// refuseFirst is refuseFirstEdits for each target.
func refuseFirst(v *gym.View, targets []gym.ClassRef) []diag.TextEdit {
	var out []diag.TextEdit
	for _, t := range targets {
		out = append(out, refuseFirstEdits(v, t.Class)...)
	}
	return out
}

// ---- Literal[1] ----

func convertLiteral1(v *gym.View, cfg *configIndex, c legacyCheck) (*conversion, bool) {
	m, at := c.class.Module, c.attr
	if v.IsServerClass(c.class) || at.Span.Start != at.StmtSpan.Start {
		return nil, false
	}
	var stmt pyscan.Stmt
	for _, s := range c.class.Class.Body {
		if s.Range() == at.StmtSpan {
			stmt = s
		}
	}
	if stmt == nil {
		return nil, false
	}
	servers, ok := cfg.applying(c.class, func(k *pyscan.Class) bool { return k.Attr(legacyNumWorkers) != nil })
	if !ok {
		return nil, false
	}
	targets, changed, ok := configTargets(v, servers, true)
	if !ok {
		return nil, false
	}
	rm, ok := removeStmtEdit(m, c.class.Class.Body, stmt.Range())
	if !ok {
		return nil, false
	}
	edits, ok := overrideTo(v, targets, stubLines(), append([]diag.TextEdit{rm}, refuseFirst(v, targets)...))
	if !ok {
		return nil, false
	}
	msg := "Remove `num_workers: " + m.Text(at.Annotation) + "`, which " + Method + "() already refuses"
	if len(targets) > 0 {
		msg = "Replace `num_workers: " + m.Text(at.Annotation) + "` with an override of " + Method + "() that refuses several workers"
	}
	return &conversion{message: msg, edits: edits, targets: targets, servers: changed, always: true}, true
}

// ---- validators ----

func convertValidator(v *gym.View, cfg *configIndex, c legacyCheck) (*conversion, bool) {
	m, fn := c.class.Module, c.fn
	kind, ok := validatorKind(v, m, fn)
	if !ok || v.IsServerClass(c.class) {
		return nil, false
	}
	body := bodyAfterDoc(fn.Body)
	if len(body) < 2 {
		return nil, false
	}
	ret, ok := body[len(body)-1].(*pyscan.Return)
	if !ok {
		return nil, false
	}
	var sub func(pyscan.Expr) (string, bool)
	var whole bool // the check is all the validator does
	switch kind {
	case "field":
		p := valueParam(fn)
		if p == "" || !isName(ret.Value, p) || len(body) != 2 {
			return nil, false
		}
		whole = true
		sub = func(e pyscan.Expr) (string, bool) {
			if isName(e, p) {
				return "self.config." + legacyNumWorkers, true
			}
			return "", false
		}
	case "model":
		r := fn.Receiver()
		if r == "" || !isName(ret.Value, r) || assignsUnder(fn, r) {
			return nil, false
		}
		whole = len(body) == 2
		sub = func(e pyscan.Expr) (string, bool) {
			d := pyscan.Dotted(e)
			if rest, ok := strings.CutPrefix(d, r+"."); ok && d != "" {
				if _, isAttr := e.(*pyscan.Attribute); isAttr {
					return "self.config." + rest, true
				}
			}
			return "", false
		}
	default:
		return nil, false
	}
	check, cond, reason, ok := checkParts(m, body, c.stmt, sub)
	if !ok || (kind == "field" && check != body[0]) {
		return nil, false
	}
	if otherLegacy(fn, body, check) {
		return nil, false
	}
	name := fn.Name
	servers, ok := cfg.applying(c.class, func(k *pyscan.Class) bool { return k.Method(name) != nil })
	if !ok {
		return nil, false
	}
	targets, changed, ok := configTargets(v, servers, false)
	if !ok || len(targets) == 0 {
		return nil, false
	}
	var rm diag.TextEdit
	if whole {
		rm, ok = removeFunctionEdit(m, c.class.Class.Body, fn)
	} else {
		rm, ok = removeStmtEdit(m, fn.Body, check.Range())
	}
	if !ok {
		return nil, false
	}
	edits, ok := overrideTo(v, targets, reasonLines("self", cond, reason), append([]diag.TextEdit{rm}, refuseFirst(v, targets)...))
	if !ok {
		return nil, false
	}
	return &conversion{
		message: "Return the reason from " + Method + "() under the validator's condition, and remove the check",
		edits:   edits, targets: targets, servers: changed,
	}, true
}

// validatorKind says which validator fn is: "field" for a pydantic
// field validator of num_workers alone that sees the validated value
// (`@field_validator("num_workers")`, mode "after"; `@validator("num_workers")`
// without keywords), "model" for `@model_validator(mode="after")`; false
// for anything else, or other decorators than @classmethod.
func validatorKind(v *gym.View, m *pyscan.Module, fn *pyscan.Function) (string, bool) {
	kind := ""
	for _, d := range fn.Decorators {
		if isName(d, "classmethod") {
			continue
		}
		call, ok := d.(*pyscan.Call)
		if !ok || kind != "" {
			return "", false
		}
		q := v.QualifiedName(m, call.Func)
		if !strings.HasPrefix(q, "pydantic.") {
			return "", false
		}
		var fields []string
		var keywords []pyscan.Arg
		for _, a := range call.Args {
			switch a.Kind {
			case pyscan.Positional:
				s, ok := pyscan.Str(a.Value)
				if !ok {
					return "", false
				}
				fields = append(fields, s)
			case pyscan.Keyword:
				keywords = append(keywords, a)
			default:
				return "", false
			}
		}
		switch lastName(q) {
		case "field_validator":
			if len(fields) != 1 || fields[0] != legacyNumWorkers || len(keywords) > 1 ||
				len(keywords) == 1 && !keywordIs(keywords[0], "mode", "after") {
				return "", false
			}
			kind = "field"
		case "validator":
			if len(fields) != 1 || fields[0] != legacyNumWorkers || len(keywords) > 0 {
				return "", false
			}
			kind = "field"
		case "model_validator":
			if len(fields) != 0 || len(keywords) != 1 || !keywordIs(keywords[0], "mode", "after") {
				return "", false
			}
			kind = "model"
		default:
			return "", false
		}
	}
	return kind, kind != ""
}

// keywordIs reports whether a is the keyword argument name="value".
func keywordIs(a pyscan.Arg, name, value string) bool {
	s, ok := pyscan.Str(a.Value)
	return a.Name == name && ok && s == value
}

// assignsUnder reports whether fn's body assigns to or deletes one of
// roots, or a name, attribute or item under it: `self.num_workers = 1`
// and `self.config.x["k"] = 1` are under "self"; `self.config.x = 1` is
// under "self.config".
func assignsUnder(fn *pyscan.Function, roots ...string) bool {
	return assigns(fn, func(d string) bool {
		for _, r := range roots {
			if d == r || strings.HasPrefix(d, r+".") {
				return true
			}
		}
		return false
	})
}

// assigns reports whether fn's body assigns to or deletes a target whose
// dotted name (the name or attribute chain under any items) is one that
// match accepts.
func assigns(fn *pyscan.Function, match func(dotted string) bool) bool {
	found := false
	var target func(t pyscan.Expr)
	target = func(t pyscan.Expr) {
		for {
			switch x := t.(type) {
			case *pyscan.Subscript:
				t = x.Value
				continue
			case *pyscan.Starred:
				t = x.Value
				continue
			case *pyscan.Tuple:
				for _, e := range x.Elts {
					target(e)
				}
				return
			case *pyscan.List:
				for _, e := range x.Elts {
					target(e)
				}
				return
			}
			break
		}
		found = found || match(pyscan.Dotted(t))
	}
	pyscan.InspectBody(fn.Body, func(n pyscan.Node, _ []pyscan.Node) bool {
		switch n := n.(type) {
		case *pyscan.Function, *pyscan.Class, *pyscan.Lambda:
			return false
		case *pyscan.Assign:
			for _, t := range n.Targets {
				target(t)
			}
		case *pyscan.AnnAssign:
			target(n.Target)
		case *pyscan.AugAssign:
			target(n.Target)
		case *pyscan.Delete:
			for _, t := range n.Targets {
				target(t)
			}
		case *pyscan.NamedExpr:
			target(n.Target)
		}
		return !found
	})
	return found
}

// otherLegacy reports whether a statement of fn other than check refuses
// the worker count too.
func otherLegacy(fn *pyscan.Function, body []pyscan.Stmt, check pyscan.Stmt) bool {
	rest := &pyscan.Function{Params: fn.Params}
	for _, s := range body {
		if s != check {
			rest.Body = append(rest.Body, s)
		}
	}
	param := ""
	if fn.Name != contract.ModelPostInitMethod {
		param = valueParam(fn)
	}
	return legacyRaise(rest, param) != nil
}

// checkParts finds the statement of body that holds the reported raise
// or assert, and returns it with its condition and its reason as source
// for the override: an `if TEST:` whose body is the one `raise
// X("reason")` (no elif or else), or `assert TEST, "reason"` (the
// condition is then TEST negated). sub rewrites the names and attributes
// of TEST; any other name, attribute, call or subscript gives false.
func checkParts(m *pyscan.Module, body []pyscan.Stmt, reported pyscan.Stmt, sub func(pyscan.Expr) (string, bool)) (pyscan.Stmt, string, string, bool) {
	for _, s := range body {
		switch s := s.(type) {
		case *pyscan.If:
			if len(s.Body) != 1 || s.Body[0] != reported || len(s.Else) != 0 {
				continue
			}
			r := s.Body[0].(*pyscan.Raise)
			reason, ok := raisedReason(m, r)
			if !ok {
				return nil, "", "", false
			}
			cond, ok := rewrite(m, s.Test, sub)
			if !ok {
				return nil, "", "", false
			}
			return s, oneLine(m, s.Test, cond), reason, true
		case *pyscan.Assert:
			if pyscan.Stmt(s) != reported {
				continue
			}
			msg, ok := s.Msg.(*pyscan.Constant)
			if !ok || msg.Kind != pyscan.ConstStr || msg.Value == "" {
				return nil, "", "", false
			}
			var cond string
			if cmp, isCmp := s.Test.(*pyscan.Compare); isCmp && len(cmp.Ops) == 1 {
				l, ok1 := rewrite(m, cmp.Left, sub)
				r, ok2 := rewrite(m, cmp.Comparators[0], sub)
				if !ok1 || !ok2 {
					return nil, "", "", false
				}
				cond = l + " " + cmp.Ops[0].Negate().String() + " " + r
			} else {
				t, ok := rewrite(m, s.Test, sub)
				if !ok {
					return nil, "", "", false
				}
				cond = "not (" + t + ")"
			}
			return s, oneLine(m, s.Test, cond), oneLine(m, msg, m.Text(msg)), true
		}
	}
	return nil, "", "", false
}

// raisedReason is the reason of `raise X("reason")`: one positional
// argument, a non-empty string literal, and no cause.
func raisedReason(m *pyscan.Module, r *pyscan.Raise) (string, bool) {
	call, ok := r.Exc.(*pyscan.Call)
	if !ok || r.Cause != nil || len(call.Args) != 1 || call.Args[0].Kind != pyscan.Positional {
		return "", false
	}
	c, ok := call.Args[0].Value.(*pyscan.Constant)
	if !ok || c.Kind != pyscan.ConstStr || c.Value == "" {
		return "", false
	}
	return oneLine(m, c, m.Text(c)), true
}

// oneLine is the source text of node n, parenthesized when n spans
// lines, so that it can stand in one statement.
func oneLine(m *pyscan.Module, n pyscan.Node, text string) string {
	if r := n.Range(); m.Line(r.Start) != m.Line(r.End) {
		return "(" + text + ")"
	}
	return text
}

// rewrite returns the source of a test with the names and attributes sub
// rewrites, when the test is made only of those, literals, comparisons,
// and boolean, unary and arithmetic operators.
func rewrite(m *pyscan.Module, e pyscan.Expr, sub func(pyscan.Expr) (string, bool)) (string, bool) {
	type repl struct {
		span pyscan.Span
		text string
	}
	var repls []repl
	ok := true
	pyscan.Inspect(e, func(n pyscan.Node, _ []pyscan.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *pyscan.Name, *pyscan.Attribute:
			t, matched := sub(n.(pyscan.Expr))
			if !matched {
				ok = false
				return false
			}
			repls = append(repls, repl{n.Range(), t})
			return false
		case *pyscan.Constant, *pyscan.Compare, *pyscan.BoolOp, *pyscan.UnaryOp, *pyscan.BinOp,
			*pyscan.Tuple, *pyscan.List, *pyscan.Set:
			return true
		}
		ok = false
		return false
	})
	if !ok {
		return "", false
	}
	r := e.Range()
	var b strings.Builder
	at := r.Start
	for _, x := range repls {
		b.WriteString(m.SpanText(pyscan.Span{Start: at, End: x.span.Start}))
		b.WriteString(x.text)
		at = x.span.End
	}
	b.WriteString(m.SpanText(pyscan.Span{Start: at, End: r.End}))
	return b.String(), true
}

// reasonLines is an override that returns reason when cond holds.
func reasonLines(recv, cond, reason string) []methodLine {
	return []methodLine{
		{depth: 0, text: "def " + Method + "(" + recv + ") -> str | None:"},
		{depth: 1, text: "if " + cond + ":"},
		{depth: 2, text: "return " + reason},
		{depth: 1, text: "return None"},
	}
}

// removeFunctionEdit removes a method of body with its decorators, the
// first of which must start its line (its @ right after the
// indentation); the only statement of a class body becomes `pass`.
func removeFunctionEdit(m *pyscan.Module, body []pyscan.Stmt, fn *pyscan.Function) (diag.TextEdit, bool) {
	span := fn.Span
	if len(fn.Decorators) > 0 {
		at := fn.Decorators[0].Range().Start
		if m.LineStart(at)+int32(len(m.Indent(at)))+1 != at {
			return diag.TextEdit{}, false
		}
		span.Start = at - 1
	}
	return removeStmtEdit(m, body, span)
}

// ---- model_post_init ----

func convertPostInit(v *gym.View, c legacyCheck) (*conversion, bool) {
	m, fn := c.class.Module, c.fn
	if c.class.Class.Method(fn.Name) != fn {
		return nil, false
	}
	recv := fn.Receiver()
	if recv == "" || assignsUnder(fn, recv+".config") || assigns(fn, func(d string) bool { return d == recv }) {
		return nil, false
	}
	sub := func(e pyscan.Expr) (string, bool) {
		d := pyscan.Dotted(e)
		if _, isAttr := e.(*pyscan.Attribute); isAttr && strings.HasPrefix(d, recv+".config.") {
			return m.Text(e), true
		}
		return "", false
	}
	check, cond, reason, ok := checkParts(m, fn.Body, c.stmt, sub)
	if !ok {
		return nil, false
	}
	if _, isIf := check.(*pyscan.If); !isIf || otherLegacy(fn, fn.Body, check) {
		return nil, false
	}
	// Every server that has this class in its MRO runs this
	// model_post_init (no subclass has its own), and has no override.
	fx := facts.Of(v)
	var changed []*pyscan.Class
	seen := map[*pyscan.Class]bool{}
	for _, e := range v.Entrypoints {
		for _, s := range e.Servers {
			if s.Class.Class == nil || seen[s.Class.Class] || !inMRO(v, s.Class, c.class.Class) {
				continue
			}
			seen[s.Class.Class] = true
			post := fx.Override(s.Class, contract.ModelPostInitMethod)
			if post == nil || post.Fn != fn {
				return nil, false
			}
			if d := v.Lookup(s.Class, Method); d.Uncertain || d.Found() || d.Shadowed != nil || !overrideWins(v, c.class.Class, s.Class) {
				return nil, false
			}
			changed = append(changed, s.Class.Class)
		}
	}
	if len(changed) == 0 {
		return nil, false
	}
	// The if becomes the refusal call, in its place.
	start, end, ok := stmtLines(m, fn.Body, stmtIndex(fn.Body, check.Range()), check.Range())
	if !ok {
		return nil, false
	}
	self := fx.Method(m, c.class.Class, fn)
	name, imp, ok := refusalName(v, self, c.class.Class)
	if !ok {
		return nil, false
	}
	indent := m.Indent(check.Range().Start)
	call := diag.TextEdit{Path: m.Path, Start: gym.Pos(m, start), End: gym.Pos(m, end),
		NewText: indent + name + "(" + recv + ")" + m.LineEnding(check.Range().End)}
	edits, ok := overrideTo(v, []gym.ClassRef{c.class}, reasonLines(recv, cond, reason), append(imp, call))
	if !ok {
		return nil, false
	}
	return &conversion{
		message: "Return the reason from " + Method + "() under the same condition, and call " + contract.RefuseWorkersFunc + "(" + recv + ") in its place",
		edits:   edits, targets: []gym.ClassRef{c.class}, servers: changed,
	}, true
}

// inMRO reports whether class c is in the MRO of server s.
func inMRO(v *gym.View, s gym.ClassRef, c *pyscan.Class) bool {
	mro, _ := v.MRO(s)
	for _, a := range mro {
		if a.Kind == gym.Own && a.Class.Class == c {
			return true
		}
	}
	return false
}
