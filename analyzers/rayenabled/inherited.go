package rayenabled

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// InheritedRayEnabled is rule GL202.
var InheritedRayEnabled = &diag.Rule{
	Code: "GL202", Name: "inherited-ray-enabled", Analyzer: "rayenabled", Severity: diag.Error,
	Needs:   []string{contract.RayDeclaration},
	Summary: "A server's ray_enabled declaration is inherited from a class in another module.",
	Doc:     ruleDoc("GL202"),
}

// runInheritedRayEnabled reports a server class that has its ray_enabled
// declaration from a class in another module than the entrypoint (itself,
// when it is defined there), when its own body in the entrypoint declares
// nothing and no other place of the entrypoint sets it (GL203 then says
// what to do with that place).
func runInheritedRayEnabled(v *gym.View) []diag.Diagnostic {
	return report(usesOf(v).list, func(u *serverUse) []diag.Diagnostic {
		if u.own != nil || len(u.sites) > 0 || u.inherited == nil {
			return nil
		}
		return []diag.Diagnostic{u.inheritedFinding()}
	})
}

// inheritedFinding is GL202's finding for the server's inherited
// declaration.
func (u *serverUse) inheritedFinding() diag.Diagnostic {
	from, at := u.inherited.from, u.inherited.attr
	line := from.Module.Line(at.Span.Start)
	var msg, help string
	subclass := fmt.Sprintf("subclass %s in %s with %s in its body and start the subclass", u.name(), u.entryPath(), fix)
	switch {
	case from.Class == u.s.Class.Class:
		msg = fmt.Sprintf("%s declares ray_enabled there, not in its entrypoint, where the server supervisor reads it",
			u.subject())
		help = subclass
	case u.inEntry():
		msg = fmt.Sprintf("%s inherits ray_enabled from %s (%s:%d), which the server supervisor does not read",
			u.subject(), from.Class.Name, from.Module.Path, line)
		help = fmt.Sprintf("declare %s on %s itself", fix, u.name())
	default:
		msg = fmt.Sprintf("%s inherits ray_enabled from %s (%s:%d), which the server supervisor does not read",
			u.subject(), from.Class.Name, from.Module.Path, line)
		help = subclass
	}
	s, e := u.classRange()
	dg := InheritedRayEnabled.New(u.entryPath(), s, e, msg)
	dg.Help = help
	dg.Related = append([]diag.Related{gym.Related(from.Module, pyscan.Span{Start: at.Span.Start, End: at.StmtSpan.End},
		fmt.Sprintf("%s declares ray_enabled here", from.Class.Name))}, u.classRelated()...)
	return dg
}
