package rayenabled

import (
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// TRANSITION: a stand-in until the analyzer moves onto the typed model.

// RayStatus summarises a server's Ray declaration and use.
type RayStatus struct {
	Declared bool
	Needed   bool
	Use      *diag.Related
}

// Status is a stand-in.
func Status(v *gym.View, s gym.Server) RayStatus { return RayStatus{} }
