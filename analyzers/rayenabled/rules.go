package rayenabled

import (
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
)

// The rules of this analyzer. Their docs are the pages `gymlint explain`
// prints and docs/rules.md renders.
var (
	// UndeclaredRay is rule GL201.
	UndeclaredRay = &diag.Rule{
		Code: "GL201", Name: "undeclared-ray", Analyzer: "rayenabled", Severity: diag.Error,
		Needs:   []string{contract.RayPerDeclaration},
		Summary: "A server uses Ray but its entrypoint does not declare ray_enabled = True.",
		Doc:     ruleDoc("GL201"),
	}

	// InheritedRayEnabled is rule GL202.
	InheritedRayEnabled = &diag.Rule{
		Code: "GL202", Name: "inherited-ray-enabled", Analyzer: "rayenabled", Severity: diag.Error,
		Needs:   []string{contract.RayDeclaration},
		Summary: "A server's ray_enabled declaration is inherited from a class in another module.",
		Doc:     ruleDoc("GL202"),
	}

	// UnreadableRayEnabled is rule GL203.
	UnreadableRayEnabled = &diag.Rule{
		Code: "GL203", Name: "unreadable-ray-enabled", Analyzer: "rayenabled", Severity: diag.Error,
		Needs:   []string{contract.RayDeclaration},
		Summary: "A ray_enabled declaration cannot be read from the entrypoint's source.",
		Doc:     ruleDoc("GL203"),
	}

	// UnannotatedRayEnabled is rule GL204.
	UnannotatedRayEnabled = &diag.Rule{
		Code: "GL204", Name: "unannotated-ray-enabled", Analyzer: "rayenabled", Severity: diag.Error,
		Summary: "A bare ray_enabled = ... in a server class raises at import (pydantic).",
		Doc:     ruleDoc("GL204"),
	}

	// UnneededRayEnabled is rule GL205.
	UnneededRayEnabled = &diag.Rule{
		Code: "GL205", Name: "unneeded-ray-enabled", Analyzer: "rayenabled", Severity: diag.Warning,
		Needs:   []string{contract.RayDeclaration},
		Summary: "A server declares ray_enabled = True but uses no Ray.",
		Doc:     ruleDoc("GL205"),
	}
)
