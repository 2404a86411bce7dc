package settings

import (
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/gymlint/gymlint/internal/testtree"
)

// nested is an inline table nested depth deep: {a = {a = ... 1 ...}}.
func nested(depth int) string {
	return strings.Repeat("{a = ", depth) + "1" + strings.Repeat("}", depth)
}

// allocated is how many bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A value nested 20,000 deep in another tool's table is not decoded: the
// cost is a linear scan (BurntSushi/toml alone takes gigabytes: its cost
// grows with the square of the depth). So for [tool.gymlint], and for the
// isort setting, also when the deep values are in the same tool's tables.
func TestParseTOMLDeepElsewhere(t *testing.T) {
	deep := "x = " + nested(20000) + "\ny = [" + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "]\n" +
		"z." + strings.Repeat("a.", 20000) + "b = 1\n"
	src := "[project]\nname = \"x\"\n\n[tool.black]\n" + deep +
		"\n[tool.ruff.lint]\n" + deep + "\n[tool.ruff.lint.isort]\nknown-first-party = [\"my_gym\"]\n" + deep +
		"\n[tool.isort]\n" + deep +
		"\n[tool.gymlint]\ndisable = [\"GL205\"]\n"
	var s *Settings
	var ok bool
	var err error
	n := allocated(func() { s, ok, err = ParseTOML("pyproject.toml", []byte(src)) })
	if err != nil || !ok || len(s.Disable) != 1 || s.Disable[0] != "GL205" {
		t.Fatalf("%v %v %+v", ok, err, s)
	}
	if limit := uint64(20 * len(src)); n > limit {
		t.Errorf("ParseTOML allocated %d bytes for a %d-byte file, over %d", n, len(src), limit)
	}
	// Without [tool.gymlint]: no table, no error.
	noTable := src[:strings.Index(src, "[tool.gymlint]")]
	if _, ok, err := ParseTOML("pyproject.toml", []byte(noTable)); ok || err != nil {
		t.Errorf("no [tool.gymlint]: %v %v", ok, err)
	}

	ruffSrc := "[lint]\n" + deep + "[lint.isort]\nknown-first-party = [\"from_ruff\"]\n" + deep + "[format]\n" + deep
	var known []string
	for _, c := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{PyProject: src}, "my_gym"},
		{map[string]string{PyProject: src, ruffTOML: ruffSrc}, "from_ruff"},
	} {
		root := testtree.New(t, c.files)
		n = allocated(func() { known = ReadKnownFirstParty(root) })
		if !reflect.DeepEqual(known, []string{c.want}) {
			t.Errorf("ReadKnownFirstParty = %q, want %q", known, c.want)
		}
		if limit := uint64(20 * (len(src) + len(c.files[ruffTOML]))); n > limit {
			t.Errorf("ReadKnownFirstParty allocated %d bytes for %d bytes of files, over %d", n, len(src)+len(c.files[ruffTOML]), limit)
		}
	}
	// A deep value where known-first-party is, or in what holds it, is
	// not decoded either: no setting is read from there, and no error.
	for _, src := range []string{
		"[tool.ruff.lint.isort]\nknown-first-party = " + nested(20000) + "\n",
		"[tool.ruff.lint.isort]\nknown-first-party." + strings.Repeat("a.", 20000) + "b = 1\n",
		"[tool]\nruff = {lint = " + nested(20000) + "}\n",
		"[tool.isort.known_first_party." + strings.Repeat("a.", 20000) + "b]\n",
	} {
		n := allocated(func() { known = moduleListOf(t, src) })
		if known != nil {
			t.Errorf("%.60q: %q", src, known)
		}
		if limit := uint64(20 * len(src)); n > limit {
			t.Errorf("%.60q: allocated %d bytes, over %d", src, n, limit)
		}
	}
}

// moduleListOf is ReadKnownFirstParty of a pyproject.toml.
func moduleListOf(t *testing.T, pyproject string) []string {
	return ReadKnownFirstParty(testtree.New(t, map[string]string{PyProject: pyproject}))
}

// A deep value in [tool.gymlint] itself is an error at its line, found
// before anything is decoded.
func TestParseTOMLDeepGymlint(t *testing.T) {
	for _, c := range []struct{ name, src string }{
		{"inline tables", "[tool.gymlint]\n\nseverity = " + nested(20000) + "\n"},
		{"arrays", "[tool.gymlint]\n\ndisable = " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n"},
		{"dotted key", "[tool.gymlint]\n\nseverity." + strings.Repeat("a.", 20000) + "b = 1\n"},
		{"header", "[tool.gymlint]\n\n[tool.gymlint." + strings.Repeat("a.", 20000) + "b]\n"},
		{"tool inline table", "name = 1\n\ntool = {black = " + nested(20000) + "}\n"},
		{"just over", "[tool.gymlint]\n\nseverity = " + nested(maxTOMLDepth-2) + "\n"},
	} {
		var err error
		n := allocated(func() { _, _, err = ParseTOML("pyproject.toml", []byte(c.src)) })
		if err == nil || !strings.HasPrefix(err.Error(), "pyproject.toml:3: tool.gymlint nests deeper than 16 levels") {
			t.Errorf("%s: got %v", c.name, err)
		}
		if limit := uint64(20 * len(c.src)); n > limit {
			t.Errorf("%s: allocated %d bytes, over %d", c.name, n, limit)
		}
	}
	// The deepest that gymlint's keys need is well within the limit.
	src := "[tool.gymlint]\nseverity = " + nested(maxTOMLDepth-3) + "\n"
	if _, _, err := ParseTOML("pyproject.toml", []byte(src)); err == nil || !strings.Contains(err.Error(), "pyproject.toml:2: severity.a must be") {
		t.Errorf("at the limit: %v", err)
	}
}

func TestParseTOMLSpellings(t *testing.T) {
	for _, src := range []string{
		"[tool.gymlint]\ndisable = [\"GL205\"]\n",
		"[ tool . \"gymlint\" ]\ndisable = [\"GL205\"]\n",
		"[tool.'gymlint']  # comment\ndisable = [\"GL205\"]  # comment\n",
		"[tool.\"gym\\u006cint\"]\ndisable = [\"GL205\"]\n",
		"tool.gymlint.disable = [\"GL205\"]\n",
		"tool = {gymlint = {disable = [\"GL205\"]}}\n",
		"[tool]\ngymlint.disable = [\"GL205\"]\nblack.x = 1\n",
		"[tool]\ngymlint = { disable = [\n  \"GL205\", # a comment\n] }\n",
		"[tool.gymlint]\r\ndisable = [\"GL205\"]\r\n",
		"[tool.black]\nx = \"\"\"\n[tool.gymlint]\ndisable = 3\n\"\"\"\ny = '''\n[tool.gymlint]\n'''\nz = \"a\\\"[\"\n\n[tool.gymlint]\ndisable = [\n  \"GL205\",\n]\n",
		"[tool.gymlint]\ndisable = [\"GL205\"]\n[tool.gymlint.severity]\n",
	} {
		s, ok, err := ParseTOML("pyproject.toml", []byte(src))
		if err != nil || !ok || len(s.Disable) != 1 || s.Disable[0] != "GL205" {
			t.Errorf("%q: %v %v %+v", src, ok, err, s)
		}
	}
	for _, src := range []string{
		"[tool.black]\nx = \"\"\"\n[tool.gymlint]\n\"\"\"\n",
		"[tool.gymlinter]\ndisable = 1\n",
		"[tools.gymlint]\ndisable = 1\n",
		"[project.tool.gymlint]\ndisable = 1\n",
		"[tool.black]\ngymlint.disable = 1\n",
	} {
		if _, ok, err := ParseTOML("pyproject.toml", []byte(src)); ok || err != nil {
			t.Errorf("%q: %v %v", src, ok, err)
		}
	}
}

// Errors outside tool.gymlint are not gymlint's; errors in it are reported
// at the line the decoder gives for the whole file. A value left open
// until the end of the file is an error wherever it is: it may hide
// [tool.gymlint].
func TestParseTOMLErrors(t *testing.T) {
	for _, src := range []string{
		"[tool.black]\nline-length = = 3\n",
		"[tool.black]\nx = \"unclosed\ny = 2\n",
		"[tool.black]\nü = 1\n",
	} {
		if _, ok, err := ParseTOML("pyproject.toml", []byte(src)); ok || err != nil {
			t.Errorf("%q: %v %v", src, ok, err)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"[tool.black]\nx = [1,\n\n[tool.gymlint]\ndisable = []\n", "pyproject.toml:2: this value is not closed before the end of the file"},
		{"[tool.black]\nx = \"\"\"\n[tool.gymlint]\n", "pyproject.toml:2: this value is not closed"},
		{"[tool.black]\nx = 1\n\n[tool.gymlint]\ndisable = [\"GL205\"\nbogus = 2\n", "pyproject.toml:5: this value is not closed"},
		{"[tool.gymlint]\ndisable = [\"GL205\"]\n[tool.gymlint]\n", "pyproject.toml:3: Key 'tool.gymlint' has already been defined"},
		{"[tool.gymlint]\ndisable = = 1\n", "pyproject.toml:2: "},
		{"[tool.gymlint]\nnot a key\n", "pyproject.toml:2: "},
		{"[tool.black\n[tool.gymlint]\n", "pyproject.toml:2: expected '.' or ']'"},
	} {
		_, _, err := ParseTOML("pyproject.toml", []byte(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
}

// selections are the selections checkSelect checks, with the keys each
// must keep as they are in the file.
var selections = []struct {
	sel  tomlSelection
	keys [][]string
}{
	{gymlintSelection, [][]string{{"tool", "gymlint"}}},
	{pyprojectSelection, append(append([][]string{}, pyprojectRuffKeys...), isortKey)},
	{ruffSelection, ruffKeys},
}

// selectedValues are the values at keys of a TOML file, as BurntSushi/toml
// decodes it. (Into a map: decoding into a struct matches field names
// regardless of case, so it would read [TOOL.gymlint] too, which pip and
// every other reader of pyproject.toml do not.)
func selectedValues(data []byte, keys [][]string) ([]any, error) {
	var doc map[string]any
	_, err := toml.Decode(string(data), &doc)
	var out []any
	for _, k := range keys {
		out = append(out, lookupTOML(doc, k))
	}
	return out, err
}

// checkSelect checks selectTOML on a file the decoder reads: for each
// selection, the copy has the same lines and the same values at the keys
// selected.
func checkSelect(t *testing.T, data []byte) {
	if deeper(data, 2*maxTOMLDepth) {
		return
	}
	for _, c := range selections {
		whole, err := selectedValues(data, c.keys)
		if err != nil {
			return
		}
		kept, err := selectTOML("pyproject.toml", data, c.sel)
		if err != nil {
			if strings.Contains(err.Error(), c.sel.tooDeep) {
				continue
			}
			t.Fatalf("%q: selectTOML %v: %v", data, c.keys, err)
		}
		if strings.Count(string(kept), "\n") != strings.Count(string(data), "\n") {
			t.Errorf("%q: the copy has other lines: %q", data, kept)
		}
		part, err := selectedValues(kept, c.keys)
		if err != nil {
			t.Fatalf("%q: the copy %q does not decode: %v", data, kept, err)
		}
		if !reflect.DeepEqual(whole, part) {
			t.Errorf("%q: %v is %#v in the file, %#v in the copy %q", data, c.keys, whole, part, kept)
		}
	}
}

// deeper reports whether brackets nest more than n deep anywhere (a rough
// bound, strings included, to keep the decoder's cost small in the fuzzer).
func deeper(data []byte, n int) bool {
	d := 0
	for _, c := range data {
		switch c {
		case '[', '{':
			d++
			if d > n {
				return true
			}
		case ']', '}':
			d--
		}
	}
	return strings.Count(string(data), ".") > 8*n
}

var selectSeeds = []string{
	"[project]\nname = \"x\"\n\n[tool.gymlint]\nframework_package = \"my_gym\"\ndisable = [\"GL205\"]\nseverity = { GL106 = \"error\" }\n\n[[tool.gymlint.exempt]]\npath = \"a/base.py\"\nreason = \"base class\"\n\n[tool.black]\nline-length = 100\n",
	"tool.gymlint.disable = [\"GL205\"]\n[tool.black]\nx = 1\n",
	"tool = {gymlint = {disable = [\"GL205\"]}, black = {x = 1}}\n",
	"[tool]\nblack.x = 1\ngymlint.severity.GL101 = \"error\"\n[tool.gymlint.more]\na = 1\n",
	"[tool.black]\nx = \"\"\"\n[tool.gymlint]\na = 1\"\"\"\"\"\n[tool.gymlint]\nb = '''x\n'''\nc = \"\\\"\"\n",
	"[[tool.gymlint.per_path_ignores]]\npaths = [\"a\"]\n[[tool.gymlint.per_path_ignores]]\npaths = [\n  \"b\", # c\n]\n[tool.x]\n",
	"toOl.gymlint = 0\n[TOOL.gymlint]\nx = 1\n",
	"a = 1979-05-27T07:32:00Z\nb = [1, 2.5, true, {c = 'd'}]\n[tool . \"gymlint\"]\nx = 0x1f\n",
	"[tool.ruff]\nline-length = 100\n[tool.ruff.lint]\nselect = [\"I\"]\n[tool.ruff.lint.isort]\nknown-first-party = [\"my_gym\", \"b.*\"]\ncombine-as-imports = true\n[tool.ruff.isort]\nknown-first-party = [\"old\"]\n",
	"[tool]\nruff.lint.isort.known-first-party = [\"a\"]\nruff.lint.select = []\nisort = {known_first_party = \"a, b\", profile = \"black\"}\n",
	"[lint.isort]\nknown-first-party = [\n  \"a\", # c\n]\n[isort]\n'known-first-party' = [\"b\"]\n[lint]\nselect = [\"I\"]\n",
	"lint = {isort = {known-first-party = [\"a\"]}, select = [\"I\"]}\n[format]\nquote-style = \"single\"\n",
}

func TestSelectTOMLKeepsTheTables(t *testing.T) {
	for _, s := range selectSeeds {
		checkSelect(t, []byte(s))
	}
	// Cut off anywhere, in a string or an escape, the scan stops at the end.
	for _, s := range []string{`["\`, `"\`, `x = "\`, `x = '''a\`, `[a."b\`, `a."\`, `x = """a\`} {
		if _, err := selectGymlint("pyproject.toml", []byte(s)); err != nil && !strings.Contains(err.Error(), "not closed") {
			t.Errorf("%q: %v", s, err)
		}
	}
}

func FuzzSelectTOML(f *testing.F) {
	for _, s := range selectSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		checkSelect(t, data)
		// Whatever the input, the scan returns (ParseTOML would turn a
		// panic into an error).
		for _, c := range selections {
			_, _ = selectTOML("pyproject.toml", data, c.sel)
		}
	})
}

// BenchmarkParseTOMLDeepElsewhere: a 120 KB pyproject.toml whose
// [tool.black] nests 20,000 deep, beside [tool.gymlint].
func BenchmarkParseTOMLDeepElsewhere(b *testing.B) {
	src := []byte("[tool.black]\nx = " + nested(20000) + "\n\n[tool.gymlint]\ndisable = [\"GL205\"]\n")
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ParseTOML("pyproject.toml", src); err != nil {
			b.Fatal(err)
		}
	}
}
