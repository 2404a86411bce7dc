package rayenabled

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// UnreadableRayEnabled is rule GL203.
var UnreadableRayEnabled = &diag.Rule{
	Code: "GL203", Name: "unreadable-ray-enabled", Analyzer: "rayenabled", Severity: diag.Error,
	Needs:   []string{contract.RayDeclaration},
	Summary: "A ray_enabled declaration cannot be read from the entrypoint's source.",
	Doc:     ruleDoc("GL203"),
}

// runUnreadableRayEnabled reports, for a server class whose own body in
// the entrypoint binds ray_enabled, a binding without a value or with a
// value other than the literal True or False; for one whose body does
// not, every other place of the entrypoint that declares or sets it for
// the server (its sites).
func runUnreadableRayEnabled(v *gym.View) []diag.Diagnostic {
	return report(usesOf(v).list, func(u *serverUse) []diag.Diagnostic {
		if u.own != nil {
			if dg, ok := u.unreadableOwn(); ok {
				return []diag.Diagnostic{dg}
			}
			return nil
		}
		return u.unreadableSites()
	})
}

// unreadableOwn is GL203's finding for the server class's own binding,
// when it has no value or one that is not a literal boolean.
func (u *serverUse) unreadableOwn() (diag.Diagnostic, bool) {
	m, at := u.m(), u.own.attr
	start, end := gym.Pos(m, at.Span.Start), gym.Pos(m, at.StmtSpan.End)
	var msg string
	switch {
	case at.Value == nil:
		msg = fmt.Sprintf("ray_enabled of %s has no value the server supervisor can read%s",
			u.subject(), u.needNote())
	case !isTrue(at.Value) && !isFalse(at.Value):
		msg = fmt.Sprintf("ray_enabled of %s is set to %s, not the literal True the server supervisor reads%s",
			u.subject(), quote(valueText(m, at)), u.needNote())
	default:
		return diag.Diagnostic{}, false
	}
	return helped(UnreadableRayEnabled.New(u.entryPath(), start, end, msg), u.needHelp("")), true
}

// unreadableSites is GL203's findings for the server's sites: each
// declaration on another class of the entrypoint, assignment in a
// function and setattr call.
func (u *serverUse) unreadableSites() []diag.Diagnostic {
	m := u.m()
	var out []diag.Diagnostic
	cs, ce := u.classRange()
	serverRel := diag.Related{Path: u.entryPath(), Start: cs, End: ce, Message: "the server class is " + u.name()}
	help := u.needHelp(" in the body of " + u.name())
	add := func(sp pyscan.Span, msg string) {
		a, b := gym.Range(m, sp)
		dg := UnreadableRayEnabled.New(u.entryPath(), a, b, msg)
		dg.Help = help
		dg.Related = append([]diag.Related{serverRel}, u.useRelated()...)
		out = append(out, dg)
	}
	for _, st := range u.sites {
		switch s := st.set; {
		case s == nil:
			add(pyscan.Span{Start: st.attr.Span.Start, End: st.attr.StmtSpan.End}, fmt.Sprintf(
				"ray_enabled is declared on %s, not on server class %s, where the server supervisor reads it%s",
				st.class.Name, u.name(), u.needNote()))
		case s.setattr && s.fn == nil:
			add(s.span, fmt.Sprintf(
				"ray_enabled is set with setattr(), which the server supervisor does not read%s",
				u.needNote()))
		case s.setattr:
			add(s.span, fmt.Sprintf(
				"ray_enabled is set with setattr() in function %s, which the server supervisor does not read%s",
				s.fn.Fn.Name, u.needNote()))
		default:
			add(s.span, fmt.Sprintf(
				"ray_enabled is set in function %s (`%s.ray_enabled = ...`), which the server supervisor does not read%s",
				s.fn.Fn.Name, m.Text(s.recv), u.needNote()))
		}
	}
	return out
}

// needNote says what gymlint knows of the server's Ray use, for GL203's
// message.
func (u *serverUse) needNote() string {
	if u.found.use != nil {
		return fmt.Sprintf(" (%s uses Ray: %s)", u.name(), u.found.describe(u.entryPath()))
	}
	return fmt.Sprintf(" (gymlint finds no Ray use in %s)", u.name())
}

// needHelp is GL203's help: the declaration to write (where), and, when
// gymlint finds no Ray use, the other way out.
func (u *serverUse) needHelp(where string) string {
	h := "write " + fix + where
	if u.found.use == nil {
		h = fmt.Sprintf("if %s needs Ray, %s; if not, remove the declaration", u.name(), h)
	}
	return h
}

// quote shows an expression in a message, shortened.
func quote(s string) string { return "`" + short(s) + "`" }
