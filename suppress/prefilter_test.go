package suppress

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/gymlint/gymlint/diag"
)

// The prefilter compares ASCII only; that is sound because no other
// character folds to a letter of the words it looks for.
func TestFoldedLettersAreASCII(t *testing.T) {
	for _, r := range "gymlint" + "noqa" {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f != unicode.ToUpper(r) {
				t.Errorf("%q folds to %q, which the prefilter does not compare", r, f)
			}
		}
	}
}

func TestMayHoldDirective(t *testing.T) {
	cases := []struct {
		text string
		lg   lang
		want bool
	}{
		{"x = 1  # gymlint: ignore[GL101] reason\n", langPython, true},
		{"x = 1  # GYMLINT: IGNORE[GL101] reason\n", langPython, true},
		{"# GyMlInT: file-ignore[GL101] reason", langPython, true},
		{"gymlint", langYAML, true},
		{"x = 1  # noqa: GL101\n", langPython, true},
		{"x = 1  # NOQA: e501, gl101 why\n", langPython, true},
		{"x = 1  # NoQA\n", langPython, false},                     // names no gymlint code
		{"x = 1  # noqa: E501\n", langPython, false},               // ruff's only
		{"x = 1  # noqa: E501\ngl9_total = 1\n", langPython, true}, // may: a code anywhere
		{"noqa gl", langPython, false},
		{"key: 1  # noqa\n", langYAML, false}, // noqa is Python's only
		{"//gymlint:ignore GL201 reason\n", langGo, true},
		{"// noqa\n", langGo, false},
		{"x = 1  # gymlin: ignore\n", langPython, false},
		{"ymlint qa noq a", langPython, false},
		{"", langPython, false},
		{"y", langPython, false},
		{"q", langPython, false},
		{"say yes, mostly; quiet query", langPython, false},
	}
	for _, c := range cases {
		if got := mayHoldDirective([]byte(c.text), c.lg); got != c.want {
			t.Errorf("mayHoldDirective(%q, %v) = %v, want %v", c.text, c.lg, got, c.want)
		}
	}
}

// Every directive that parseLines finds, in every fixture of the
// repository and in generated lines, is in a file the prefilter keeps.
func TestPrefilterKeepsEveryDirective(t *testing.T) {
	root := filepath.Join("..")
	files, withDirectives := 0, 0
	check := func(p string, content []byte) {
		files++
		dirs, _ := parseLines(p, content)
		if len(dirs) == 0 {
			return
		}
		withDirectives++
		if !mayHoldDirective(content, langOf(p)) {
			t.Errorf("%s: %d directives, but the prefilter skips the file", p, len(dirs))
		}
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n != ".." && strings.HasPrefix(n, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if langOf(p) == langNone {
			return nil
		}
		content, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		check(filepath.ToSlash(p), content)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"gymlint", "GYMLINT", "GymLint", "noqa", "NOQA", "NoQa"}
	forms := []string{"# %s", "#%s: ignore[GL101] why", "x = 1  # %s: file-ignore[GL101] why", "# %s:ignore GL101", "// %s:ignore GL201 why", "//%s:file-ignore GL201 why", "# ok # %s",
		"# %s: gl101", "# %s: E501, GL101", "# %s: F401 GL9 more", "# %s : Gl12", "x  # %s:GL101,E1"}
	for _, w := range words {
		for _, f := range forms {
			for _, name := range []string{"a.py", "a.yaml", "a.go"} {
				check(name, []byte("x = 1\n"+fmt.Sprintf(f, w)+"\n"))
			}
		}
	}
	if withDirectives < 20 {
		t.Errorf("only %d of %d files have directives: the check looked at too few", withDirectives, files)
	}
}

// Files are checked in parallel; the result is the serial one.
func TestFilesInParallel(t *testing.T) {
	files := map[string]string{}
	var ds []diag.Diagnostic
	var scan []string
	for i := range 60 {
		py := fmt.Sprintf("s%02d/app.py", i)
		yml := fmt.Sprintf("s%02d/configs/s.yaml", i)
		scan = append(scan, py, yml)
		switch i % 4 {
		case 0: // used
			files[py] = "x = 1  # gymlint: ignore[GL101] refused elsewhere\n"
			ds = append(ds, finding(py+":1 GL101"))
		case 1: // unused
			files[py] = "x = 1\ny = 2  # gymlint: ignore[GL102] not needed\n"
		case 2: // malformed and unused
			files[py] = "x = 1  # gymlint ignore[GL101]\n"
			ds = append(ds, finding(py+":1 GL102"))
		case 3: // none
			files[py] = "x = 1\n"
			ds = append(ds, finding(py+":1 GL101"))
		}
		files[yml] = fmt.Sprintf("s%02d:\n  key: 1  # gymlint: ignore[GL006] kept\n", i)
		if i%3 == 0 {
			ds = append(ds, finding(yml+":2 GL006"))
		}
	}
	read := func(p string) ([]byte, error) {
		s, ok := files[p]
		if !ok {
			return nil, os.ErrNotExist
		}
		return []byte(s), nil
	}
	serial := ApplyConfig(ds, scan, read, Config{Lookup: lookup, Jobs: 1})
	for _, jobs := range []int{0, 2, 8} {
		if got := ApplyConfig(ds, scan, read, Config{Lookup: lookup, Jobs: jobs}); !reflect.DeepEqual(got, serial) {
			t.Errorf("jobs %d: %d diagnostics, serial %d:\n%s\nserial:\n%s", jobs, len(got), len(serial), msgs(got), msgs(serial))
		}
	}
	count := map[string]int{}
	for _, d := range serial {
		count[d.Code]++
	}
	// Unused: 15 Python (i%4 == 1) and 40 YAML (i%3 != 0); kept: 15
	// Python findings (i%4 == 3) and 15 GL102 findings (i%4 == 2).
	if count["GL010"] != 55 || count["GL101"] != 15 || count["GL102"] != 15 || count["GL006"] != 0 {
		t.Errorf("counts %v, want 55 GL010, 15 GL101, 15 GL102, no GL006:\n%s", count, msgs(serial))
	}
}
