package facts_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/pyscan"
)

func names(rs []facts.Reached) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Func.Name())
	}
	return strings.Join(out, " ")
}

// TestPhases: Startup is the start-up hooks and what they reach, Scoring
// verify and aggregate_metrics and theirs; a route's own helpers are in
// neither, and a helper both reach is in both.
func TestPhases(t *testing.T) {
	f := build(t, map[string]string{"resources_servers/s/app.py": header + `

def load_table():
    return {}


class Base(SimpleResourcesServer):
    def model_post_init(self, context):
        self._boot()

    def _boot(self):
        self.table = load_table()
        self._shared()


class S(Base):
    def setup_webserver(self):
        app = super().setup_webserver()
        return app

    async def verify(self, body):
        return self._score(body)

    def _score(self, body):
        self._shared()
        return 1.0

    def _shared(self):
        pass

    async def step(self, body):
        return self._move(body)

    def _move(self, body):
        return body
`})
	s := server(t, f)
	if got, want := names(f.Startup(s)), "Base.model_post_init Base._boot load_table S._shared S.setup_webserver"; got != want {
		t.Errorf("Startup = %q, want %q", got, want)
	}
	if got, want := names(f.Scoring(s)), "S.verify S._score S._shared"; got != want {
		t.Errorf("Scoring = %q, want %q", got, want)
	}
	move := f.Override(s, "_move")
	if move == nil || f.InStartup(s, move) {
		t.Errorf("S._move is a route's helper, not start-up code")
	}
	if boot := f.Override(s, "_boot"); boot == nil || !f.InStartup(s, boot) {
		t.Errorf("Base._boot runs at start-up")
	}
}

// TestConfigField: only a chain from the receiver through config names a
// config field.
func TestConfigField(t *testing.T) {
	f := build(t, map[string]string{"resources_servers/s/app.py": header + `

class S(SimpleResourcesServer):
    def m(self, other):
        a = self.config.port
        b = self.config.tool.port
        c = other.config.port
        d = self.config
        e = self.cfg.port
        g = self.config.port.bit_length()
`})
	s := server(t, f)
	m := f.Override(s, "m")
	var got []string
	for _, st := range m.Fn.Body {
		as, ok := st.(*pyscan.Assign)
		if !ok {
			continue
		}
		got = append(got, fmt.Sprint(facts.ConfigField(m.Recv, as.Value)))
	}
	if want := "[port] [tool port] [] [] [] []"; strings.Join(got, " ") != want {
		t.Errorf("ConfigField = %s, want %s", strings.Join(got, " "), want)
	}
	if facts.ConfigField("", nil) != nil {
		t.Error("no receiver, no config field")
	}
}

// TestEachCall: every call of a module, with the function whose body holds
// it: nil at module scope and in class bodies, the method, the nested
// function.
func TestEachCall(t *testing.T) {
	f := build(t, map[string]string{"resources_servers/s/app.py": header + `

setup()


class S(SimpleResourcesServer):
    limit = compute()

    def m(self):
        first()

        def inner():
            second()

        return inner


def helper():
    third()
`})
	m, err := f.View().Module("resources_servers/s/app.py")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	f.EachCall(m, func(fn *facts.Func, c *pyscan.Call) {
		where := "-"
		if fn != nil {
			where = fn.Name()
		}
		got = append(got, m.Text(c.Func)+"@"+where)
	})
	if want := "setup@- compute@- first@S.m second@S.m.inner third@helper"; strings.Join(got, " ") != want {
		t.Errorf("EachCall = %q, want %q", strings.Join(got, " "), want)
	}
}
