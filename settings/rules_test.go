package settings

import (
	"strings"
	"testing"
)

func TestParseRuleKeys(t *testing.T) {
	s, err := Parse("x", []byte("disable: [GL205, unneeded-ray-enabled, sessions]\nenable: [GL101]\nseverity: {workers: info, GL101: warning}\nper_path_ignores:\n  - paths: [\"./bench/**\"]\n    rules: [GL101]\n    reason: why\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Disable[0] != "GL205" || len(s.Disable) < 5 || len(s.Enable) != 1 || s.Severity["GL101"] != "warning" || s.Severity["GL102"] != "info" {
		t.Errorf("%+v", s)
	}
	if pi := s.PerPathIgnores[0]; pi.Paths[0] != "bench/**" || pi.Rules[0] != "GL101" || pi.Line != 5 {
		t.Errorf("%+v", pi)
	}
}

func TestParseErrorsWithLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"server_types: [a]\nbogus: 1\n", `x:2: unknown key "bogus"`},
		{"disable:\n  - GL101\n  - GL999\n", `x:3: unknown rule "GL999" in disable`},
		{"disable: GL101\n", "x:1: disable must be a list"},
		{"severity: {GL101: fatal}\n", `x:1: severity.GL101 must be error, warning or info, not "fatal"`},
		{"severity: {GL101: error, undeclared-workers: info}\n", "x:1: severity of GL101 is given twice"},
		{"per_path_ignores:\n  - paths: [a]\n    rules: [GL101]\n", "x:2: per_path_ignores entry for a has no reason"},
		{"per_path_ignores:\n  - paths: [a]\n    rulez: [GL101]\n", `x:3: unknown key "rulez" in a per_path_ignores entry`},
		{"per_path_ignores:\n  - paths: [\"/abs\"]\n    rules: [GL101]\n    reason: r\n", "x:2: per_path_ignores.paths: \"/abs\" must be relative"},
		{"per_path_ignores:\n  - paths: [\"a/[\"]\n    rules: [GL101]\n    reason: r\n", "is not a valid glob"},
		{"enable: []\n", "x:1: enable must list at least one rule"},
	} {
		_, err := Parse("x", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
}

func TestParseTOML(t *testing.T) {
	src := `[project]
name = "x"

[tool.gymlint]
framework_package = "my_gym"
disable = ["GL205"]
severity = { GL106 = "error" }

[[tool.gymlint.exempt]]
path = "a/base.py"
reason = "base class"

[[tool.gymlint.per_path_ignores]]
paths = ["bench/**"]
rules = ["GL101"]
reason = "one worker"

[[tool.gymlint.per_path_ignores]]
paths = ["old/*.py"]
rules = ["rayenabled"]
reason = "legacy"
`
	s, ok, err := ParseTOML("pyproject.toml", []byte(src))
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if s.File != "pyproject.toml" || s.FrameworkPackage != "my_gym" || s.Disable[0] != "GL205" || s.Severity["GL106"] != "error" ||
		len(s.Exempt) != 1 || s.Exempt[0].Pos.Line != 9 || len(s.PerPathIgnores) != 2 || s.PerPathIgnores[1].Line != 18 {
		t.Errorf("%+v", s)
	}
	if _, ok, err := ParseTOML("pyproject.toml", []byte("[project]\nname = \"x\"\n")); ok || err != nil {
		t.Errorf("no [tool.gymlint]: %v %v", ok, err)
	}
	for _, c := range []struct{ in, want string }{
		{"[tool.gymlint]\nserver_types = [\"a\"]\nbogus = 1\n", `pyproject.toml:3: unknown key "bogus"`},
		{"[tool.gymlint]\n\ndisable = \"GL101\"\n", "pyproject.toml:3: disable must be a list"},
		{"[tool.gymlint]\nseverity = { GL101 = \"error\", GL102 = 3 }\n", "pyproject.toml:2: severity.GL102 must be error, warning or info"},
		{"[tool.gymlint]\ndisable = [\"GL101\"]\n\n[[tool.gymlint.per_path_ignores]]\npaths = [\"a\"]\nrules = [\"GL101\"]\nreason = \"r\"\n\n[[tool.gymlint.per_path_ignores]]\npaths = [\"b\"]\nrules = [\"GL999\"]\nreason = \"r\"\n", `pyproject.toml:9: unknown rule "GL999"`},
		{"[tool.gymlint\n", "pyproject.toml:2: expected"},
	} {
		_, _, err := ParseTOML("pyproject.toml", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
}
