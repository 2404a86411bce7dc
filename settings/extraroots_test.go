package settings

import (
	"slices"
	"strings"
	"testing"
)

// extra_roots: only directories inside the repository, relative to it (a
// repository must not name a directory of the user's disk).
func TestParseExtraRoots(t *testing.T) {
	s, err := Parse(".gymlint.yaml", []byte("extra_roots: [plugins/, ./vendor/servers]\n"))
	if err != nil || !slices.Equal(s.ExtraRoots, []string{"plugins", "vendor/servers"}) {
		t.Fatalf("%v %+v", err, s)
	}
	for in, line := range map[string]string{
		"extra_roots: [/opt/plugins]\n":     ":1",
		"extra_roots:\n  - ok\n  - ../up\n": ":3",
		"extra_roots: [.]\n":                ":1",
		"extra_roots: plugins\n":            ":1",
	} {
		_, err := Parse(".gymlint.yaml", []byte(in))
		if err == nil || !strings.Contains(err.Error(), line) || !strings.Contains(err.Error(), "extra_roots") {
			t.Errorf("%q: %v", in, err)
		}
	}
	s, _, err = ParseTOML("pyproject.toml", []byte("[tool.gymlint]\nextra_roots = [\"plugins\"]\n"))
	if err != nil || !slices.Equal(s.ExtraRoots, []string{"plugins"}) {
		t.Errorf("TOML: %v %+v", err, s)
	}
	if _, _, err = ParseTOML("pyproject.toml", []byte("[tool.gymlint]\nextra_roots = [\"/etc\"]\n")); err == nil {
		t.Errorf("TOML: an absolute extra root was taken")
	}
}
