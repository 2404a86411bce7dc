package workers

import (
	"fmt"

	"github.com/gymlint/gymlint/analyzers/workers/refusal"
	"github.com/gymlint/gymlint/gym"
)

// The kinds of WorkerStatus.
const (
	// StatusApp: a module-level app and no refusal: several workers work.
	StatusApp = "app"
	// StatusRefusesAlways: the refusal returns a reason on every path.
	StatusRefusesAlways = "refuses always"
	// StatusRefusesWhen: the refusal depends on the config; Condition says
	// when, or is "" when gymlint cannot tell.
	StatusRefusesWhen = "refuses when"
	// StatusNoApp: an override that never refuses, but no module-level app
	// for uvicorn's workers to import.
	StatusNoApp = "no app"
	// StatusUndeclared: neither a module-level app nor an override (what
	// GL101 reports).
	StatusUndeclared = "undeclared"
	// StatusExempt: the entrypoint is exempt (it starts no server).
	StatusExempt = "exempt"
	// StatusUnknown: gymlint cannot tell: the module does not parse, or the
	// server's ancestry runs through classes it cannot resolve.
	StatusUnknown = "unknown"
)

// WorkerStatus summarises how a server answers several workers.
type WorkerStatus struct {
	Kind      string // one of the Status* constants
	Reason    string // the literal reason, for the refusing kinds
	Condition string // for StatusRefusesWhen: when it refuses ("" unknown)
	HasApp    bool   // the entrypoint has a module-level app
}

// String renders the status for a listing: "app", "refuses always",
// "refuses when: <condition>", "refuses when: (condition not known
// statically)", "no app", "undeclared", "exempt" or "unknown"; a refusing
// server that also has a module-level app gets " (+app)".
func (s WorkerStatus) String() string {
	out := s.Kind
	if s.Kind == StatusRefusesWhen {
		if s.Condition != "" {
			out += ": " + s.Condition
		} else {
			out += ": (condition not known statically)"
		}
	}
	if s.HasApp && (s.Kind == StatusRefusesAlways || s.Kind == StatusRefusesWhen) {
		out += " (+app)"
	}
	return out
}

// Status summarises a server of an entrypoint for the inventory.
func Status(v *gym.View, e *gym.Entrypoint, s gym.Server) WorkerStatus {
	var st WorkerStatus
	if e.Module != nil {
		st.HasApp = gym.HasModuleApp(e.Module) != nil
	}
	switch {
	case e.Exemption != nil:
		st.Kind = StatusExempt
		return st
	case e.Module == nil || e.Module.SyntaxError != nil:
		st.Kind = StatusUnknown
		return st
	}
	r := refusal.Of(v, s.Class)
	switch r.Kind {
	case refusal.Always:
		st.Kind, st.Reason = StatusRefusesAlways, r.Reason
	case refusal.When:
		st.Kind, st.Reason, st.Condition = StatusRefusesWhen, r.Reason, r.Condition
	default:
		switch {
		case st.HasApp:
			st.Kind = StatusApp
		case r.Uncertain:
			st.Kind = StatusUnknown
		case r.Method != nil:
			st.Kind = StatusNoApp
		default:
			st.Kind = StatusUndeclared
		}
	}
	return st
}

// who names the refusal method of a server for a message:
// "EchoServer.multiple_workers_unsupported_reason()", or, when the method
// is inherited, "EchoServer's multiple_workers_unsupported_reason()
// (inherited from Base in path)".
func who(s gym.ClassRef, r *refusal.Result) string {
	if r.Class.Class == nil || r.Class.Class == s.Class {
		return s.Class.Name + "." + Method + "()"
	}
	from := r.Class.Class.Name
	if r.Class.Module != s.Module {
		from += " in " + r.Class.Module.Path
	}
	return fmt.Sprintf("%s's %s() (inherited from %s)", s.Class.Name, Method, from)
}
