package repofs_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/internal/repofs"
)

// ignoreTree is a repository with .gitignore files at the root and below,
// and files that the configuration's exclude globs name.
func ignoreTree(t *testing.T) string {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".gitignore":                               "# build output\noutput/\n*.local.yaml\ncache/**\n!cache/keep.yaml\n/top.yaml\n",
		"top.yaml":                                 "t: 1\n",
		"sub/top.yaml":                             "t: 1\n",
		"output/run1/conf.yaml":                    "o: 1\n",
		"output/run1/app.py":                       "o\n",
		"resources_servers/a/app.py":               "a\n",
		"resources_servers/a/configs/a.yaml":       "a: 1\n",
		"resources_servers/a/configs/a.local.yaml": "a: 1\n",
		"resources_servers/a/output/x.yaml":        "x: 1\n",
		"cache/c.yaml":                             "c: 1\n",
		"cache/keep.yaml":                          "k: 1\n",
		"resources_servers/b/.gitignore":           "!*.local.yaml\ngenerated/\n",
		"resources_servers/b/configs/b.local.yaml": "b: 1\n",
		"resources_servers/b/generated/g.yaml":     "g: 1\n",
		"resources_servers/b/app.py":               "b\n",
		"scratch/s.yaml":                           "s: 1\n",
		"resources_servers/c/scratch/app.py":       "c\n",
	})
	return dir
}

func TestWalkGitignore(t *testing.T) {
	dir := ignoreTree(t)
	l := open(t, dir, repofs.Options{Gitignore: true}).Walk()
	wantYAML := []string{
		"cache/keep.yaml", // re-included: cache/** does not ignore cache itself
		"resources_servers/a/configs/a.yaml",
		"resources_servers/b/configs/b.local.yaml", // the nested .gitignore re-includes it
		"scratch/s.yaml",
		"sub/top.yaml", // /top.yaml is anchored at the root
	}
	wantApp := []string{"resources_servers/a/app.py", "resources_servers/b/app.py", "resources_servers/c/scratch/app.py"}
	if !equal(l.YAML, wantYAML) || !equal(l.AppPy, wantApp) || len(l.Problems) != 0 {
		t.Errorf("YAML = %v\nwant %v\nAppPy = %v\nwant %v\nProblems %v", l.YAML, wantYAML, l.AppPy, wantApp, l.Problems)
	}
	// Without Gitignore everything is walked; reads never look at it.
	f := open(t, dir, repofs.Options{})
	if l := f.Walk(); len(l.YAML) != 11 || len(l.AppPy) != 4 {
		t.Errorf("without Gitignore: %v %v", l.YAML, l.AppPy)
	}
	if _, err := open(t, dir, repofs.Options{Gitignore: true}).Read("output/run1/conf.yaml"); err != nil {
		t.Errorf("an ignored file is still read by path: %v", err)
	}
}

func TestWalkExclude(t *testing.T) {
	dir := ignoreTree(t)
	l := open(t, dir, repofs.Options{Exclude: []string{"output", "**/scratch", "cache/*.yaml"}}).Walk()
	for _, p := range append(l.YAML, l.AppPy...) {
		if strings.HasPrefix(p, "output/") || strings.Contains(p, "scratch/") || strings.HasPrefix(p, "cache/") {
			t.Errorf("excluded %s was walked", p)
		}
	}
	// "output" excludes the root's output/, not resources_servers/a/output.
	if !contains(l.YAML, "resources_servers/a/output/x.yaml") || !contains(l.YAML, "top.yaml") || !contains(l.AppPy, "resources_servers/a/app.py") {
		t.Errorf("YAML %v AppPy %v", l.YAML, l.AppPy)
	}
}

// The overlay's files obey the same rules as the disk's.
func TestWalkIgnoresOverlay(t *testing.T) {
	dir := ignoreTree(t)
	f := open(t, dir, repofs.Options{Gitignore: true, Exclude: []string{"scratch"}, Overlay: map[string][]byte{
		"output/new.yaml":                     []byte("n: 1\n"),
		"scratch/new.yaml":                    []byte("n: 1\n"),
		"resources_servers/b/generated/n.yml": []byte("n: 1\n"),
		"resources_servers/d/app.py":          []byte("d\n"),
	}})
	l := f.Walk()
	if contains(l.YAML, "output/new.yaml") || contains(l.YAML, "scratch/new.yaml") || contains(l.YAML, "resources_servers/b/generated/n.yml") || !contains(l.AppPy, "resources_servers/d/app.py") {
		t.Errorf("YAML %v AppPy %v", l.YAML, l.AppPy)
	}
}

func TestWalkGitignoreProblems(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 2100; i++ {
		fmt.Fprintf(&b, "ignored%d.yaml\n", i)
	}
	writeTree(t, dir, map[string]string{
		".gitignore":                 "ignored0.yaml\n" + b.String(),
		"ignored0.yaml":              "a: 1\n",
		"ignored2050.yaml":           "a: 1\n", // past the cap: not ignored
		"bin/.gitignore":             "x\x00y\n",
		"bin/a.yaml":                 "a: 1\n",
		"resources_servers/a/app.py": "a\n",
	})
	if err := os.Symlink(filepath.Join(t.TempDir(), "elsewhere"), filepath.Join(dir, "resources_servers", ".gitignore")); err != nil {
		t.Fatal(err)
	}
	l := open(t, dir, repofs.Options{Gitignore: true}).Walk()
	var got []string
	for _, pe := range l.Problems {
		got = append(got, pe.Path)
	}
	if !equal(got, []string{".gitignore", "bin/.gitignore", "resources_servers/.gitignore"}) {
		t.Fatalf("problems %v", l.Problems)
	}
	if !errors.Is(l.Problems[0], repofs.ErrTooManyPatterns) || !errors.Is(l.Problems[1], repofs.ErrBinary) {
		t.Errorf("problems %v", l.Problems)
	}
	if contains(l.YAML, "ignored0.yaml") || !contains(l.YAML, "ignored2050.yaml") || !contains(l.YAML, "bin/a.yaml") || !contains(l.AppPy, "resources_servers/a/app.py") {
		t.Errorf("YAML %v", l.YAML)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Patterns that are each cheap but costly together (2,000 patterns of
// nine segments, over 1,500 entries) make the walk stop applying the
// .gitignore files past MaxGitignoreWork, with a Problem, instead of
// taking minutes; the files are still listed.
func TestWalkGitignoreBudget(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, repofs.CostlyGitignoreTree())
	l := open(t, dir, repofs.Options{Gitignore: true}).Walk()
	if len(l.Problems) != 1 || !errors.Is(l.Problems[0], repofs.ErrGitignoreTooCostly) || l.Problems[0].Path != ".gitignore" {
		t.Fatalf("problems %v", l.Problems)
	}
	if len(l.YAML) != 1500 || len(l.AppPy) != 1 {
		t.Errorf("%d YAML, %d app.py", len(l.YAML), len(l.AppPy))
	}
}

func TestIgnoredDir(t *testing.T) {
	dir := ignoreTree(t)
	writeTree(t, dir, map[string]string{"resources_servers/b/generated/mod/go.mod": "module x\n", "tools/go/go.mod": "module y\n"})
	f := open(t, dir, repofs.Options{Gitignore: true, Exclude: []string{"scratch"}})
	for rel, want := range map[string]bool{
		".":                                 false,
		"output":                            true,
		"output/run1":                       true,
		"resources_servers/a/output":        true,
		"resources_servers/b/generated/mod": true, // the nested .gitignore
		"resources_servers/b":               false,
		"tools/go":                          false,
		"scratch":                           true, // excluded
		"cache":                             false,
	} {
		if got := f.IgnoredDir(rel); got != want {
			t.Errorf("IgnoredDir(%q) = %v, want %v", rel, got, want)
		}
	}
	if open(t, dir, repofs.Options{}).IgnoredDir("output") {
		t.Error("IgnoredDir without Gitignore")
	}
}
