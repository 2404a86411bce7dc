package workers

import "github.com/gymlint/gymlint/gym"

// TRANSITION: a stand-in until the analyzer moves onto the typed model.

// WorkerStatus summarises how a server answers several workers.
type WorkerStatus struct {
	Kind, Reason, Condition string
	HasApp                  bool
}

// Status is a stand-in.
func Status(v *gym.View, e *gym.Entrypoint, s gym.Server) WorkerStatus {
	return WorkerStatus{Kind: StatusUnknown}
}
