package suppress

import (
	"reflect"
	"strings"
	"testing"
)

// TestCodes checks the codes and names that suppression comments list, and
// their spans, in the three languages.
func TestCodes(t *testing.T) {
	type code struct {
		Text       string
		Rest       string // the rest of its line, from the code
		FileLevel  bool
		Suppresses bool
	}
	for _, c := range []struct {
		path, src string
		want      []code
	}{
		{"a.py", "# gymlint: ignore-file[GL102] generated\nx = 1  # gymlint: ignore[GL101, late-worker-refusal] why\ns = '# gymlint: ignore[GL201] not a comment'\n",
			[]code{
				{"GL102", "GL102] generated\n", true, true},
				{"GL101", "GL101, late-worker-refusal] why\n", false, true},
				{"late-worker-refusal", "late-worker-refusal] why\n", false, true},
			}},
		{"a.py", "x = 1  # gymlint: ignore[GL101]\ny = 2  # noqa: F401, gl101\nz = 3  # gymlint: ignore GL102 bare\n",
			[]code{
				{"GL101", "GL101]\n", false, false}, // no reason
				{"gl101", "gl101\n", false, false},  // noqa: only the GL code
				{"GL102", "GL102 bare\n", false, false},
			}},
		// Codes split at commas, as the check splits them: a space inside
		// the brackets makes one code, which names no rule.
		{"a.py", "x = 1  # gymlint: ignore[GL101 GL102] why\n",
			[]code{{"GL101 GL102", "GL101 GL102] why\n", false, true}}},
		{"c.yaml", "a: 1  # gymlint: ignore[GL006] reason\nb: '# gymlint: ignore[GL101] x'\n",
			[]code{{"GL006", "GL006] reason\n", false, true}}},
		{"m.go", "package p\r\n\r\n//gymlint:file-ignore GL201,go-other generated\r\nvar x = 1 //gymlint:ignore GL999 why\r\nvar s = \"//gymlint:ignore GL201 x\"\r\n",
			[]code{
				{"GL201", "GL201,go-other generated\r\n", true, true},
				{"go-other", "go-other generated\r\n", true, true},
				{"GL999", "GL999 why\r\n", false, true},
			}},
		{"notes.txt", "# gymlint: ignore[GL101] why\n", nil},
	} {
		var got []code
		for _, k := range Codes(c.path, []byte(c.src)) {
			if c.src[k.Start:k.End] != k.Text {
				t.Errorf("%s: %q spans %q", c.path, k.Text, c.src[k.Start:k.End])
			}
			rest := c.src[k.Start:]
			if i := strings.IndexByte(rest, '\n'); i >= 0 {
				rest = rest[:i+1]
			}
			got = append(got, code{k.Text, rest, k.FileLevel, k.Suppresses})
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", c.path, got, c.want)
		}
	}
}
