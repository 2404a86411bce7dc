package configs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// wantRE finds the `# want` and `# related` expectations of the port cases
// (the comments gymtest reads, so the cases run there too once the
// analyzer is registered).
var wantRE = regexp.MustCompile("# (want|related) (\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`)")

type expect struct {
	kind, file string
	line       int
	re         *regexp.Regexp
}

func expectations(t *testing.T, dir string) []expect {
	var out []expect
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		for i, line := range strings.Split(string(data), "\n") {
			for _, m := range wantRE.FindAllStringSubmatch(line, -1) {
				s, err := strconv.Unquote(m[2])
				if err != nil {
					t.Fatalf("%s:%d: %v", rel, i+1, err)
				}
				out = append(out, expect{m[1], filepath.ToSlash(rel), i + 1, regexp.MustCompile(s)})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPortCases runs GL401 on each testdata/src/port-* case.
func TestPortCases(t *testing.T) {
	cases, _ := filepath.Glob(filepath.Join("testdata", "src", "port-*"))
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, dir := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			v, err := gym.Build(dir, gym.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			var ds []diag.Diagnostic
			for _, c := range PortChecks {
				ds = append(ds, c.Run(v)...)
			}
			for _, c := range []gym.Check{gym.ComposeCheck} {
				if got := c.Run(v); len(got) != 0 {
					t.Errorf("unexpected %s: %+v", c.Rule.Code, got)
				}
			}
			used := make([]bool, len(ds))
			for _, e := range expectations(t, dir) {
				found := false
				for i, d := range ds {
					if e.kind == "want" && !used[i] && d.Path == e.file && d.Start.Line == e.line &&
						e.re.MatchString(d.Code+" "+d.Message+" help: "+d.Help) {
						used[i], found = true, true
						break
					}
					if e.kind == "related" {
						for _, r := range d.Related {
							if r.Path == e.file && r.Start.Line == e.line && e.re.MatchString(r.Message) {
								found = true
							}
						}
					}
				}
				if !found {
					t.Errorf("%s:%d: no %s matching %q", e.file, e.line, e.kind, e.re)
				}
			}
			for i, d := range ds {
				if !used[i] {
					t.Errorf("unexpected %s:%d: %s %s", d.Path, d.Start.Line, d.Code, d.Message)
				}
			}
		})
	}
}

func TestFixedPort(t *testing.T) {
	// The values themselves, as the cases cannot show every form.
	for _, tc := range []struct {
		yaml string
		want int64
		ok   bool
	}{
		{"8000", 8000, true}, {`"8000"`, 8000, true}, {"0", 0, false}, {`"0"`, 0, false}, {"", 0, false},
		{"~", 0, false}, {"${oc.env:P}", 0, false}, {"80.5", 0, false}, {"true", 0, false}, {"[1]", 0, false}, {`"80a"`, 0, false},
	} {
		f := parseSnippet(t, "port: "+tc.yaml+"\n")
		got, ok := fixedPort(f)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: %d %v", tc.yaml, got, ok)
		}
	}
}
