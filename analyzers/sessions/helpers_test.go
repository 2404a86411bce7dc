package sessions

import (
	"strings"
	"testing"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// expr parses one Python expression.
func expr(t *testing.T, src string) (*pyscan.Module, pyscan.Expr) {
	t.Helper()
	p := pyscan.NewParser(pyscan.Options{})
	defer p.Close()
	m := p.Parse("x.py", []byte("("+src+")\n"))
	if m.SyntaxError != nil || len(m.Body) != 1 {
		t.Fatalf("%q does not parse as an expression", src)
	}
	return m, m.Body[0].(*pyscan.ExprStmt).Value
}

func TestLostFix(t *testing.T) {
	for in, want := range map[string]string{
		`BaseVerifyResponse(**body.model_dump(), reward=0.0)`: `BaseVerifyResponse(**(body.model_dump() | lost_session_verification("session is gone")))`,
		`Resp(**f(a, b), reward=0)`:                           `Resp(**(f(a, b) | lost_session_verification("session is gone")))`,
		`{"reward": 0}`:                                       `BaseVerifyResponse(**(body.model_dump() | lost_session_verification("session is gone")))`,
		`Resp(x=g(**y), reward=0)`:                            `BaseVerifyResponse(**(body.model_dump() | lost_session_verification("session is gone")))`,
	} {
		m, e := expr(t, in)
		if got := lostFix(m, e); got != want {
			t.Errorf("lostFix(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplatOperand(t *testing.T) {
	for in, want := range map[string]string{
		"x":                 "x",
		"body.model_dump()": "body.model_dump()",
		"d[k]":              "d[k]",
		"{'a': 1}":          "{'a': 1}",
		"a or b":            "(a or b)",
		"a if c else b":     "(a if c else b)",
		"await f()":         "(await f())",
		"not_a_keyword":     "not_a_keyword",
		"a | b":             "(a | b)",
		"(a | b)":           "(a | b)",
	} {
		m, e := expr(t, in)
		if got := splatOperand(m, e); got != want {
			t.Errorf("splatOperand(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsResourcesServer(t *testing.T) {
	files := map[string]string{
		"nemo_gym/__init__.py":     "",
		"nemo_gym/server_utils.py": "class SimpleServer:\n    pass\n",
		"nemo_gym/base_resources_server.py": "from nemo_gym.server_utils import SimpleServer\n\n\n" +
			"class SimpleResourcesServer(SimpleServer):\n    pass\n",
		"nemo_gym/gymnasium.py": "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\n" +
			"class GymnasiumServer(SimpleResourcesServer):\n    pass\n",
		"resources_servers/a/app.py":    "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\nclass A(SimpleResourcesServer):\n    pass\n",
		"responses_api_agents/b/app.py": "from nemo_gym.server_utils import SimpleServer\n\n\nclass B(SimpleServer):\n    pass\n",
		"resources_servers/c/app.py":    "from nemo_gym.gymnasium import GymnasiumServer\n\n\nclass C(GymnasiumServer):\n    pass\n",
	}
	overlay := map[string][]byte{}
	for p, c := range files {
		overlay[p] = []byte(c)
	}
	v, err := gym.Build(t.TempDir(), gym.Options{Overlay: overlay})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	var got []string
	for _, s := range ResourcesServers(v) {
		got = append(got, s.Class.Class.Name)
	}
	if strings.Join(got, " ") != "A C" {
		t.Errorf("resources servers %v, want A and C", got)
	}
}
