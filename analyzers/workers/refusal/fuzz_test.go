package refusal

import (
	"strings"
	"testing"

	"github.com/gymlint/gymlint/gym"
)

// FuzzRefusal analyses arbitrary Python: once as the body of a server's
// multiple_workers_unsupported_reason(), once as a whole entrypoint module
// (every server class it defines), and checks what the analysis promises
// whatever the input: no panic, paths inside their module, in bounds, with
// known outcomes, and a Decide against no settings that agrees with Kind
// (nothing is decided, so it refuses exactly when the method always does,
// and accepts exactly when it never does).
func FuzzRefusal(f *testing.F) {
	for _, s := range []string{
		`return "r"`,
		"if self.config.x == \"a\":\n    return \"r\"\nreturn None",
		"if not (self.config.a and self.b) or self.config.c in (1, 2):\n    return f\"{self.x!r:>{w}}\" \"y\"\nreturn super().multiple_workers_unsupported_reason()",
		"for t in self.tools:\n    if t:\n        break\nelse:\n    return \"r\"\nreturn \"s\" if self.config.n > -1 else None",
		"try:\n    assert self.config.p\nexcept Exception:\n    raise\nmatch self.config.m:\n    case \"a\":\n        return \"x\" % y\nreturn \"{}\".format(z)",
		"while self.config.retry:\n    return (a := \"r\")\nreturn lambda: 1",
		"return REASON",
		"return self.REASON",
		"if self.config.a.b is not None and 2 <= self.config.n < 3:\n    return b'x'\nreturn \"\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if len(body) > 4096 {
			return
		}
		var indented strings.Builder
		for _, l := range strings.Split(body, "\n") {
			indented.WriteString("        " + l + "\n")
		}
		v := rfView(t, map[string]string{
			"resources_servers/body/app.py":   rfHeader + "REASON = \"r\"\n\n\nclass EchoServer(SimpleResourcesServer):\n    REASON: ClassVar[str] = \"c\"\n\n    def multiple_workers_unsupported_reason(self):\n" + indented.String(),
			"resources_servers/module/app.py": body,
		})
		for _, e := range v.Entrypoints {
			for _, s := range e.Servers {
				checkInvariants(t, v, s)
			}
		}
	})
}

func checkInvariants(t *testing.T, v *gym.View, s gym.Server) {
	r := Analyze(v, s.Class)
	if r.Condition != "" && r.Kind != When {
		t.Errorf("a condition %q for kind %v", r.Condition, r.Kind)
	}
	if r.Reason != "" && r.Kind == Never {
		t.Errorf("a reason %q for a server that never refuses", r.Reason)
	}
	if len(r.Paths) > len(r.prog.pathsOrNil())+1 {
		t.Errorf("%d paths out of %d", len(r.Paths), len(r.prog.pathsOrNil()))
	}
	for _, p := range r.Paths {
		if p.Outcome < Accepts || p.Outcome > Raises {
			t.Errorf("outcome %v", p.Outcome)
		}
		if p.Condition != "" && !p.Conditional {
			t.Errorf("path with condition %q is not conditional", p.Condition)
		}
		if p.Class.Module == nil || p.Span.Start < 0 || int(p.Span.End) > p.Class.Module.Size || p.Span.Start > p.Span.End {
			t.Errorf("path span %v outside its module", p.Span)
		}
		if p.Outcome == Refuses && r.Kind == Never {
			t.Errorf("a refusing path in a server that never refuses")
		}
	}
	if r.Uncertain {
		return
	}
	d := r.Decide(nil)
	if (d.Verdict == Refuse) != (r.Kind == Always) || (d.Verdict == Accept) != (r.Kind == Never) {
		t.Errorf("Decide(nil) gives %v for kind %v", d.Verdict, r.Kind)
	}
	if d.Verdict == Refuse && len(d.Paths) == 0 {
		t.Errorf("a refusal with no refusing path")
	}
}

// pathsOrNil is the program's paths; none when there is no program.
func (p *program) pathsOrNil() []Path {
	if p == nil {
		return nil
	}
	return p.paths
}
