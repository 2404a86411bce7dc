package pyscan

import (
	"fmt"
	"strings"
	"testing"
)

func guardText(gs []Guard) string {
	var parts []string
	for _, g := range gs {
		if g.Negated {
			parts = append(parts, "not("+g.Cond.Text+")")
		} else {
			parts = append(parts, g.Cond.Text)
		}
	}
	return strings.Join(parts, " & ")
}

func TestReturnsAndGuards(t *testing.T) {
	src := `class S(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        if self.config.metrics_source == "prometheus":
            return "metrics snapshot in memory"
        elif self.config.compute_comet:
            if self.config.num_gpus > 1:
                raise ValueError("too many")
            return None
        else:
            return
        return "unreachable"
`
	m := parseSrc(t, src)
	f := m.Classes[0].Methods[0]
	var got []string
	for _, r := range f.Returns {
		v := "<bare>"
		if r.Value != nil {
			v = r.Value.Text
		}
		got = append(got, fmt.Sprintf("%d %s [%s]", r.Span.Start.Line, v, guardText(r.Guards)))
	}
	want := []string{
		`4 "metrics snapshot in memory" [self.config.metrics_source == "prometheus"]`,
		`8 None [not(self.config.metrics_source == "prometheus") & self.config.compute_comet]`,
		`10 <bare> [not(self.config.metrics_source == "prometheus") & not(self.config.compute_comet)]`,
		`11 "unreachable" []`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("returns:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(f.Raises) != 1 || guardText(f.Raises[0].Guards) != `not(self.config.metrics_source == "prometheus") & self.config.compute_comet & self.config.num_gpus > 1` {
		t.Errorf("raise guards: %+v", f.Raises)
	}
	checkInvariants(t, m, []byte(src))
}

func TestStoresAndSubscripts(t *testing.T) {
	src := `class S(SimpleResourcesServer):
    async def seed_session(self, request, body):
        self._envs[body.env_id] = make_env()
        self.count += 1
        self.ray_enabled = True
        a, self.b = 1, 2
        x = self._envs[body.env_id]
        del self._envs[body.env_id]
        local = 3
        if body.reset:
            self._state[request.session["id"]] = {}
        return self._envs.get(body.env_id)
`
	m := parseSrc(t, src)
	f := m.Classes[0].Methods[0]
	var got []string
	for _, s := range f.Stores {
		key, val := "", ""
		if s.Key != nil {
			key = " key=" + s.Key.Text
		}
		if s.Value != nil {
			val = " value=" + s.Value.Text
		}
		got = append(got, fmt.Sprintf("%d %s %s%s%s [%s]", s.Span.Start.Line, s.Target.Dotted, s.Op, key, val, guardText(s.Guards)))
	}
	want := []string{
		"3 self._envs =" + " key=body.env_id value=make_env() []",
		"4 self.count += value=1 []",
		"5 self.ray_enabled = value=True []",
		"6 self.b = []",
		"8 self._envs del key=body.env_id []",
		`11 self._state = key=request.session["id"] value={} [body.reset]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("stores:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var reads []string
	for _, s := range f.Subscripts {
		reads = append(reads, fmt.Sprintf("%d %s[%s]", s.Span.Start.Line, s.Object.Dotted, s.Key.Text))
	}
	// Line 11's request.session["id"] is read to compute the key; the
	// stores' own targets are not reads.
	if want := `7 self._envs[body.env_id]|11 request.session["id"]`; strings.Join(reads, "|") != want {
		t.Errorf("subscript reads: %s, want %s", strings.Join(reads, "|"), want)
	}
	checkInvariants(t, m, []byte(src))
}
