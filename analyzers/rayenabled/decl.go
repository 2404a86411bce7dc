package rayenabled

import (
	"fmt"
	"github.com/gymlint/gymlint/contract"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// ownDecl is the ray_enabled binding in the body of a server class: the
// class attribute, and the assignment statement that makes it (nil when it
// is not one: an annotation alone, a nested class).
type ownDecl struct {
	attr *pyscan.ClassAttr
	stmt pyscan.Stmt // *pyscan.Assign or *pyscan.AnnAssign
}

// ownDeclOf returns the ray_enabled binding of a class body, or nil.
func ownDeclOf(c *pyscan.Class) *ownDecl {
	at := c.Attr(Attr)
	if at == nil {
		return nil
	}
	return &ownDecl{attr: at, stmt: assignmentOf(c.Body, at)}
}

// assignmentOf finds the class-body statement that binds at: an Assign or
// AnnAssign whose targets include at's name, in the body or in the blocks
// of its compound statements (not in nested defs and classes).
func assignmentOf(body []pyscan.Stmt, at *pyscan.ClassAttr) pyscan.Stmt {
	var found pyscan.Stmt
	pyscan.InspectBody(body, func(n pyscan.Node, _ []pyscan.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *pyscan.Function, *pyscan.Class:
			return false
		case *pyscan.Assign:
			for _, t := range n.Targets {
				if t.Range() == at.Span {
					found = n
				}
			}
			return false
		case *pyscan.AnnAssign:
			if n.Target.Range() == at.Span {
				found = n
			}
			return false
		}
		_, stmt := n.(pyscan.Stmt)
		return stmt
	})
	return found
}

// isTrue and isFalse report whether e is that literal (the model drops
// parentheses).
func isTrue(e pyscan.Expr) bool  { return pyscan.IsConst(e, pyscan.ConstTrue) }
func isFalse(e pyscan.Expr) bool { return pyscan.IsConst(e, pyscan.ConstFalse) }

// decl checks the ray_enabled declaration of one server of an entrypoint.
type decl struct {
	v     *gym.View
	e     *gym.Entrypoint
	s     gym.Server
	found search
	sets  []runtimeSet // of the entrypoint
}

func (d *decl) m() *pyscan.Module { return d.e.Module }

func (d *decl) name() string { return d.s.Class.Class.Name }

func (d *decl) inEntry() bool { return d.s.Class.Module == d.e.Module }

func (d *decl) entryPath() string { return d.e.Module.Path }

func (d *decl) foreignDef() string { return d.s.Class.Module.Path }

// subject names the server class in messages; the entrypoint is where
// they are reported, so only a definition elsewhere is named.
func (d *decl) subject() string {
	if d.inEntry() {
		return fmt.Sprintf("server class %s", d.name())
	}
	return fmt.Sprintf("server class %s (defined in %s)", d.name(), d.foreignDef())
}

// classRange is where a diagnostic about the server class goes: its name
// in the entrypoint, or the run_webserver() call that starts a class
// defined elsewhere.
func (d *decl) classRange() (start, end diag.Pos) {
	if !d.inEntry() && d.s.Call != nil {
		return gym.Range(d.m(), d.s.Call.Span)
	}
	return gym.Range(d.s.Class.Module, d.s.Class.Class.NameSpan)
}

// classRelated points at the server class when it is defined in another
// module.
func (d *decl) classRelated() []diag.Related {
	if d.inEntry() {
		return nil
	}
	return []diag.Related{gym.Related(d.s.Class.Module, d.s.Class.Class.NameSpan, "server class "+d.name()+" is defined here")}
}

func (d *decl) useRelated() []diag.Related {
	if r := d.found.related(); r != nil {
		return []diag.Related{*r}
	}
	return nil
}

func (d *decl) check(own *ownDecl) []diag.Diagnostic {
	if own != nil {
		return d.checkOwn(own)
	}
	if sites := d.unreadableSites(); len(sites) > 0 {
		return sites
	}
	if dg, ok := d.inherited(); ok {
		return []diag.Diagnostic{dg}
	}
	if d.found.use != nil {
		return []diag.Diagnostic{d.undeclared(false)}
	}
	return nil
}

// undeclared is GL201; declaredFalse is set when the class declares False.
func (d *decl) undeclared(declaredFalse bool) diag.Diagnostic {
	use := d.found.describe(d.entryPath())
	var msg, help string
	switch {
	case declaredFalse:
		msg = fmt.Sprintf("%s declares ray_enabled = False but uses Ray (%s)", d.subject(), use)
		help = fmt.Sprintf("set it to True, %s: the server supervisor does not start Ray for a server that does not declare it, so the server fails at startup", fix)
	case d.inEntry():
		msg = fmt.Sprintf("%s uses Ray (%s) but does not declare it", d.subject(), use)
		help = fmt.Sprintf("add %s to the body of %s (import ClassVar from typing): the server supervisor starts Ray only for servers whose entrypoint source declares it, so the server fails at startup", fix, d.name())
	default:
		msg = fmt.Sprintf("%s uses Ray (%s) but is defined outside its entrypoint, where the server supervisor reads ray_enabled", d.subject(), use)
		help = fmt.Sprintf("subclass %s in %s with %s in its body and start the subclass", d.name(), d.entryPath(), fix)
	}
	help += d.latestOnly()
	a, b := d.classRange()
	dg := UndeclaredRay.New(d.entryPath(), a, b, msg)
	dg.Help = help
	dg.Related = append(d.useRelated(), d.classRelated()...)
	return dg
}

// latestOnly says, when the repository's framework does not start Ray per
// declaration (GL201 is then reported only with --contract latest), that
// the reason is the current contract's and not yet this framework's.
func (d *decl) latestOnly() string {
	fw := d.v.Options.Framework
	if !fw.Lacks(contract.RayPerDeclaration) {
		return ""
	}
	return fmt.Sprintf(" (the current contract; %s at %s still starts Ray for every server)", fw.Package, fw.Display())
}

// needNote says what gymlint knows of the server's Ray use, for GL203's
// message.
func (d *decl) needNote() string {
	if d.found.use != nil {
		return fmt.Sprintf(" (%s uses Ray: %s)", d.name(), d.found.describe(d.entryPath()))
	}
	return fmt.Sprintf(" (gymlint finds no Ray use in %s)", d.name())
}

// needHelp is GL203's help: the declaration to write (where), and, when
// gymlint finds no Ray use, the other way out.
func (d *decl) needHelp(where string) string {
	h := "write " + fix + where
	if d.found.use == nil {
		h = fmt.Sprintf("if %s needs Ray, %s; if not, remove the declaration", d.name(), h)
	}
	return h
}

func (d *decl) checkOwn(own *ownDecl) []diag.Diagnostic {
	m, at := d.m(), own.attr
	var out []diag.Diagnostic
	start, end := gym.Pos(m, at.Span.Start), gym.Pos(m, at.StmtSpan.End)
	literal := isTrue(at.Value) || isFalse(at.Value)
	switch {
	case at.Value == nil:
		out = append(out, helped(UnreadableRayEnabled.New(d.entryPath(), start, end, fmt.Sprintf(
			"ray_enabled of %s has no value the server supervisor can read%s",
			d.subject(), d.needNote())), d.needHelp("")))
	case !literal:
		out = append(out, helped(UnreadableRayEnabled.New(d.entryPath(), start, end, fmt.Sprintf(
			"ray_enabled of %s is set to %s, not the literal True the server supervisor reads%s",
			d.subject(), quote(valueText(m, at)), d.needNote())), d.needHelp("")))
	}
	if at.Annotation == nil && at.Value != nil {
		if dg, ok := d.unannotated(own); ok {
			out = append(out, dg)
		}
	}
	switch {
	case isTrue(at.Value):
		if d.found.use == nil && d.found.complete {
			if _, _, _, ok := raySetting(d.v, d.e); !ok {
				out = append(out, helped(UnneededRayEnabled.New(d.entryPath(), start, end, fmt.Sprintf(
					"%s declares ray_enabled = True, but gymlint finds no Ray use in it, its ancestors or their imports, nor a Ray setting in its configs",
					d.subject())), "remove the declaration, unless the server uses Ray through a library gymlint does not read"))
			}
		}
	case isFalse(at.Value):
		if d.found.use != nil {
			out = append(out, d.undeclared(true))
		}
	}
	return out
}

// helped is d with its help set.
func helped(d diag.Diagnostic, help string) diag.Diagnostic {
	d.Help = help
	return d
}

// valueText is the value of a class attribute, for messages (without the
// parentheses around it, which the model drops).
func valueText(m *pyscan.Module, at *pyscan.ClassAttr) string {
	if at.Value == nil {
		return ""
	}
	return m.Text(at.Value)
}

// unannotated is GL204 for a bare class-body assignment, unless an
// ancestor declares ray_enabled as a ClassVar, may do so in a form gymlint
// cannot read, or the ancestry cannot be read.
func (d *decl) unannotated(own *ownDecl) (diag.Diagnostic, bool) {
	at := own.attr
	mro, ok := d.v.MRO(d.s.Class)
	if !ok {
		return diag.Diagnostic{}, false
	}
	external := false
	for _, a := range mro[1:] {
		switch a.Kind {
		case gym.Own:
			if anc := a.Class.Class.Attr(Attr); anc != nil && d.classVar(a.Class.Module, anc.Annotation) != notClassVar {
				return diag.Diagnostic{}, false
			}
		case gym.FrameworkServer, gym.Framework:
			if a.Class.Class == nil {
				external = true
			} else if d.frameworkClassVar(a.Class, 0, map[*pyscan.Class]bool{}) {
				return diag.Diagnostic{}, false
			}
		case gym.Unresolved:
			return diag.Diagnostic{}, false
		}
	}
	val := short(valueText(d.m(), at))
	msg := fmt.Sprintf(
		"`ray_enabled = %s` in %s has no annotation, and no ancestor declares it a ClassVar: pydantic raises PydanticUserError at import",
		val, d.subject())
	if external {
		switch fw := d.v.Options.Framework; {
		case fw.Known() && fw.Has(contract.RayDeclaration):
			return diag.Diagnostic{}, false // the installed framework declares the ClassVar
		case fw.Known():
			msg += fmt.Sprintf("; %s at %s does not declare the ClassVar either", fw.Package, fw.Display())
		default:
			msg += "; the framework package was not found (assumed not to declare the ClassVar)"
		}
	}
	dg := UnannotatedRayEnabled.New(d.entryPath(), gym.Pos(d.m(), at.Span.Start), gym.Pos(d.m(), at.StmtSpan.End), msg)
	dg.Help = fmt.Sprintf("write `ray_enabled: ClassVar[bool] = %s` (import ClassVar from typing)", val)
	if f, ok := annotateFix(d.m(), d.s.Class.Class, own); ok {
		dg.Fixes = []diag.Fix{f}
	}
	return dg, true
}

// frameworkClassVar reports whether a framework class defined in the
// repository, or one of its framework ancestors, declares ray_enabled as a
// ClassVar, or may (an annotation gymlint cannot read). (gym's MRO does not
// look inside framework classes.)
func (d *decl) frameworkClassVar(ref gym.ClassRef, depth int, seen map[*pyscan.Class]bool) bool {
	if seen[ref.Class] || depth > 24 {
		return false
	}
	seen[ref.Class] = true
	if at := ref.Class.Attr(Attr); at != nil && d.classVar(ref.Module, at.Annotation) != notClassVar {
		return true
	}
	for _, b := range d.v.Bases(ref) {
		if b.Class.Class != nil && (b.Kind == gym.Framework || b.Kind == gym.FrameworkServer) &&
			d.frameworkClassVar(b.Class, depth+1, seen) {
			return true
		}
	}
	return false
}

// classVarness is what an annotation says of a class variable.
type classVarness int

const (
	notClassVar   classVarness = iota // no annotation, or one that is not ClassVar
	isClassVar                        // ClassVar or ClassVar[...] of typing (or typing_extensions)
	maybeClassVar                     // cannot be decided from the model
)

// classVar reads an annotation written at module scope of m (a class
// body): typing.ClassVar, alone or subscripted, under whatever name m
// binds it (`ClassVar[bool]`, `typing.ClassVar[bool]`, `t.ClassVar`,
// `CV[bool]` after `from typing import ClassVar as CV`).
// A string annotation ("ClassVar[bool]") would have to be parsed from its
// text, and a name ending in ClassVar that the resolver cannot follow to
// typing (`typing.ClassVar` without `import typing`, a star import, a
// re-export by a library) may still be it: both are maybeClassVar.
func (d *decl) classVar(m *pyscan.Module, ann pyscan.Expr) classVarness {
	if ann == nil {
		return notClassVar
	}
	if _, ok := pyscan.Str(ann); ok {
		return maybeClassVar
	}
	if s, ok := ann.(*pyscan.Subscript); ok {
		ann = s.Value
	}
	dotted := pyscan.Dotted(ann)
	if dotted == "" {
		return notClassVar
	}
	sym := d.v.Resolve(m, dotted)
	switch {
	case sym.Kind == gym.External && (sym.Dotted == "typing.ClassVar" || sym.Dotted == "typing_extensions.ClassVar"):
		return isClassVar
	case dotted != "ClassVar" && !strings.HasSuffix(dotted, ".ClassVar"):
		return notClassVar
	case sym.Kind == gym.RepoClass || sym.Kind == gym.RepoFunction || sym.Kind == gym.RepoValue:
		return notClassVar // a name of the repository's own
	}
	if root, _, _ := strings.Cut(dotted, "."); m.Binding(root) != nil && m.Binding(root).Kind != pyscan.BindImport {
		return notClassVar // the module binds the name to something of its own (`ClassVar = object`)
	}
	return maybeClassVar
}

// inherited is GL202: the first repository class in the server class's MRO
// that declares ray_enabled is in another module (and does not set the
// literal False).
func (d *decl) inherited() (diag.Diagnostic, bool) {
	mro, _ := d.v.MRO(d.s.Class)
	for _, a := range mro {
		if a.Kind != gym.Own {
			continue
		}
		at := a.Class.Class.Attr(Attr)
		if at == nil {
			continue
		}
		if a.Class.Module == d.m() || isFalse(at.Value) {
			return diag.Diagnostic{}, false
		}
		line := a.Class.Module.Line(at.Span.Start)
		var msg, help string
		subclass := fmt.Sprintf("subclass %s in %s with %s in its body and start the subclass", d.name(), d.entryPath(), fix)
		switch {
		case a.Class.Class == d.s.Class.Class:
			msg = fmt.Sprintf("%s declares ray_enabled there, not in its entrypoint, where the server supervisor reads it",
				d.subject())
			help = subclass
		case d.inEntry():
			msg = fmt.Sprintf("%s inherits ray_enabled from %s (%s:%d), which the server supervisor does not read",
				d.subject(), a.Class.Class.Name, a.Class.Module.Path, line)
			help = fmt.Sprintf("declare %s on %s itself", fix, d.name())
		default:
			msg = fmt.Sprintf("%s inherits ray_enabled from %s (%s:%d), which the server supervisor does not read",
				d.subject(), a.Class.Class.Name, a.Class.Module.Path, line)
			help = subclass
		}
		s, e := d.classRange()
		dg := InheritedRayEnabled.New(d.entryPath(), s, e, msg)
		dg.Help = help
		dg.Related = append([]diag.Related{gym.Related(a.Class.Module, pyscan.Span{Start: at.Span.Start, End: at.StmtSpan.End},
			fmt.Sprintf("%s declares ray_enabled here", a.Class.Class.Name))}, d.classRelated()...)
		return dg, true
	}
	return diag.Diagnostic{}, false
}

// unreadableSites is GL203 for a server class whose body has no
// ray_enabled: each assignment in a function, setattr call and declaration
// on another class of the entrypoint that does not set the literal False.
// Those that belong to another server class of the entrypoint are that
// server's business.
func (d *decl) unreadableSites() []diag.Diagnostic {
	m := d.m()
	servers := map[*pyscan.Class]bool{}
	for _, s := range d.e.Servers {
		if s.Class.Module == m {
			servers[s.Class.Class] = true
		}
	}
	mine := func(c *pyscan.Class) bool {
		return c == nil || c == d.s.Class.Class || !servers[c]
	}
	var out []diag.Diagnostic
	cs, ce := d.classRange()
	serverRel := diag.Related{Path: d.entryPath(), Start: cs, End: ce, Message: "the server class is " + d.name()}
	help := d.needHelp(" in the body of " + d.name())
	add := func(sp pyscan.Span, msg string) {
		a, b := gym.Range(m, sp)
		dg := UnreadableRayEnabled.New(d.entryPath(), a, b, msg)
		dg.Help = help
		dg.Related = append([]diag.Related{serverRel}, d.useRelated()...)
		out = append(out, dg)
	}
	for _, c := range m.Classes {
		if c == d.s.Class.Class || servers[c] {
			continue
		}
		at := c.Attr(Attr)
		if at == nil || at.Value == nil && at.Annotation == nil || isFalse(at.Value) {
			continue
		}
		add(pyscan.Span{Start: at.Span.Start, End: at.StmtSpan.End}, fmt.Sprintf(
			"ray_enabled is declared on %s, not on server class %s, where the server supervisor reads it%s",
			c.Name, d.name(), d.needNote()))
	}
	for _, s := range d.sets {
		if !mine(s.owner) {
			continue
		}
		switch {
		case s.setattr && s.fn == nil:
			add(s.span, fmt.Sprintf(
				"ray_enabled is set with setattr(), which the server supervisor does not read%s",
				d.needNote()))
		case s.setattr:
			add(s.span, fmt.Sprintf(
				"ray_enabled is set with setattr() in function %s, which the server supervisor does not read%s",
				s.fn.Fn.Name, d.needNote()))
		default:
			add(s.span, fmt.Sprintf(
				"ray_enabled is set in function %s (`%s.ray_enabled = ...`), which the server supervisor does not read%s",
				s.fn.Fn.Name, m.Text(s.recv), d.needNote()))
		}
	}
	return out
}

// runtimeSet is a place that sets ray_enabled when code runs: an
// assignment to X.ray_enabled in a function, or a setattr(X,
// "ray_enabled", ...) call anywhere, with a value other than the literal
// False.
type runtimeSet struct {
	span    pyscan.Span // the target X.ray_enabled, or the setattr call
	fn      *facts.Func // the function it is in; nil at module scope
	setattr bool
	recv    pyscan.Expr   // X
	owner   *pyscan.Class // the class of the module X is, when known
}

// setFinder collects the runtime sets of ray_enabled of a module, in
// source order, from the nodes of a walk of it (the walk of the
// entrypoint that looks for Ray use: see scanner.module).
type setFinder struct {
	f       *facts.Facts
	m       *pyscan.Module
	sc      *scopes
	classes map[string]*pyscan.Class
	out     []runtimeSet
}

func newSetFinder(f *facts.Facts, m *pyscan.Module, sc *scopes) *setFinder {
	classes := map[string]*pyscan.Class{}
	for _, c := range m.Classes {
		classes[c.Name] = c
	}
	return &setFinder{f: f, m: m, sc: sc, classes: classes}
}

// owner is the class an assignment to recv.ray_enabled in fn sets; nil
// when unknown.
func (s *setFinder) owner(recv pyscan.Expr, fn *facts.Func) *pyscan.Class {
	if fn != nil && fn.Recv != "" && isReceiver(recv, fn.Recv) {
		return fn.Owner().Class
	}
	if n, ok := recv.(*pyscan.Name); ok && (fn == nil || !s.f.IsLocal(fn, n.Id)) {
		return s.classes[n.Id]
	}
	return nil
}

func (s *setFinder) visit(n pyscan.Node, stack []pyscan.Node) {
	switch n := n.(type) {
	case *pyscan.Assign:
		for _, t := range n.Targets {
			s.store(t, n.Value, stack)
		}
	case *pyscan.AnnAssign:
		s.store(n.Target, n.Value, stack)
	case *pyscan.Call:
		if !namesSetattr(n.Func) {
			return
		}
		fn := s.sc.enclosing(stack)
		if recv, ok := setattrRay(s.f, s.m, n, fn); ok {
			s.out = append(s.out, runtimeSet{span: n.Span, fn: fn, setattr: true, recv: recv, owner: s.owner(recv, fn)})
		}
	}
}

// store records `X.ray_enabled = value` in a function, at its target.
func (s *setFinder) store(t, value pyscan.Expr, stack []pyscan.Node) {
	a, ok := t.(*pyscan.Attribute)
	if !ok || a.Attr != Attr || value == nil || isFalse(value) {
		return
	}
	if fn := s.sc.enclosing(stack); fn != nil {
		s.out = append(s.out, runtimeSet{span: a.Span, fn: fn, recv: a.Value, owner: s.owner(a.Value, fn)})
	}
}

// isReceiver reports whether e is a method's receiver or its class:
// `self`, `type(self)`, `self.__class__` (for receiver self).
func isReceiver(e pyscan.Expr, recv string) bool {
	switch e := e.(type) {
	case *pyscan.Name:
		return e.Id == recv
	case *pyscan.Call:
		n, ok := e.Func.(*pyscan.Name)
		if !ok || n.Id != "type" || len(e.Args) != 1 {
			return false
		}
		r, ok := e.Positional(0).(*pyscan.Name)
		return ok && r.Id == recv
	case *pyscan.Attribute:
		r, ok := e.Value.(*pyscan.Name)
		return ok && r.Id == recv && e.Attr == "__class__"
	}
	return false
}

// namesSetattr reports whether a callee is written `setattr` or
// `builtins.setattr` (what it denotes is for the resolver).
func namesSetattr(e pyscan.Expr) bool {
	switch e := e.(type) {
	case *pyscan.Name:
		return e.Id == "setattr"
	case *pyscan.Attribute:
		b, ok := e.Value.(*pyscan.Name)
		return ok && b.Id == "builtins" && e.Attr == "setattr"
	}
	return false
}

// setattrRay recognises setattr(recv, "ray_enabled", value), the builtin,
// with a value other than the literal False, and returns recv.
func setattrRay(f *facts.Facts, m *pyscan.Module, c *pyscan.Call, fn *facts.Func) (pyscan.Expr, bool) {
	if !namesSetattr(c.Func) {
		return nil, false
	}
	if root := chainRoot(c.Func); fn != nil && f.IsLocal(fn, root.Id) {
		return nil, false
	}
	if f.View().QualifiedName(m, c.Func) != "builtins.setattr" {
		return nil, false
	}
	name, ok := pyscan.Str(c.Positional(1))
	if !ok || name != Attr {
		return nil, false
	}
	if v := c.Positional(2); v != nil && isFalse(v) {
		return nil, false
	}
	recv := c.Positional(0)
	return recv, recv != nil
}

// quote shows an expression in a message, shortened.
func quote(s string) string { return "`" + short(s) + "`" }

// short is text for a message: white space runs made one space, at most 60
// characters.
func short(s string) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return string(r)
}
