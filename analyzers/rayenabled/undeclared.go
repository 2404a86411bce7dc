package rayenabled

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// UndeclaredRay is rule GL201.
var UndeclaredRay = &diag.Rule{
	Code: "GL201", Name: "undeclared-ray", Analyzer: "rayenabled", Severity: diag.Error,
	Needs:   []string{contract.RayPerDeclaration},
	Summary: "A server uses Ray but its entrypoint does not declare ray_enabled = True.",
	Doc:     ruleDoc("GL201"),
}

// runUndeclaredRay reports a server that uses Ray and whose entrypoint
// declares no ray_enabled for it: the server class's own body declares the
// literal False; or it declares nothing, and no other place of the
// entrypoint sets it (GL203 then says what to do with that place) and the
// class inherits no declaration from another module (GL202).
func runUndeclaredRay(v *gym.View) []diag.Diagnostic {
	return report(usesOf(v).list, func(u *serverUse) []diag.Diagnostic {
		if u.found.use == nil {
			return nil
		}
		switch {
		case u.own != nil && isFalse(u.own.attr.Value):
			return []diag.Diagnostic{u.undeclared(true)}
		case u.own == nil && len(u.sites) == 0 && u.inherited == nil:
			return []diag.Diagnostic{u.undeclared(false)}
		}
		return nil
	})
}

// undeclared is GL201's finding; declaredFalse is set when the class
// declares False.
func (u *serverUse) undeclared(declaredFalse bool) diag.Diagnostic {
	use := u.found.describe(u.entryPath())
	var msg, help string
	switch {
	case declaredFalse:
		msg = fmt.Sprintf("%s declares ray_enabled = False but uses Ray (%s)", u.subject(), use)
		help = fmt.Sprintf("set it to True, %s: the server supervisor does not start Ray for a server that does not declare it, so the server fails at startup", fix)
	case u.inEntry():
		msg = fmt.Sprintf("%s uses Ray (%s) but does not declare it", u.subject(), use)
		help = fmt.Sprintf("add %s to the body of %s (import ClassVar from typing): the server supervisor starts Ray only for servers whose entrypoint source declares it, so the server fails at startup", fix, u.name())
	default:
		msg = fmt.Sprintf("%s uses Ray (%s) but is defined outside its entrypoint, where the server supervisor reads ray_enabled", u.subject(), use)
		help = fmt.Sprintf("subclass %s in %s with %s in its body and start the subclass", u.name(), u.entryPath(), fix)
	}
	help += u.latestOnly()
	a, b := u.classRange()
	dg := UndeclaredRay.New(u.entryPath(), a, b, msg)
	dg.Help = help
	dg.Related = append(u.useRelated(), u.classRelated()...)
	return dg
}

// latestOnly says, when the repository's framework does not start Ray per
// declaration (GL201 is then reported only with --contract latest), that
// the reason is the current contract's and not yet this framework's.
func (sv *serverDecl) latestOnly() string {
	fw := sv.v.Options.Framework
	if !fw.Lacks(contract.RayPerDeclaration) {
		return ""
	}
	return fmt.Sprintf(" (the current contract; %s at %s still starts Ray for every server)", fw.Package, fw.Display())
}
