package gymtest

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/suppress"
)

// Testing is what RunCase reports to: a *testing.T, or a fake that records
// the failures (as analysistest.Testing is).
type Testing interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// An Option configures Run and RunCase.
type Option func(*config)

type config struct {
	framework []string // directories overlaid into every case, later ones winning
	cases     []string // nil: every case
}

// Framework overlays the files under each dir (a path relative to the
// test's directory, such as "testdata/framework") into every case, at
// their paths relative to dir. A file of a later dir wins over an
// earlier's (a framework generation that changes one module of a shared
// stub), and a file of the case wins over them all.
func Framework(dirs ...string) Option { return func(c *config) { c.framework = dirs } }

// Cases makes Run run only the named cases (directories of dir/src).
func Cases(names ...string) Option { return func(c *config) { c.cases = names } }

// Run checks every case under dir/src (or those Cases names), each as a
// subtest named by its directory, with the diagnostics of analyzers (and
// the core and suppression rules) checked.
func Run(t *testing.T, dir string, analyzers []string, opts ...Option) {
	t.Helper()
	c := configure(opts)
	src := filepath.Join(dir, "src")
	names := c.cases
	if names == nil {
		entries, err := os.ReadDir(src)
		if err != nil {
			t.Fatalf("gymtest: %v", err)
		}
		for _, e := range entries {
			if e.IsDir() {
				names = append(names, e.Name())
			}
		}
		if len(names) == 0 {
			t.Fatalf("gymtest: no case under %s", src)
		}
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			RunCase(t, filepath.Join(src, name), analyzers, opts...)
		})
	}
}

func configure(opts []Option) *config {
	c := &config{}
	for _, o := range opts {
		o(c)
	}
	return c
}

// RunCase checks the case at caseDir: its diagnostics against its `# want`
// and `# related` comments, and its fixes against its goldens.
func RunCase(t Testing, caseDir string, analyzers []string, opts ...Option) {
	t.Helper()
	c := configure(opts)
	k, err := load(caseDir, c.framework)
	if err != nil {
		t.Fatalf("gymtest: %v", err)
		return
	}
	k.checked = func(d diag.Diagnostic) bool {
		return d.Analyzer == "core" || slices.Contains(analyzers, d.Analyzer) ||
			slices.ContainsFunc(suppress.Rules, func(r *diag.Rule) bool { return r.Code == d.Code })
	}
	ds, err := k.lint(nil)
	if err != nil {
		t.Fatalf("gymtest: %s: %v", caseDir, err)
		return
	}
	k.checkExpectations(t, ds)
	k.checkSanity(t, ds)
	k.checkFixes(t, ds)
}

// kase is one case: its files and the framework's, read once.
type kase struct {
	dir       string
	files     map[string][]byte // the case's own files, by slash path
	framework map[string][]byte // the framework files the case does not replace
	checked   func(diag.Diagnostic) bool
}

func load(caseDir string, framework []string) (*kase, error) {
	files, err := readTree(caseDir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: the case has no files", caseDir)
	}
	k := &kase{dir: caseDir, files: files, framework: map[string][]byte{}}
	for _, dir := range framework {
		fw, err := readTree(dir)
		if err != nil {
			return nil, err
		}
		for p, data := range fw {
			if _, own := files[p]; !own {
				k.framework[p] = data
			}
		}
	}
	return k, nil
}

// readTree reads every regular file under dir, by slash path relative to dir.
func readTree(dir string) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	return out, err
}

// content is a file of the case as the engine reads it: the case's, else
// the framework's.
func (k *kase) content(p string) ([]byte, bool) {
	if data, ok := k.files[p]; ok {
		return data, true
	}
	data, ok := k.framework[p]
	return data, ok
}

// show is a case path as the failure messages print it: under the case
// directory, so that editors can open it.
func (k *kase) show(p string) string { return filepath.ToSlash(filepath.Join(k.dir, p)) }

// lint runs the engine on the case, with the framework and then fixed
// (root-relative path → content, instead of the case's file) overlaid: the
// pipeline of every front end (configuration, the rules it enables, inline
// suppressions, policy).
func (k *kase) lint(fixed map[string][]byte) ([]diag.Diagnostic, error) {
	overlay := map[string][]byte{}
	for p, data := range k.framework {
		overlay[p] = data
	}
	for p, data := range fixed {
		overlay[p] = data
	}
	e, err := engine.New(engine.Options{Root: k.dir, Overlay: overlay, NoGo: true})
	if err != nil {
		return nil, err
	}
	res, err := e.Scan(nil)
	if err != nil {
		return nil, err
	}
	return res.Diagnostics, nil
}

// checkSanity checks what holds for every diagnostic: it does not end
// before it starts, and its fixes' edits lie in their files with positions
// that agree with their offsets.
func (k *kase) checkSanity(t Testing, ds []diag.Diagnostic) {
	t.Helper()
	for _, d := range ds {
		if !k.checked(d) {
			continue
		}
		if d.End.Offset < d.Start.Offset || d.End.Line < d.Start.Line {
			t.Errorf("%s:%d:%d: %s ends before it starts (end %d:%d, offset %d < %d)", k.show(d.Path), d.Start.Line, d.Start.Col,
				d.Code, d.End.Line, d.End.Col, d.End.Offset, d.Start.Offset)
		}
		for _, f := range d.Fixes {
			for _, e := range f.Edits {
				if err := k.checkEdit(e); err != nil {
					t.Errorf("%s:%d:%d: %s: fix %q: %v", k.show(d.Path), d.Start.Line, d.Start.Col, d.Code, f.Message, err)
				}
			}
		}
	}
}

func (k *kase) checkEdit(e diag.TextEdit) error {
	data, ok := k.content(e.Path)
	if !ok {
		return fmt.Errorf("it edits %s, which is not a file of the case", e.Path)
	}
	if e.Start.Offset < 0 || e.Start.Offset > e.End.Offset || e.End.Offset > len(data) {
		return fmt.Errorf("its edit [%d, %d) of %s lies outside the file (%d bytes)", e.Start.Offset, e.End.Offset, e.Path, len(data))
	}
	for _, p := range []diag.Pos{e.Start, e.End} {
		before := data[:p.Offset]
		line := strings.Count(string(before), "\n") + 1
		col := p.Offset - strings.LastIndexByte(string(before), '\n')
		if p.Line != line || p.Col != col {
			return fmt.Errorf("its edit of %s at %d:%d has offset %d, which is %d:%d", e.Path, p.Line, p.Col, p.Offset, line, col)
		}
	}
	return nil
}

// updating reports whether the test binary runs with -update.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// expectationFile reports whether the comments of p can hold expectations.
func expectationFile(p string) bool {
	switch path.Ext(p) {
	case ".py", ".yaml", ".yml", ".toml":
		return true
	}
	return false
}
