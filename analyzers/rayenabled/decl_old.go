//go:build ignore

package rayenabled

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// decl checks the ray_enabled declaration of one server of an entrypoint.
type decl struct {
	v     *gym.View
	e     *gym.Entrypoint
	s     gym.Server
	found search
}

func (d *decl) m() *pyscan.Module { return d.e.Module }

func (d *decl) cls() gym.ClassRef { return d.s.Class }

func (d *decl) name() string { return d.s.Class.Class.Name }

func (d *decl) inEntry() bool { return d.s.Class.Module == d.e.Module }

func (d *decl) entryPath() string { return d.e.Module.Path }

func (d *decl) foreignDef() string { return d.s.Class.Module.Path }

func pos(p pyscan.Pos) diag.Pos { return gym.PyPos(p) }

func span(s pyscan.Span) (a, b diag.Pos) { return pos(s.Start), pos(s.End) }

// subject names the server class in messages.
func (d *decl) subject() string {
	if d.inEntry() {
		return fmt.Sprintf("server class %s of %s", d.name(), d.entryPath())
	}
	return fmt.Sprintf("server class %s (defined in %s) of %s", d.name(), d.foreignDef(), d.entryPath())
}

// classSpan is where a diagnostic about the server class goes: its name in
// the entrypoint, or the run_webserver() call that starts a class defined
// elsewhere.
func (d *decl) classSpan() pyscan.Span {
	if !d.inEntry() && d.s.Call != nil {
		return d.s.Call.Span
	}
	return d.s.Class.Class.NameSpan
}

// classRelated points at the server class when it is defined in another
// module.
func (d *decl) classRelated() []diag.Related {
	if d.inEntry() {
		return nil
	}
	a, b := span(d.s.Class.Class.NameSpan)
	return []diag.Related{{Path: d.foreignDef(), Start: a, End: b, Message: "server class " + d.name() + " is defined here"}}
}

func (d *decl) useRelated() []diag.Related {
	if r := d.found.related(); r != nil {
		return []diag.Related{*r}
	}
	return nil
}

func (d *decl) check(own *pyscan.ClassAttr) []diag.Diagnostic {
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
		return []diag.Diagnostic{d.undeclared("")}
	}
	return nil
}

// undeclared is GL201. declaredFalse is the declaration's text when the
// class declares False.
func (d *decl) undeclared(declaredFalse string) diag.Diagnostic {
	use := d.found.describe(d.entryPath())
	var msg string
	switch {
	case declaredFalse != "":
		msg = fmt.Sprintf("%s declares ray_enabled = False but uses Ray (%s): set it to True, %s; the server supervisor does not start Ray for a server that does not declare it, so the server fails at startup",
			d.subject(), use, fix)
	case d.inEntry():
		msg = fmt.Sprintf("%s uses Ray (%s) but does not declare it: add %s to the body of %s (import ClassVar from typing); the server supervisor starts Ray only for servers whose entrypoint source declares it, so the server fails at startup",
			d.subject(), use, fix, d.name())
	default:
		msg = fmt.Sprintf("%s uses Ray (%s) but the server supervisor reads ray_enabled only from %s, which does not define the class: subclass %s in %s with %s in its body and start the subclass",
			d.subject(), use, d.entryPath(), d.name(), d.entryPath(), fix)
	}
	a, b := span(d.classSpan())
	dg := UndeclaredRay.New(d.entryPath(), a, b, msg)
	dg.Related = append(d.useRelated(), d.classRelated()...)
	return dg
}

// needNote says what gymlint knows of the server's Ray use, for GL203.
func (d *decl) needNote() string {
	if d.found.use != nil {
		return fmt.Sprintf(" (%s uses Ray: %s)", d.name(), d.found.describe(d.entryPath()))
	}
	return fmt.Sprintf("; gymlint finds no Ray use in %s, so if it does not need Ray, remove the declaration instead", d.name())
}

func (d *decl) checkOwn(own *pyscan.ClassAttr) []diag.Diagnostic {
	var out []diag.Diagnostic
	start, end := pos(own.Span.Start), pos(own.StmtSpan.End)
	val := literal(own.Value)
	switch {
	case own.Value == nil:
		out = append(out, UnreadableRayEnabled.New(d.entryPath(), start, end, fmt.Sprintf(
			"ray_enabled of %s has no value the server supervisor can read: write %s%s",
			d.subject(), fix, d.needNote())))
	case val == "":
		out = append(out, UnreadableRayEnabled.New(d.entryPath(), start, end, fmt.Sprintf(
			"ray_enabled of %s is set to %s, which the server supervisor cannot read from source (it reads only the literal True): write %s%s",
			d.subject(), quote(own.Value.Text), fix, d.needNote())))
	}
	if own.Annotation == "" && own.Value != nil {
		if dg, ok := d.unannotated(own); ok {
			out = append(out, dg)
		}
	}
	switch val {
	case "True":
		if d.found.use == nil && d.found.complete {
			if _, _, _, ok := raySetting(d.v, d.e); !ok {
				out = append(out, UnneededRayEnabled.New(d.entryPath(), start, end, fmt.Sprintf(
					"%s declares ray_enabled = True, but gymlint finds no Ray use in it, in its repository ancestors or in the repository modules they import, and no config that names %s has a Ray setting: remove the declaration, or every run with this server starts Ray for nothing (keep it if the server uses Ray through a library)",
					d.subject(), d.entryPath())))
			}
		}
	case "False":
		if d.found.use != nil {
			out = append(out, d.undeclared(own.Value.Text))
		}
	}
	return out
}

// unannotated is GL204 for a bare class-body assignment, unless an
// ancestor declares ray_enabled as a ClassVar or the ancestry cannot be
// read.
func (d *decl) unannotated(own *pyscan.ClassAttr) (diag.Diagnostic, bool) {
	mro, ok := d.v.MRO(d.cls())
	if !ok {
		return diag.Diagnostic{}, false
	}
	external := false
	for _, a := range mro[1:] {
		switch a.Kind {
		case gym.Own:
			if at := a.Class.Class.Attr(Attr); at != nil && isClassVar(at.Annotation) {
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
	msg := fmt.Sprintf(
		"`ray_enabled = %s` in the body of %s has no annotation, and no ancestor of %s declares ray_enabled as a ClassVar: server classes are pydantic models, and pydantic rejects a non-annotated attribute when the class is created, at import (PydanticUserError: A non-annotated attribute was detected), so the server never starts: write `ray_enabled: ClassVar[bool] = %s` (import ClassVar from typing)",
		short(own.Value.Text), d.subject(), d.name(), short(own.Value.Text))
	if external {
		msg += "; the framework package is outside the repository, and gymlint assumes its classes do not declare the ClassVar"
	}
	dg := UnannotatedRayEnabled.New(d.entryPath(), pos(own.Span.Start), pos(own.StmtSpan.End), msg)
	if f, ok := annotateFix(d.v, d.m(), d.s.Class.Class, own); ok {
		dg.Fixes = []diag.Fix{f}
	}
	return dg, true
}

// frameworkClassVar reports whether a framework class defined in the
// repository, or one of its framework ancestors, declares ray_enabled as a
// ClassVar. (gym's MRO does not look inside framework classes.)
func (d *decl) frameworkClassVar(ref gym.ClassRef, depth int, seen map[*pyscan.Class]bool) bool {
	if seen[ref.Class] || depth > 24 {
		return false
	}
	seen[ref.Class] = true
	if at := ref.Class.Attr(Attr); at != nil && isClassVar(at.Annotation) {
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

// isClassVar reports whether an annotation is ClassVar or ClassVar[...]
// (typing.ClassVar, t.ClassVar, in quotes or not).
func isClassVar(ann string) bool {
	t := strings.Trim(compact(ann), `"'`)
	head, _, _ := strings.Cut(t, "[")
	if i := strings.LastIndexByte(head, '.'); i >= 0 {
		head = head[i+1:]
	}
	return head == "ClassVar"
}

// inherited is GL202: the first repository class in the server class's MRO
// that declares ray_enabled is in another module (and does not set the
// literal False).
func (d *decl) inherited() (diag.Diagnostic, bool) {
	mro, _ := d.v.MRO(d.cls())
	for _, a := range mro {
		if a.Kind != gym.Own {
			continue
		}
		at := a.Class.Class.Attr(Attr)
		if at == nil {
			continue
		}
		if a.Class.Module == d.m() || literal(at.Value) == "False" {
			return diag.Diagnostic{}, false
		}
		var msg string
		switch {
		case a.Class.Class == d.s.Class.Class:
			msg = fmt.Sprintf("%s declares ray_enabled in %s, but the server supervisor reads it only from %s: subclass %s in %s with %s in its body and start the subclass",
				d.subject(), a.Class.Module.Path, d.entryPath(), d.name(), d.entryPath(), fix)
		case d.inEntry():
			msg = fmt.Sprintf("%s inherits ray_enabled from %s (%s:%d), but the server supervisor reads only %s, so an inherited declaration does not count and the server fails at startup: declare %s on %s itself",
				d.subject(), a.Class.Class.Name, a.Class.Module.Path, at.Span.Start.Line, d.entryPath(), fix, d.name())
		default:
			msg = fmt.Sprintf("%s inherits ray_enabled from %s (%s:%d), but the server supervisor reads only %s: subclass %s in %s with %s in its body and start the subclass",
				d.subject(), a.Class.Class.Name, a.Class.Module.Path, at.Span.Start.Line, d.entryPath(), d.name(), d.entryPath(), fix)
		}
		s, e := span(d.classSpan())
		dg := InheritedRayEnabled.New(d.entryPath(), s, e, msg)
		as, ae := pos(at.Span.Start), pos(at.StmtSpan.End)
		dg.Related = append([]diag.Related{{Path: a.Class.Module.Path, Start: as, End: ae,
			Message: fmt.Sprintf("%s declares ray_enabled here", a.Class.Class.Name)}}, d.classRelated()...)
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
	classes := map[string]*pyscan.Class{}
	for _, c := range m.Classes {
		classes[c.Name] = c
	}
	// owner is the class an assignment to recv.ray_enabled in a function
	// of class c (nil: a module-level function) sets; nil when unknown.
	owner := func(recv string, c *pyscan.Class) *pyscan.Class {
		switch recv {
		case "self", "cls", "type(self)", "self.__class__":
			return c
		}
		return classes[recv]
	}
	mine := func(c *pyscan.Class) bool {
		return c == nil || c == d.s.Class.Class || !servers[c]
	}
	var out []diag.Diagnostic
	cs, ce := span(d.classSpan())
	serverRel := diag.Related{Path: d.entryPath(), Start: cs, End: ce, Message: "the server class is " + d.name()}
	add := func(sp pyscan.Span, msg string) {
		a, b := span(sp)
		dg := UnreadableRayEnabled.New(d.entryPath(), a, b, msg)
		dg.Related = append([]diag.Related{serverRel}, d.useRelated()...)
		out = append(out, dg)
	}
	for _, c := range m.Classes {
		if c == d.s.Class.Class || servers[c] {
			continue
		}
		at := c.Attr(Attr)
		if at == nil || at.Value == nil && at.Annotation == "" || literal(at.Value) == "False" {
			continue
		}
		add(pyscan.Span{Start: at.Span.Start, End: at.StmtSpan.End}, fmt.Sprintf(
			"ray_enabled is declared on %s, which is not a server class of %s; the server supervisor reads it only in the body of the server class: declare %s in the body of %s%s",
			c.Name, d.entryPath(), fix, d.name(), d.needNote()))
	}
	var walk func(f *pyscan.Function, c *pyscan.Class)
	walk = func(f *pyscan.Function, c *pyscan.Class) {
		for _, st := range f.Stores {
			if st.Op != "=" {
				continue
			}
			recv, ok := strings.CutSuffix(compact(st.Target.Text), "."+Attr)
			if !ok || literal(st.Value) == "False" || !mine(owner(recv, c)) {
				continue
			}
			add(st.Span, fmt.Sprintf(
				"ray_enabled is set in function %s (`%s.ray_enabled = ...`), which the server supervisor does not read: declare %s in the body of %s instead%s",
				f.Name, recv, fix, d.name(), d.needNote()))
		}
		for _, call := range f.Calls {
			if recv, ok := setattrRay(call); ok && mine(owner(recv, c)) {
				add(call.Span, fmt.Sprintf(
					"ray_enabled is set with setattr() in function %s, which the server supervisor does not read: declare %s in the body of %s instead%s",
					f.Name, fix, d.name(), d.needNote()))
			}
		}
		for _, n := range f.Nested {
			walk(n, c)
		}
	}
	for _, call := range m.Calls {
		if recv, ok := setattrRay(call); ok && mine(owner(recv, nil)) {
			add(call.Span, fmt.Sprintf(
				"ray_enabled is set with setattr(), which the server supervisor does not read: declare %s in the body of %s instead%s",
				fix, d.name(), d.needNote()))
		}
	}
	for _, f := range m.Functions {
		walk(f, nil)
	}
	for _, c := range m.Classes {
		for _, f := range c.Methods {
			walk(f, c)
		}
	}
	return out
}

// setattrRay recognises setattr(recv, "ray_enabled", value) with a value
// other than the literal False, and returns recv's text.
func setattrRay(c *pyscan.Call) (string, bool) {
	if c.Callee.Dotted != "setattr" && c.Callee.Dotted != "builtins.setattr" || len(c.Args) < 2 {
		return "", false
	}
	name := strings.TrimSpace(c.Args[1].Text)
	if name != `"`+Attr+`"` && name != `'`+Attr+`'` {
		return "", false
	}
	if len(c.Args) > 2 && literal(&c.Args[2]) == "False" {
		return "", false
	}
	return compact(c.Args[0].Text), true
}

// quote shows an expression in a message, shortened.
func quote(s string) string { return "`" + short(s) + "`" }

func short(s string) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return string(r)
}
