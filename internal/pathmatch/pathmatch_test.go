package pathmatch

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestGlob(t *testing.T) {
	cases := []struct {
		g, p string
		want bool
	}{
		{"benchmarks/**", "benchmarks/a/b.py", true},
		{"benchmarks/**", "benchmarks", true},
		{"benchmarks/**", "other/benchmarks/a.py", false},
		{"**/app.py", "app.py", true},
		{"**/app.py", "a/b/app.py", true},
		{"**/app.py", "a/b/app.pyc", false},
		{"a/**/b/*.py", "a/x/y/b/c.py", true},
		{"a/**/b/*.py", "a/b/c/d.py", false},
		{"./a.py", "a.py", true},
		{"[", "[", false},
		{"resources_servers/legacy_*/app.py", "resources_servers/legacy_x/app.py", true},
		{"resources_servers/legacy_*/app.py", "resources_servers/legacy_x/y/app.py", false},
		{"resources_servers/*", "resources_servers/a/app.py", false},
		{"a/**/b/*.py", "a/b/c.py", true},
		{"a?.py", "ab.py", true},
	}
	for _, c := range cases {
		if got := Glob(c.g, c.p); got != c.want {
			t.Errorf("Glob(%q, %q) = %v, want %v", c.g, c.p, got, c.want)
		}
	}
}

func TestExcluded(t *testing.T) {
	globs := []string{"output", "**/build", "docs/*.yaml"}
	for p, want := range map[string]bool{
		"output":                 true,
		"output/run1/conf.yaml":  true,
		"outputs/conf.yaml":      false,
		"a/b/build/x/app.py":     true,
		"a/b/builder/app.py":     false,
		"docs/a.yaml":            true,
		"docs/sub/a.yaml":        false,
		"resources_servers/a.py": false,
	} {
		if got := Excluded(globs, p); got != want {
			t.Errorf("Excluded(%q) = %v, want %v", p, got, want)
		}
	}
	if Excluded(nil, "output/x") {
		t.Error("no globs excluded a path")
	}
}

func TestValidGlob(t *testing.T) {
	for g, want := range map[string]string{
		"a/**/b.py": "", "": "is empty", "/abs": "must be relative", `a\b`: "must use /", "a//b": "empty path segment", "a/[": "not a valid glob",
	} {
		if got := ValidGlob(g); want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("ValidGlob(%q) = %q, want %q", g, got, want)
		}
	}
}

// check is one question to a stack of .gitignore files.
type check struct {
	path  string
	dir   bool
	want  bool
	descr string
}

func stackOf(t *testing.T, files ...string) []*Gitignore {
	t.Helper()
	var out []*Gitignore
	for i := 0; i+1 < len(files); i += 2 {
		g, more := ParseGitignore(files[i], files[i+1])
		if more {
			t.Fatalf("%s: too many patterns", files[i])
		}
		out = append(out, g)
	}
	return out
}

func TestGitignoreSemantics(t *testing.T) {
	root := stackOf(t, ".", strings.Join([]string{
		"# a comment",
		"",
		"output/",         // directory only, any depth
		"*.log",           // name at any depth
		"!keep.log",       // re-included
		"/top.yaml",       // anchored at the root
		"conf/local.yaml", // a slash in the middle: anchored
		"cache/**",        // what is in cache/, not cache itself
		"!cache/keep.yaml",
		"**/tmp",
		"a/**/z.yaml",
		`\#hash.yaml`,
		`\!bang.yaml`,
		"space.yaml   ",
		`tail\ `,
		"[!x]only.yaml",
	}, "\n"))
	for _, c := range []check{
		{"output", true, true, "dir-only pattern, directory"},
		{"output", false, false, "dir-only pattern, file of that name"},
		{"resources_servers/x/output", true, true, "dir-only pattern at depth"},
		{"run.log", false, true, "name at the root"},
		{"a/b/run.log", false, true, "name at depth"},
		{"a/keep.log", false, false, "negation re-includes"},
		{"top.yaml", false, true, "anchored at the root"},
		{"a/top.yaml", false, false, "anchored pattern not at depth"},
		{"conf/local.yaml", false, true, "middle slash anchors"},
		{"x/conf/local.yaml", false, false, "middle slash anchors, not at depth"},
		{"cache", true, false, "dir/** does not match dir"},
		{"cache/a.yaml", false, true, "dir/** matches its content"},
		{"cache/d/a.yaml", false, true, "dir/** matches deep content"},
		{"cache/keep.yaml", false, false, "negation inside dir/**"},
		{"tmp", true, true, "leading **/ at the root"},
		{"a/b/tmp", false, true, "leading **/ at depth"},
		{"a/z.yaml", false, true, "/**/ matches no directory"},
		{"a/b/c/z.yaml", false, true, "/**/ matches several"},
		{"b/z.yaml", false, false, "/**/ is anchored"},
		{"#hash.yaml", false, true, "escaped #"},
		{"!bang.yaml", false, true, "escaped !"},
		{"space.yaml", false, true, "trailing spaces dropped"},
		{"tail ", false, true, "escaped trailing space kept"},
		{"tail", false, false, "escaped trailing space kept (no match without it)"},
		{"aonly.yaml", false, true, "[!x] is a negated class"},
		{"xonly.yaml", false, false, "[!x] excludes x"},
		{"a/b.yaml", false, false, "nothing matches"},
	} {
		if got := Ignored(root, c.path, c.dir); got != c.want {
			t.Errorf("%s: Ignored(%q, dir=%v) = %v, want %v", c.descr, c.path, c.dir, got, c.want)
		}
	}
}

func TestGitignoreNested(t *testing.T) {
	stack := stackOf(t, ".", "*.yaml\n", "sub", "!*.yaml\n/local.yaml\n")
	for _, c := range []check{
		{"a.yaml", false, true, "root pattern"},
		{"sub/a.yaml", false, false, "deeper file's negation wins"},
		{"sub/local.yaml", false, true, "anchored at the nested file's directory"},
		{"sub/x/local.yaml", false, false, "anchored pattern of the nested file not deeper"},
		{"other/a.yaml", false, true, "nested file does not apply elsewhere"},
	} {
		if got := Ignored(stack, c.path, c.dir); got != c.want {
			t.Errorf("%s: Ignored(%q) = %v, want %v", c.descr, c.path, got, c.want)
		}
	}
	// A nested file never decides a path outside its directory, nor the
	// directory itself.
	if _, ok := stack[1].Match("subway/a.yaml", false); ok {
		t.Error("sub/.gitignore decided subway/a.yaml")
	}
	if _, ok := stack[1].Match("sub", true); ok {
		t.Error("sub/.gitignore decided sub itself")
	}
}

func TestIgnoredPath(t *testing.T) {
	files := stackOf(t, "a", "!*.yaml\n", ".", "output/\n*.yaml\n")
	for p, want := range map[string]bool{
		"output/x/conf.yaml": true,  // in an ignored directory
		"a/output/c.yaml":    true,  // a file in an ignored directory cannot be re-included
		"a/c.yaml":           false, // the deeper file re-includes it
		"b/c.yaml":           true,
		"b/c.py":             false,
	} {
		if got := IgnoredPath(files, p); got != want {
			t.Errorf("IgnoredPath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestGitignoreEdges(t *testing.T) {
	all := stackOf(t, ".", "\ufeff**\n!keep.yaml\n")
	if !Ignored(all, "a/b.yaml", false) || !Ignored(all, "a", true) || Ignored(all, "a/keep.yaml", false) {
		t.Error(`"**" alone (after a byte order mark) should ignore everything but keep.yaml`)
	}
	stars := stackOf(t, ".", "**.pyc\n/\n!\n")
	if !Ignored(stars, "a/b.pyc", false) || Ignored(stars, "a/b.py", false) {
		t.Error(`"**.pyc" is "*.pyc"; "/" and "!" alone are nothing`)
	}
}

func TestGitignorePatternCap(t *testing.T) {
	var b strings.Builder
	for i := 0; i < MaxGitignorePatterns+5; i++ {
		fmt.Fprintf(&b, "f%d.yaml\n", i)
	}
	g, more := ParseGitignore(".", b.String())
	if !more || g.Len() != MaxGitignorePatterns {
		t.Errorf("more=%v len=%d", more, g.Len())
	}
	g, more = ParseGitignore(".", "a\r\nb\r\n")
	if more || g.Len() != 2 {
		t.Errorf("CRLF lines: more=%v len=%d", more, g.Len())
	}
	if ign, _ := g.Match("b", false); !ign {
		t.Error("CRLF line's pattern does not match")
	}
}

func BenchmarkIgnored(b *testing.B) {
	g, _ := ParseGitignore(".", "*.pyc\n__pycache__/\noutput/\n/build\ndist/\n*.egg-info/\n.env\nresults/**\n!results/keep.yaml\n")
	stack := []*Gitignore{g}
	for i := 0; i < b.N; i++ {
		Ignored(stack, "resources_servers/some_server/configs/some_server.yaml", false)
	}
}

// A pattern of many "**" segments must not make matching exponential: a
// backtracking matcher (policy.Match before this package) took 1 ms for 8
// "**/a/" against a path of 16 "a" segments, 0.85 s for 12 and 9 s for 14,
// ten times more for each two. Here the matcher's work is at most
// (segments of the pattern + 1) × (segments of the path + 1).
func TestStarStarIsPolynomial(t *testing.T) {
	const k = 40 // about 10^13 times the 9 s of 14 for the old matcher
	g := strings.Repeat("**/a/", k) + "b"
	p := strings.Repeat("a/", 2*k) + "c"
	done := make(chan bool, 1)
	go func() {
		gi, _ := ParseGitignore(".", "/"+g+"\n")
		done <- Glob(g, p) || Ignored([]*Gitignore{gi}, p, false) || !Glob(g, strings.Repeat("a/", 2*k)+"b")
	}()
	select {
	case bad := <-done:
		if bad {
			t.Error("wrong answer")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("matching did not finish in 20 s")
	}
}

func BenchmarkStarStar(b *testing.B) {
	g := strings.Repeat("**/a/", 40) + "b"
	p := strings.Repeat("a/", 80) + "c"
	for i := 0; i < b.N; i++ {
		Glob(g, p)
	}
}
