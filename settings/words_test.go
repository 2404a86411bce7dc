package settings

import (
	"slices"
	"strings"
	"testing"
)

// words: a list of identifier words for each kind the configuration may
// extend, in YAML and in pyproject.toml; anything else is an error at its
// line that names the known kinds.
func TestParseWords(t *testing.T) {
	s, err := Parse(".gymlint.yaml", []byte("words:\n  release: [evict, power_off]\n  logger:\n    - audit\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Words["release"], []string{"evict", "power_off"}) || !slices.Equal(s.Words["logger"], []string{"audit"}) || len(s.Words) != 2 {
		t.Fatalf("%+v", s.Words)
	}
	for in, want := range map[string]string{
		"words: [evict]\n":                                ":1: words must be a mapping",
		"words:\n  releases: [evict]\n":                   ":2: words: unknown kind \"releases\"",
		"words:\n  go-decode: [slurp]\n":                  ":2: words: unknown kind \"go-decode\"",
		"words:\n  release: evict\n":                      ":2: words: release must be a list",
		"words:\n  release:\n    - ok\n    - two words\n": ":4: words: release: \"two words\" is not one identifier word",
	} {
		_, err := Parse(".gymlint.yaml", []byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	if _, err := Parse(".gymlint.yaml", []byte("words:\n  releases: [x]\n")); err == nil || !strings.Contains(err.Error(), "session-noun") {
		t.Errorf("the error does not list the kinds: %v", err)
	}
	s, _, err = ParseTOML("pyproject.toml", []byte("[tool.gymlint.words]\nsession-noun = [\"match\"]\n"))
	if err != nil || !slices.Equal(s.Words["session-noun"], []string{"match"}) {
		t.Errorf("TOML: %v %+v", err, s)
	}
}
