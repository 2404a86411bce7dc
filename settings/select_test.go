package settings

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/gymlint/gymlint/lint"
)

// codesWith lists the catalogue's codes that start with prefix.
func codesWith(prefix string) []string {
	var out []string
	for _, r := range lint.Rules() {
		if strings.HasPrefix(r.Code, prefix) {
			out = append(out, r.Code)
		}
	}
	return out
}

func TestResolvePrefixes(t *testing.T) {
	gl1 := codesWith("GL1")
	if len(gl1) < 2 {
		t.Fatalf("catalogue has %v under GL1", gl1)
	}
	if got := ResolveRule("GL1"); !slices.Equal(got, gl1) {
		t.Errorf("GL1 = %v, want %v", got, gl1)
	}
	if got := ResolveRule("GL10"); !slices.Equal(got, codesWith("GL10")) || slices.Contains(got, "GL201") {
		t.Errorf("GL10 = %v", got)
	}
	if got := ResolveRule("GL"); len(got) != len(lint.Rules()) {
		t.Errorf("GL = %d codes, want every one (%d)", len(got), len(lint.Rules()))
	}
	if got := ResolveRule("ALL"); len(got) != len(lint.Rules()) {
		t.Errorf("ALL = %d codes", len(got))
	}
	for _, bad := range []string{"GL9", "GL999", "GL1x", "G", "gl1", "GL1010", "all"} {
		if got := ResolveRule(bad); got != nil {
			t.Errorf("ResolveRule(%q) = %v, want nothing", bad, got)
		}
	}
}

func TestConfigPrefixes(t *testing.T) {
	s, err := Parse("x", []byte("enable: [GL1, rayenabled]\ndisable: [GL10]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(s.Enable, "GL201") || slices.Contains(s.Enable, "GL301") || !slices.Equal(s.Disable, codesWith("GL10")) {
		t.Errorf("enable %v disable %v", s.Enable, s.Disable)
	}
	if _, err := Parse("x", []byte("disable: [GL9]\n")); err == nil || !strings.Contains(err.Error(), `x:1: unknown rule "GL9" in disable: give a code such as GL101, a code prefix such as GL1`) {
		t.Errorf("GL9: %v", err)
	}
}

func TestWith(t *testing.T) {
	conf, err := Parse("x", []byte("enable: [workers, rayenabled]\ndisable: [GL205]\nexclude: [output]\n"))
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(v ...string) []string {
		t.Helper()
		codes, err := ResolveSelectors("--flag", v)
		if err != nil {
			t.Fatal(err)
		}
		return codes
	}
	// --select replaces enable, and the configuration's disable no longer
	// applies (ruff: "--select F401" enforces F401 whatever ignore says).
	s := conf.With(Selection{Select: resolve("GL205,GL301")})
	if !slices.Equal(s.Enable, []string{"GL205", "GL301"}) || len(s.Disable) != 0 {
		t.Errorf("select: enable %v disable %v", s.Enable, s.Disable)
	}
	// --extend-select adds to enable and takes the rule out of disable.
	s = conf.With(Selection{Extend: resolve("GL205", "GL301")})
	if !slices.Contains(s.Enable, "GL101") || !slices.Contains(s.Enable, "GL301") || slices.Contains(s.Disable, "GL205") {
		t.Errorf("extend-select: enable %v disable %v", s.Enable, s.Disable)
	}
	// --ignore adds to disable, also over --select and --extend-select.
	s = conf.With(Selection{Select: resolve("GL1"), Extend: resolve("GL301"), Ignore: resolve("GL101,GL301")})
	if !slices.Contains(s.Disable, "GL101") || !slices.Contains(s.Disable, "GL301") || !slices.Contains(s.Enable, "GL102") {
		t.Errorf("ignore: enable %v disable %v", s.Enable, s.Disable)
	}
	// Without enable in the configuration, every rule stays enabled.
	all := &Settings{Disable: []string{"GL205"}}
	if s = all.With(Selection{Extend: resolve("GL205")}); s.Enable != nil || len(s.Disable) != 0 {
		t.Errorf("extend-select over every rule: enable %v disable %v", s.Enable, s.Disable)
	}
	// Excludes add up; the configuration is not changed.
	s = conf.With(Selection{Exclude: []string{"tmp/**"}})
	if !slices.Equal(s.Exclude, []string{"output", "tmp/**"}) || len(conf.Exclude) != 1 || !slices.Equal(conf.Disable, []string{"GL205"}) {
		t.Errorf("exclude %v, conf %+v", s.Exclude, conf)
	}
	if _, err := ResolveSelectors("--select", []string{"GL101,nope"}); err == nil || !strings.Contains(err.Error(), `unknown rule "nope" in --select`) {
		t.Errorf("unknown: %v", err)
	}
	if _, err := ResolveSelectors("--ignore", []string{" , "}); err == nil || !strings.Contains(err.Error(), "--ignore needs at least one rule") {
		t.Errorf("empty: %v", err)
	}
}

func TestExcludeKey(t *testing.T) {
	s, err := Parse("x", []byte("exclude: [\"./output/**\", \"**/scratch\", \"build/\"]\n"))
	if err != nil || !slices.Equal(s.Exclude, []string{"output/**", "**/scratch", "build"}) {
		t.Fatalf("%v %v", s, err)
	}
	for in, want := range map[string]string{
		"exclude: output\n":              "x:1: exclude must be a list",
		"exclude:\n  - a\n  - /abs\n":    `x:3: exclude: "/abs" must be relative`,
		"exclude: [\"a/[\"]\n":           "is not a valid glob",
		"exclude:\n  - {a: b}\n":         "exclude entries must be a single value",
		"exclude: [\"\"]\n":              `exclude: "" is empty`,
		"exclude: [\"a\\\\b\"]\n":        "must use /",
		"exclude: [\"output//x\"]\n":     "empty path segment",
		"server_types: [a]\nexclude: \n": "exclude must be a list",
	} {
		if _, err := Parse("x", []byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	s, ok, err := ParseTOML(PyProject, []byte("[tool.gymlint]\nexclude = [\"output\"]\n"))
	if err != nil || !ok || !slices.Equal(s.Exclude, []string{"output"}) {
		t.Errorf("toml: %v %v %v", s, ok, err)
	}
}

func TestLoadFile(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	write := func(p, content string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	yml := write(filepath.Join(outside, "ci.yaml"), "disable: [GL205]\n")
	s, err := LoadFile(yml, root)
	if err != nil || !slices.Equal(s.Disable, []string{"GL205"}) || s.File != yml {
		t.Fatalf("outside the root: %+v %v", s, err)
	}
	inside := write(filepath.Join(root, "conf", "strict.yml"), "enable: [GL1]\n")
	if s, err = LoadFile(inside, root); err != nil || s.File != "conf/strict.yml" || len(s.Enable) == 0 {
		t.Errorf("inside the root: %+v %v", s, err)
	}
	py := write(filepath.Join(outside, "pyproject.toml"), "[tool.gymlint]\ndisable = [\"GL1\"]\n")
	if s, err = LoadFile(py, root); err != nil || !slices.Equal(s.Disable, codesWith("GL1")) || s.File != py {
		t.Errorf("pyproject.toml: %+v %v", s, err)
	}
	noTable := write(filepath.Join(outside, "other", "pyproject.toml"), "[project]\nname = \"x\"\n")
	link := filepath.Join(outside, "link.yaml")
	if err := os.Symlink(yml, link); err != nil {
		t.Fatal(err)
	}
	if s, err = LoadFile(link, root); err != nil || len(s.Disable) != 1 {
		t.Errorf("a link is followed: %+v %v", s, err)
	}
	big := write(filepath.Join(outside, "big.yaml"), "# "+strings.Repeat("x", maxSize)+"\n")
	fifo := filepath.Join(outside, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := write(filepath.Join(outside, "bad.yaml"), "bogus: 1\n")
	for p, want := range map[string]string{
		filepath.Join(outside, "none.yaml"): "no such configuration file",
		outside:                             "is a directory, not a regular file",
		fifo:                                "is a named pipe (FIFO), not a regular file",
		big:                                 "larger than 1048576 bytes",
		noTable:                             "has no [tool.gymlint] table",
		bad:                                 bad + `:1: unknown key "bogus"`,
	} {
		_, err := LoadFile(p, root)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), p) {
			t.Errorf("LoadFile(%s): %v, want %q", p, err, want)
		}
	}
}
