package repofs

import (
	"path"
	"testing"
)

// cleanPath is path.Clean, whether or not it takes its shortcut.
func TestCleanPathIsPathClean(t *testing.T) {
	for _, p := range []string{
		"", ".", "..", "/", "//", "a", "a/b", "a/b/", "a//b", "a/./b", "a/../b", "./a", "../a", "a/.", "a/..",
		".a", "a/.b", "a/b.py", "a.b/c", "a/b./c", "a/..b", "/a/b", "/a/./b", "resources_servers/srv/app.py",
		"a/b/__init__.py", "a\\b", "...", "a/...", "a/b//", "é/ü.py",
	} {
		if got, want := cleanPath(p), path.Clean(p); got != want {
			t.Errorf("cleanPath(%q) = %q, path.Clean %q", p, got, want)
		}
	}
}

// Every path of up to seven characters from 'a', '.' and '/'.
func TestCleanPathExhaustive(t *testing.T) {
	var walk func(p string)
	walk = func(p string) {
		if got, want := cleanPath(p), path.Clean(p); got != want {
			t.Fatalf("cleanPath(%q) = %q, path.Clean %q", p, got, want)
		}
		if len(p) == 7 {
			return
		}
		for _, c := range []string{"a", ".", "/"} {
			walk(p + c)
		}
	}
	walk("")
}
