package contract

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gymlint/gymlint/internal/repofs"
	"github.com/gymlint/gymlint/internal/workers"
	"github.com/gymlint/gymlint/pyscan"
)

// Bounds on what Detect reads of a framework package: a package larger
// than this is read in part (what is beyond is a Problem).
const (
	MaxModules = 2000     // modules parsed
	MaxBytes   = 64 << 20 // bytes parsed, in all
	maxDepth   = 12       // directory levels below the package
)

// Options say where to look for the framework.
type Options struct {
	// FS is the repository root.
	FS *repofs.FS
	// Package is the framework's top-level package; "" means DefaultPackage.
	Package string
	// FrameworkPath is the configured framework_path: a root-relative
	// directory that is the package, or holds it.
	FrameworkPath string
	// VirtualEnv is the virtual environment of the user's environment
	// ($VIRTUAL_ENV): an absolute directory, which may lie outside the
	// root. Only its lib/python3*/site-packages/<package> is read.
	VirtualEnv string
	// Jobs is how many modules are parsed at once; 0: GOMAXPROCS.
	Jobs int
}

// Detect finds the framework package and reads its facts. It looks, in
// order, for <root>/<package>/__init__.py; the configured framework_path;
// <root>/.venv or <root>/venv, then $VIRTUAL_ENV, each at
// lib/python3*/site-packages/<package>/__init__.py. The first found is
// read; when none is, Found is false and every fact holds.
func Detect(o Options) *Framework {
	fw, _ := DetectModules(o)
	return fw
}

// Parsed is a module that Detect parsed, and the steps its parse took
// (pyscan.Budget.Charge).
type Parsed struct {
	Module *pyscan.Module
	Steps  int64
}

// DetectModules is Detect, and also gives the modules it parsed without a
// syntax error from files inside the root (their paths root-relative):
// a scan that would parse some of them again can take them instead
// (gym.Preparsed). None when the framework lies outside the root.
func DetectModules(o Options) (*Framework, []Parsed) {
	pkg := o.Package
	if pkg == "" {
		pkg = DefaultPackage
	}
	fw := &Framework{Package: pkg}
	if o.FS == nil {
		return fw, nil
	}
	if o.FS.IsFile(pkg + "/__init__.py") {
		return read(fw, o.FS, pkg, pkg, InRepository, o.Jobs)
	}
	if fp := strings.TrimSuffix(o.FrameworkPath, "/"); fp != "" {
		for _, dir := range []string{fp, path.Join(fp, pkg)} {
			if c, ok := repofs.Clean(dir); ok && o.FS.IsFile(c+"/__init__.py") {
				return read(fw, o.FS, c, c, FrameworkPath, o.Jobs)
			}
		}
		fw.Problems = append(fw.Problems, fmt.Sprintf("framework_path %s holds no %s package (no __init__.py)", fp, pkg))
	}
	for _, venv := range []string{".venv", "venv"} {
		if dir := sitePackage(o.FS, venv, pkg); dir != "" {
			return read(fw, o.FS, dir, dir, VirtualEnv, o.Jobs)
		}
	}
	if o.VirtualEnv != "" && filepath.IsAbs(o.VirtualEnv) {
		if vfs, err := repofs.New(o.VirtualEnv, repofs.Options{MaxFileSize: o.FS.MaxFileSize()}); err == nil {
			if dir := sitePackage(vfs, ".", pkg); dir != "" {
				// Inside the root when the environment is: then as the
				// root sees it.
				if rel, err := filepath.Rel(o.FS.Root(), filepath.Join(vfs.Root(), filepath.FromSlash(dir))); err == nil && filepath.IsLocal(rel) {
					return read(fw, o.FS, filepath.ToSlash(rel), filepath.ToSlash(rel), VirtualEnv, o.Jobs)
				}
				fw, _ := read(fw, vfs, dir, filepath.Join(vfs.Root(), filepath.FromSlash(dir)), VirtualEnv, o.Jobs)
				return fw, nil
			}
		}
	}
	return fw, nil
}

// sitePackage returns the root-relative directory of pkg in the virtual
// environment venv of fsys (lib/python3*/site-packages/pkg), or "".
func sitePackage(fsys *repofs.FS, venv, pkg string) string {
	lib := path.Join(venv, "lib")
	dirs, _ := fsys.ListDir(lib)
	for _, d := range dirs {
		if !strings.HasPrefix(d, "python3") {
			continue
		}
		dir := path.Join(lib, d, "site-packages", pkg)
		if fsys.IsFile(dir + "/__init__.py") {
			return dir
		}
	}
	return ""
}

// read parses the modules of the package at dir of fsys and reads the
// facts, and returns the modules parsed without a syntax error. display
// is the directory as Framework.Dir shows it. The files are
// read in order (the size bound counts them in that order), and the ones
// that may hold a fact are parsed by up to jobs parsers at once: the
// framework's large modules are a serial wait at the start of every cold
// scan otherwise. The modules and the problems keep the files' order.
func read(fw *Framework, fsys *repofs.FS, dir, display string, where Where, jobs int) (*Framework, []Parsed) {
	fw.Found, fw.Dir, fw.Where = true, display, where
	fw.Facts = map[Fact]string{}
	files := pythonFiles(fsys, dir, fw)
	// One entry a file read: a problem, or a module to parse if its text
	// may hold a fact.
	type entry struct {
		problem string
		path    string
		data    []byte
		mod     *pyscan.Module
		steps   int64
	}
	var entries []*entry
	total := 0
	for _, f := range files {
		data, err := fsys.Read(f)
		if err != nil {
			entries = append(entries, &entry{problem: fmt.Sprintf("%s not read: %v", shown(fsys, f, display, dir), unwrap(err))})
			continue
		}
		if total+len(data) > MaxBytes {
			entries = append(entries, &entry{problem: fmt.Sprintf("%s and later modules not read: the framework is larger than %d MiB", shown(fsys, f, display, dir), MaxBytes>>20)})
			break
		}
		total += len(data)
		entries = append(entries, &entry{path: shown(fsys, f, display, dir), data: data})
	}
	// The largest first, so that no parser is left with a large module
	// at the end while the others wait.
	order := make([]*entry, 0, len(entries))
	for _, e := range entries {
		if e.data != nil {
			order = append(order, e)
		}
	}
	slices.SortStableFunc(order, func(a, b *entry) int { return len(b.data) - len(a.data) })
	parse := func(p *pyscan.Parser, e *entry) {
		// A budget of its own counts the parse's steps.
		b := pyscan.NewBudget(math.MaxInt64)
		e.mod = p.ParseWithin(e.path, e.data, b)
		e.steps = b.Spent()
	}
	var later []*entry // not parsed, but mention ServerRef
	parseAll(len(order), jobs, func(p *pyscan.Parser, i int) {
		e := order[i]
		if holdsFacts(e.data) {
			parse(p, e)
		}
		if e.mod != nil || !bytes.Contains(e.data, []byte(ServerRefUnion)) {
			e.data = nil
		}
	})
	// The second pass: a module that mentions ServerRef and defines a
	// member of the union the first pass found (refs.go).
	var first []*pyscan.Module
	for _, e := range order {
		if e.mod != nil {
			first = append(first, e.mod)
		} else if e.data != nil {
			later = append(later, e)
		}
	}
	if members := unionOf(first); len(later) > 0 && len(members) > 0 {
		parseAll(len(later), jobs, func(p *pyscan.Parser, i int) {
			if e := later[i]; definesMember(e.data, members) {
				parse(p, e)
			}
		})
	}
	for _, e := range later {
		e.data = nil
	}
	var mods []*pyscan.Module
	var parsed []Parsed
	for _, e := range entries {
		switch {
		case e.problem != "":
			fw.Problems = append(fw.Problems, e.problem)
		case e.mod != nil:
			if e.mod.SyntaxError != nil {
				fw.Problems = append(fw.Problems, fmt.Sprintf("%s does not parse: %s", e.mod.Path, e.mod.SyntaxError.Message))
			}
			mods = append(mods, e.mod)
			if e.mod.SyntaxError == nil {
				parsed = append(parsed, Parsed{Module: e.mod, Steps: e.steps})
			}
		}
	}
	fw.Modules = len(mods)
	fw.Files = len(files)
	readFacts(fw, mods)
	return fw, parsed
}

// parseAll calls fn for i from 0 to n-1 on up to jobs goroutines (0:
// GOMAXPROCS), each with a parser of its own.
func parseAll(n, jobs int, fn func(p *pyscan.Parser, i int)) {
	var parsers []*pyscan.Parser
	defer func() {
		for _, p := range parsers {
			if p != nil {
				p.Close()
			}
		}
	}()
	parsers = make([]*pyscan.Parser, max(1, workers.Count(n, jobs)))
	workers.Each(n, jobs, func(w, i int) {
		if parsers[w] == nil {
			parsers[w] = pyscan.NewParser(pyscan.Options{})
		}
		fn(parsers[w], i)
	})
}

// shown is the path of a framework file as messages give it.
func shown(fsys *repofs.FS, f, display, dir string) string {
	if display == dir {
		return f
	}
	return filepath.Join(display, filepath.FromSlash(strings.TrimPrefix(f, dir+"/")))
}

func unwrap(err error) error {
	if pe, ok := err.(*repofs.PathError); ok {
		return pe.Err
	}
	return err
}

// pythonFiles lists the .py files of the package directory dir and its
// subpackages, breadth-first and sorted within a directory, within the
// bounds; hidden and cache directories are left out.
func pythonFiles(fsys *repofs.FS, dir string, fw *Framework) []string {
	var out []string
	level := []string{dir}
	for depth := 0; len(level) > 0 && depth <= maxDepth; depth++ {
		var next []string
		for _, d := range level {
			dirs, files := fsys.ListDir(d)
			for _, f := range files {
				if strings.HasSuffix(f, ".py") && !strings.HasPrefix(f, "test_") && f != "conftest.py" {
					if len(out) == MaxModules {
						fw.Problems = append(fw.Problems, fmt.Sprintf("only the first %d modules of the framework were read", MaxModules))
						return out
					}
					out = append(out, d+"/"+f)
				}
			}
			for _, sub := range dirs {
				if strings.HasPrefix(sub, ".") || sub == "__pycache__" || sub == "tests" {
					continue
				}
				next = append(next, d+"/"+sub)
			}
		}
		level = next
	}
	return out
}

// VirtualEnvFromEnvironment is $VIRTUAL_ENV, for Options.VirtualEnv.
func VirtualEnvFromEnvironment() string { return os.Getenv("VIRTUAL_ENV") }
