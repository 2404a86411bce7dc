package schema_test

import (
	"github.com/gymlint/gymlint/internal/mdfence"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/gymlint/gymlint/schema"
	"github.com/gymlint/gymlint/settings"
)

// A configuration is judged twice: by settings (Parse for YAML, ParseTOML
// for pyproject.toml) and by the schema. The two must agree, except where
// a JSON Schema cannot say what settings checks, or where the schema is
// deliberately stricter; each such case is listed in differences with
// why, and the test checks that it does differ as said (so that the list
// stays true).
//
// What the schema cannot express (it accepts, settings rejects):
//   - unknownRule: a rule code or name of the right shape that is not in
//     the catalogue (GL999, a misspelt name): the schema does not list the
//     catalogue, which grows with every rule (`gymlint rules` lists it);
//     it checks the shape, the analyzer names and ALL.
//   - cleanedPath: a path or glob that is wrong only once cleaned or
//     parsed (a/../.. climbs out of the root; a/[ is not a glob).
//   - twice: a severity given twice to one rule, by its code and by its
//     name; a key given twice (JSON has no duplicate keys).
//   - yamlNodes: YAML anchors and aliases (settings reads the node as
//     written, an alias is not a list) and integer spellings other than
//     decimal digits (0x400, 1_024, 1024.0), which settings reads as text.
//
// Where the schema is stricter (it rejects, settings accepts):
//   - scalarText: settings reads any scalar as its text, so
//     framework_package: 5, server_types: [1] or max_file_size: "1024"
//     pass; the schema asks for the documented type (a string, a list of
//     strings, an integer), as an editor should.
//   - trimmed: settings trims spaces around a selector (" GL101 ") and a
//     leading "./" before checking a glob ("./" is then empty); the schema
//     sees the value as written.
const (
	unknownRule = "the schema checks a rule's shape, not the catalogue"
	cleanedPath = "a path or glob that is wrong only once cleaned or parsed"
	twice       = "a rule or key given twice"
	yamlNodes   = "YAML anchors, aliases and integer spellings, read by settings as written"
	scalarText  = "settings reads any scalar as its text; the schema asks for the documented type"
	trimmed     = "settings trims spaces and ./ before checking; the schema sees the value as written"
)

// differences are the configurations (their text, exactly) on which the
// schema and settings disagree, by why. A comment names the settings test
// that writes one.
var differences = map[string][]string{
	unknownRule: {
		"disable: [GL999]\n",
		"disable: [undeclared-worker]\n",
		"disable: [gl101]\n",
		"disable: [all]\n",
		"severity: {GL999: error}\n",
		"disable:\n  - GL101\n  - GL999\n", // TestParseErrorsWithLine
		"disable: [GL9]\n",                 // TestConfigPrefixes
		"[tool.gymlint]\ndisable = [\"GL101\"]\n\n[[tool.gymlint.per_path_ignores]]\npaths = [\"a\"]\nrules = [\"GL101\"]\nreason = \"r\"\n\n" +
			"[[tool.gymlint.per_path_ignores]]\npaths = [\"b\"]\nrules = [\"GL999\"]\nreason = \"r\"\n", // TestParseTOML
	},
	cleanedPath: {
		"framework_path: a/../..\n",
		"extra_roots: [a/../../b]\n",
		"exclude: [\"./\"]\n",
		"exclude: [\"a/[\"]\n", // TestExcludeKey
		"per_path_ignores:\n  - paths: [\"a/[\"]\n    rules: [GL101]\n    reason: r\n", // TestParseErrorsWithLine
	},
	twice: {
		"severity: {GL101: error, undeclared-workers: info}\n", // TestParseErrorsWithLine
	},
	yamlNodes: {
		"server_types: &t [a]\nexclude: *t\n",
		"max_file_size: 0x400\n",
		"max_file_size: 1024.0\n",
	},
	scalarText: {
		"framework_package: 5\n",
		"server_types: [1]\n",
		"max_file_size: \"1024\"\n",
		"exempt:\n  - {path: 5, reason: r}\n",
		"[tool.gymlint]\nframework_package = 5\n",
	},
	trimmed: {
		"disable: [\" GL101 \"]\n",
	},
}

// difference says why the schema and settings disagree on text, if they
// are listed as disagreeing.
func difference(text string) (string, bool) {
	for why, texts := range differences {
		if slices.Contains(texts, text) {
			return why, true
		}
	}
	return "", false
}

// configCase is a configuration the test judges, and whether it must be
// valid (known: the test says so, not only settings).
type configCase struct {
	text  string
	toml  bool
	valid bool
	known bool
}

// cases are configurations that show each constraint of the schema, both
// ways, and the differences.
var cases = []configCase{
	{text: "", valid: true, known: true},
	{text: "~\n", valid: true, known: true},
	{text: "# nothing\n", valid: true, known: true},
	{text: "contract: latest\n", valid: true, known: true},
	{text: "contract: auto\nframework_path: third_party/./nemo_gym/\nframework_package: my-gym\n", valid: true, known: true},
	{text: "max_file_size: 1\n", valid: true, known: true},
	{text: "max_file_size: 4194304\n", valid: true, known: true},
	{text: "server_types: [resources_servers, my_servers]\n", valid: true, known: true},
	{text: "enable: [GL, ALL, GL1, GL10, GL101, workers, undeclared-workers]\ndisable: []\n", valid: true, known: true},
	{text: "severity: {ALL: info, GL1: warning, sessions: error, undeclared-workers: error}\n", valid: true, known: true},
	{text: "exclude: [build/, ./output/**, \"**/scratch\", \"a/[ab]/*.py\"]\n", valid: true, known: true},
	{text: "extra_roots: [plugins/, ./vendor/servers]\n", valid: true, known: true},
	{text: "words: {release: [evict, power_off], credential: [pat], session-noun: []}\n", valid: true, known: true},
	{text: "exempt: []\nper_path_ignores: []\nwords: {}\nseverity: {}\n", valid: true, known: true},
	{text: "per_path_ignores:\n  - paths: [\"./bench/**\"]\n    rules: [GL101, sessions]\n    reason: why\n", valid: true, known: true},

	// A wrong type.
	{text: "server_types: resources_servers\n", known: true},
	{text: "exempt: resources_servers/a.py\n", known: true},
	{text: "exempt: [resources_servers/a.py]\n", known: true},
	{text: "disable: GL101\n", known: true},
	{text: "severity: [GL101]\n", known: true},
	{text: "words: [evict]\n", known: true},
	{text: "words: {release: evict}\n", known: true},
	{text: "exclude: output\n", known: true},
	{text: "extra_roots: plugins\n", known: true},
	{text: "max_file_size: big\n", known: true},
	{text: "contract: [auto]\n", known: true},
	{text: "framework_package: [nemo_gym]\n", known: true},
	{text: "[1, 2]\n", known: true},
	{text: "just text\n", known: true},
	// An unknown key, at the top or in an entry.
	{text: "bogus: 1\n", known: true},
	{text: "Contract: auto\n", known: true},
	{text: "exempt:\n  - {path: a.py, reason: r, note: x}\n", known: true},
	{text: "per_path_ignores:\n  - {paths: [a], rulez: [GL101], reason: r}\n", known: true},
	{text: "words: {releases: [x]}\n", known: true},
	{text: "words: {go-decode: [x]}\n", known: true},
	// A bad value.
	{text: "contract: newest\n", known: true},
	{text: "contract: true\n", known: true},
	{text: "contract:\n", known: true},
	{text: "server_types: []\n", known: true},
	{text: "enable: []\n", known: true},
	{text: "max_file_size: 0\n", known: true},
	{text: "max_file_size: -1\n", known: true},
	{text: "max_file_size: 4194305\n", known: true},
	{text: "severity: {GL101: fatal}\n", known: true},
	{text: "severity: {GL1x: error}\n", known: true},
	{text: "disable: [GL1010]\n", known: true},
	{text: "framework_package: my/gym\n", known: true},
	{text: "framework_package: \"\"\n", known: true},
	{text: "framework_path: .\n", known: true},
	{text: "framework_path: ./\n", known: true},
	{text: "framework_path: ../gym\n", known: true},
	{text: "framework_path: /opt/x\n", known: true},
	{text: "extra_roots: [..]\n", known: true},
	{text: "extra_roots: [/opt/plugins]\n", known: true},
	{text: "exclude: [/abs]\n", known: true},
	{text: "exclude: [\"a\\\\b\"]\n", known: true},
	{text: "exclude: [output//x]\n", known: true},
	{text: "exclude: [\"\"]\n", known: true},
	{text: "words: {release: [two words]}\n", known: true},
	{text: "words: {release: [\"\"]}\n", known: true},
	// An exemption or a per-path ignore without what it needs.
	{text: "exempt:\n  - path: a.py\n", known: true},
	{text: "exempt:\n  - path: a.py\n    reason: \"  \"\n", known: true},
	{text: "exempt:\n  - reason: Base classes.\n", known: true},
	{text: "exempt:\n  - path: \"\"\n    reason: Base classes.\n", known: true},
	{text: "per_path_ignores:\n  - paths: [a]\n    rules: [GL101]\n", known: true},
	{text: "per_path_ignores:\n  - paths: []\n    rules: [GL101]\n    reason: r\n", known: true},
	{text: "per_path_ignores:\n  - paths: [a]\n    rules: []\n    reason: r\n", known: true},
	{text: "per_path_ignores:\n  - paths: [a/]\n    rules: [GL101]\n    reason: r\n", known: true},

	// pyproject.toml.
	{toml: true, text: "[project]\nname = \"x\"\n\n[tool.gymlint]\nframework_package = \"my_gym\"\ncontract = \"latest\"\ndisable = [\"GL205\"]\nseverity = { GL106 = \"error\" }\nmax_file_size = 1024\n\n[[tool.gymlint.exempt]]\npath = \"a/base.py\"\nreason = \"base class\"\n\n[[tool.gymlint.per_path_ignores]]\npaths = [\"bench/**\"]\nrules = [\"GL101\"]\nreason = \"one worker\"\n\n[tool.gymlint.words]\nrelease = [\"evict\"]\n", valid: true, known: true},
	{toml: true, text: "[tool.gymlint]\nmax_file_size = 1024.0\n", valid: true, known: true},
	{toml: true, text: "[tool.gymlint]\ncontract = \"newest\"\n", known: true},
	{toml: true, text: "[tool.gymlint]\ncontract = 1\n", known: true},
	{toml: true, text: "[tool.gymlint]\nbogus = 1\n", known: true},
	{toml: true, text: "[tool.gymlint]\ndisable = \"GL101\"\n", known: true},
	{toml: true, text: "[tool.gymlint]\nmax_file_size = 4194305\n", known: true},
	{toml: true, text: "[[tool.gymlint.exempt]]\npath = \"a/base.py\"\n", known: true},
	{toml: true, text: "[tool.gymlint]\nseverity = { GL101 = \"error\", GL102 = 3 }\n", known: true},
}

func init() {
	for _, texts := range differences {
		for _, text := range texts {
			if !slices.ContainsFunc(cases, func(c configCase) bool { return c.text == text }) {
				cases = append(cases, configCase{text: text, toml: strings.Contains(text, "[tool.gymlint]")})
			}
		}
	}
}

// judge reads a configuration with settings and with the schema; ok is
// false when it is not one (not YAML, or not TOML with [tool.gymlint]).
func judge(t *testing.T, sch *jsonschema.Schema, c configCase) (settingsErr, schemaErr error, ok bool) {
	t.Helper()
	var doc any
	if c.toml {
		_, table, found, isTOML := parsePyProject([]byte(c.text))
		if !isTOML || !found {
			return nil, nil, false
		}
		doc = table
		_, _, settingsErr = settings.ParseTOML(settings.PyProject, []byte(c.text))
	} else {
		n, isYAML := parseYAML([]byte(c.text))
		if !isYAML {
			return nil, nil, false
		}
		v, err := yamlValue(n)
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		doc = v
		_, settingsErr = settings.Parse(settings.FileName, []byte(c.text))
	}
	return settingsErr, sch.Validate(doc), true
}

// agree fails t when settings and the schema disagree on c (unless c is
// a listed difference, which must then differ as listed), or when c says
// which it must be and either is not that.
func agree(t *testing.T, sch *jsonschema.Schema, where string, c configCase) {
	t.Helper()
	settingsErr, schemaErr, ok := judge(t, sch, c)
	if !ok {
		t.Errorf("%s: %q is not a configuration", where, c.text)
		return
	}
	settingsOK, schemaOK := settingsErr == nil, schemaErr == nil
	if why, listed := difference(c.text); listed {
		// The schema accepts what settings rejects, or (scalarText,
		// trimmed) the other way round.
		stricter := why == scalarText || why == trimmed
		if settingsOK == schemaOK || schemaOK == stricter {
			t.Errorf("%s: %q is listed as a difference (%s), but settings says %v and the schema %v", where, c.text, why, settingsErr, schemaErr)
		}
		return
	}
	if settingsOK != schemaOK {
		t.Errorf("%s: settings and the schema disagree on %q:\n  settings: %v\n  schema: %v", where, c.text, settingsErr, schemaErr)
	}
	if c.known && (settingsOK != c.valid || schemaOK != c.valid) {
		t.Errorf("%s: %q should be %s:\n  settings: %v\n  schema: %v", where, c.text, map[bool]string{true: "valid", false: "invalid"}[c.valid], settingsErr, schemaErr)
	}
}

// TestConfigSchemaCases checks the schema's constraints, both ways,
// against settings.
func TestConfigSchemaCases(t *testing.T) {
	sch := configSchema(t)
	for _, c := range cases {
		agree(t, sch, "case", c)
	}
}

// TestConfigSchemaAgreesWithSettingsTests judges every configuration that
// settings' own tests write (the string constants of settings/*_test.go
// that are a YAML mapping with a key of settings.Keys, or a pyproject.toml
// with [tool.gymlint]): some are deliberately wrong, and the schema must
// say so too.
func TestConfigSchemaAgreesWithSettingsTests(t *testing.T) {
	sch := configSchema(t)
	files, err := filepath.Glob(filepath.Join(repoRoot, "settings", "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no settings tests: %v", err)
	}
	fset := token.NewFileSet()
	n, valid := 0, 0
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range constantStrings(f) {
			c, ok := asConfig(s.value)
			if !ok {
				continue
			}
			n++
			if se, _, _ := judge(t, sch, c); se == nil {
				valid++
			}
			agree(t, sch, fset.Position(s.pos).String(), c)
		}
	}
	t.Logf("%d configurations of settings' tests judged, %d of them valid", n, valid)
	if n < 40 {
		t.Errorf("only %d configurations found in settings' tests", n)
	}
}

type constant struct {
	pos   token.Pos
	value string
}

// constantStrings are the string constants of f: literals, and sums of
// literals taken whole.
func constantStrings(f *ast.File) []constant {
	var out []constant
	var value func(e ast.Expr) (string, bool)
	value = func(e ast.Expr) (string, bool) {
		switch x := e.(type) {
		case *ast.BasicLit:
			if x.Kind != token.STRING {
				return "", false
			}
			s, err := strconv.Unquote(x.Value)
			return s, err == nil
		case *ast.ParenExpr:
			return value(x.X)
		case *ast.BinaryExpr:
			if x.Op != token.ADD {
				return "", false
			}
			a, ok1 := value(x.X)
			b, ok2 := value(x.Y)
			return a + b, ok1 && ok2
		}
		return "", false
	}
	ast.Inspect(f, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		if s, ok := value(e); ok {
			out = append(out, constant{e.Pos(), s})
			return false
		}
		return true
	})
	return out
}

// asConfig says whether s is a configuration: a pyproject.toml with
// [tool.gymlint], or a YAML mapping with a top-level key of settings.Keys.
func asConfig(s string) (configCase, bool) {
	if _, _, found, ok := parsePyProject([]byte(s)); ok && found {
		return configCase{text: s, toml: true}, true
	}
	n, ok := parseYAML([]byte(s))
	if !ok || len(n.Content) == 0 || n.Content[0].Kind != yaml.MappingNode {
		return configCase{}, false
	}
	root := n.Content[0]
	for i := 0; i < len(root.Content); i += 2 {
		if slices.Contains(settings.Keys, root.Content[i].Value) {
			return configCase{text: s}, true
		}
	}
	return configCase{}, false
}

// TestRepositoryConfigsValidate validates every configuration of the
// repository: each .gymlint.yaml and each pyproject.toml with
// [tool.gymlint] (the fixtures of testdata/ and analyzers/*/testdata/
// among them), and the configuration examples of README.md and the guide
// (fenced yaml blocks with a top-level key of settings.Keys, toml blocks
// with [tool.gymlint]). Each must be one that settings accepts, and valid
// for the schema; a pyproject.toml is valid for pyproject.schema.json too.
func TestRepositoryConfigsValidate(t *testing.T) {
	sch := configSchema(t)
	py := compile(t, "pyproject.schema.json", schema.PyProject, "")
	counts := map[string]int{}
	check := func(where string, c configCase) {
		t.Helper()
		settingsErr, schemaErr, ok := judge(t, sch, c)
		if !ok {
			t.Errorf("%s is not a configuration", where)
			return
		}
		if settingsErr != nil || schemaErr != nil {
			t.Errorf("%s: settings: %v; schema: %v", where, settingsErr, schemaErr)
		}
		if c.toml {
			whole, _, _, _ := parsePyProject([]byte(c.text))
			if err := py.Validate(whole); err != nil {
				t.Errorf("%s: pyproject.schema.json: %v", where, err)
			}
		}
	}
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(repoRoot, p)
		switch d.Name() {
		case settings.FileName:
			counts[settings.FileName]++
			check(rel, configCase{text: string(read(t, rel))})
		case settings.PyProject:
			text := string(read(t, rel))
			if _, _, found, _ := parsePyProject([]byte(text)); found {
				counts["[tool.gymlint]"]++
				check(rel, configCase{text: text, toml: true})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := filepath.Glob(filepath.Join(repoRoot, "docs", "guide", "*.md"))
	docs = append(docs, filepath.Join(repoRoot, "README.md"))
	for _, p := range docs {
		rel, _ := filepath.Rel(repoRoot, p)
		for _, f := range mdfence.Blocks(string(read(t, rel))) {
			lang, _, _ := strings.Cut(f.Info, " ")
			if lang != "yaml" && lang != "toml" {
				continue
			}
			c, ok := asConfig(f.Text())
			if !ok || c.toml != (lang == "toml") {
				continue
			}
			counts["examples in "+rel]++
			check(rel+":"+strconv.Itoa(f.Line), c)
		}
	}
	t.Logf("validated: %v", counts)
	if counts[settings.FileName] < 8 || counts["examples in docs/guide/configuration.md"] < 4 {
		t.Errorf("fewer configurations than the repository has: %v", counts)
	}
}
