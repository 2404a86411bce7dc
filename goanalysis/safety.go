package goanalysis

import (
	"errors"
	"fmt"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/internal/repofs"
)

// Before a module is loaded, the files that the go command and the type
// checker would read are checked with the rules that the Python side reads
// files by (package repofs): a regular file inside the root, not larger
// than the size cap. The go command opens every Go, C, assembly, ... file
// of each package directory it visits (to read its build constraints and
// imports); a named pipe there blocks it forever, a device can feed it
// without end, and a symbolic link out of the root makes it (and the
// parser, and the messages that quote it) read a file of the machine. A
// module with such a file is not loaded at all: loading it without the file
// is not possible (the go command visits every directory an import names,
// and `./...` cannot leave one out) and would not be honest either (the
// package would be checked without one of its files).

// sourceExts are the file name extensions that the go command opens in a
// package directory (go/build's fileListForExt, and .go); .syso files are
// listed but not read.
var sourceExts = map[string]bool{
	".go": true, ".c": true, ".cc": true, ".cpp": true, ".cxx": true, ".m": true,
	".h": true, ".hh": true, ".hpp": true, ".hxx": true, ".f": true, ".F": true, ".for": true, ".f90": true,
	".s": true, ".S": true, ".sx": true, ".swig": true, ".swigcxx": true,
}

// readWhole are the names of the files that are read whole, by the go
// command (go.mod, go.sum, vendor/modules.txt) or by the type checker in
// this process (.go files): they are held to the size cap.
func readWhole(name string) bool {
	return strings.HasSuffix(name, ".go") || name == "go.mod" || name == "go.sum" || name == "modules.txt"
}

// maxProblems is how many unsafe files of one module are reported; the
// last one says how many more there are.
const maxProblems = 20

// problem is a file that stops a module from loading.
type problem struct {
	path string   // root-relative
	pos  diag.Pos // in path; line 1 column 1 unless a go.mod line
	what string   // "is a named pipe, not a regular file", ...
}

// cgoPackage is a package directory with files that use cgo: they are not
// loaded (CGO_ENABLED=0).
type cgoPackage struct {
	dir   string   // absolute
	files []string // root-relative, sorted
	pos   diag.Pos // of `import "C"` in files[0]
}

// moduleCheck is what checking a module's files before loading found.
type moduleCheck struct {
	problems []problem
	more     int // problems not listed
	vendor   bool
	cgo      []cgoPackage
}

// checkModule checks the files of module mod (root-relative) that loading
// it would read: the module's directory tree, outside hidden directories
// and nested modules, and the directories its go.mod replaces modules with.
// overlay holds the root-relative paths read from an editor's buffers
// instead of the disk.
func (c *converter) checkModule(mod string, maxSize int64, overlay map[string][]byte) moduleCheck {
	var mc moduleCheck
	report := func(p problem) {
		if len(mc.problems) < maxProblems {
			mc.problems = append(mc.problems, p)
		} else {
			mc.more++
		}
	}
	dir := filepath.Join(c.root.real, filepath.FromSlash(mod))
	gomodRel := path.Join(mod, "go.mod")
	fsys, err := repofs.New(c.root.real, repofs.Options{MaxFileSize: maxSize})
	if err != nil {
		report(problem{path: gomodRel, pos: diag.Pos{Line: 1, Col: 1}, what: "cannot be read: " + err.Error()})
		return mc
	}
	st, why := goModFile(fsys, gomodRel)
	if why != "" {
		report(problem{path: gomodRel, pos: diag.Pos{Line: 1, Col: 1}, what: why})
		return mc
	}
	if st.Size() > maxSize {
		report(problem{path: gomodRel, pos: diag.Pos{Line: 1, Col: 1}, what: fmt.Sprintf("is larger than the size limit (%d bytes)", maxSize)})
		return mc
	}
	if st, err := os.Lstat(filepath.Join(dir, "vendor", "modules.txt")); err == nil && st.Mode().IsRegular() {
		mc.vendor = true
	}
	w := &safetyWalk{c: c, fsys: fsys, maxSize: maxSize, overlay: overlay, report: report, visited: map[string]bool{}}
	w.walk(dir, true)
	// The directories that go.mod replaces modules with are read too. (A
	// go.mod that does not parse is go list's to report.)
	if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
		if f, err := modfile.Parse(gomodRel, data, nil); err == nil {
			for _, r := range f.Replace {
				if r.New.Version != "" || !modfile.IsDirectoryPath(r.New.Path) {
					continue
				}
				target := filepath.FromSlash(r.New.Path)
				if !filepath.IsAbs(target) {
					target = filepath.Join(dir, target)
				}
				pos := diag.Pos{Line: 1, Col: 1}
				if r.Syntax != nil {
					pos = diag.Pos{Offset: r.Syntax.Start.Byte, Line: r.Syntax.Start.Line, Col: r.Syntax.Start.LineRune}
				}
				real, err := filepath.EvalSymlinks(target)
				if err != nil {
					real = filepath.Clean(target) // go list reports a missing directory
				}
				if !within(c.root.real, real) {
					report(problem{path: gomodRel, pos: pos, what: fmt.Sprintf("replaces %s with %s, a directory outside the repository root", r.Old.Path, r.New.Path)})
					continue
				}
				if err == nil {
					w.walk(real, true)
				}
			}
		}
	}
	if len(mc.problems) == 0 {
		mc.cgo = w.cgoPackages()
	}
	return mc
}

// goModFile checks a module's go.mod (root-relative) as the Python side's
// reads are checked (repofs.FS.Stat): a regular file, or a symbolic link
// whose target, followed by the link's text, is a regular file inside the
// root. It returns the file's (the target's) FileInfo, or why the module
// is not loaded. A link out of the root is refused from its text alone:
// nothing outside the root is looked at, so the message is the same
// whether or not its target exists.
func goModFile(fsys *repofs.FS, rel string) (fs.FileInfo, string) {
	abs := filepath.Join(fsys.Root(), filepath.FromSlash(rel))
	lst, err := os.Lstat(abs)
	if err != nil {
		return nil, "cannot be read: " + bareError(err)
	}
	link := lst.Mode()&fs.ModeSymlink != 0
	if !link {
		if !lst.Mode().IsRegular() {
			return nil, "is " + kind(lst.Mode().Type()) + ", not a regular file"
		}
		return lst, ""
	}
	switch err := fsys.Stat(rel); {
	case err == nil:
	case errors.Is(err, repofs.ErrOutsideRoot):
		return nil, "is a symbolic link that leads out of the repository root"
	case errors.Is(err, repofs.ErrNotExist):
		return nil, "is a symbolic link to a file that does not exist"
	case errors.Is(err, repofs.ErrSymlinkLoop):
		return nil, "is a symbolic link in a loop of links"
	case errors.Is(err, repofs.ErrNotRegular):
		// The target is inside the root: say what it is.
		if st, err := os.Stat(abs); err == nil && st.IsDir() {
			return nil, "is a symbolic link to a directory, not a regular file"
		} else if err == nil {
			return nil, "is a symbolic link to " + kind(st.Mode().Type()) + ", not a regular file"
		}
		return nil, "is a symbolic link to something that is not a regular file"
	default:
		return nil, "is a symbolic link whose target cannot be read: " + bareError(err)
	}
	st, err := os.Stat(abs) // a regular file inside the root
	if err != nil || !st.Mode().IsRegular() {
		return nil, "is a symbolic link whose target cannot be read"
	}
	return st, ""
}

// bareError is the text of err without the absolute path that the os
// package's errors carry ("permission denied"), or, for a repofs error,
// without its root-relative path.
func bareError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var re *repofs.PathError
	if errors.As(err, &re) {
		return re.Err.Error()
	}
	return err.Error()
}

// nestedModule reports whether the directory dir (a real path inside the
// root) is the root of a module of its own, which `./...` of the module
// that holds it leaves out: as the go command decides (os.Stat of its
// go.mod succeeds and is not a directory), without looking outside the
// root. A go.mod that is a symbolic link out of the root counts as no
// module boundary, so that the directory's files are checked with the
// module that holds it (the go command, which follows the link, may or may
// not load them with it).
func (w *safetyWalk) nestedModule(dir string) bool {
	gomod := filepath.Join(dir, "go.mod")
	lst, err := os.Lstat(gomod)
	if err != nil {
		return false
	}
	if lst.Mode()&fs.ModeSymlink == 0 {
		return !lst.IsDir()
	}
	rel, ok := w.c.root.rel(gomod)
	if !ok {
		return false
	}
	switch err := w.fsys.Stat(rel); {
	case err == nil:
		return true
	case errors.Is(err, repofs.ErrNotRegular):
		st, err := os.Stat(gomod) // inside the root
		return err == nil && !st.IsDir()
	}
	return false // dangling, a loop, or out of the root
}

// safetyWalk walks the directories a module load reads.
type safetyWalk struct {
	c       *converter
	fsys    *repofs.FS // the root, for the links of go.mod files
	maxSize int64
	overlay map[string][]byte // by root-relative path
	report  func(problem)
	visited map[string]bool // real directories walked
	srcDirs []string        // real directories with .go files, in the packages' tree
}

// walk checks the tree at dir (a real path inside the root). inTree says
// whether dir is in the tree of packages that `./...` loads (not under a
// testdata directory or one whose name starts with "_").
func (w *safetyWalk) walk(dir string, inTree bool) {
	if w.visited[dir] {
		return
	}
	w.visited[dir] = true
	entries, err := os.ReadDir(dir)
	if err != nil {
		return // go list reports a directory it cannot read
	}
	hasGo := false
	for _, e := range entries {
		name := e.Name()
		full := filepath.Join(dir, name)
		rel, _ := w.c.root.rel(full)
		if _, ok := w.overlay[rel]; ok {
			hasGo = hasGo || strings.HasSuffix(name, ".go")
			continue // read from the editor's buffer
		}
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			// Where the link leads is decided from its text (repofs), so
			// nothing outside the root is looked at: a link out of the
			// root is refused with one message whether its target is a
			// file, a directory or nothing, since the go command may read
			// it (a file by its name, a directory through an import).
			switch err := w.fsys.Stat(rel); {
			case errors.Is(err, repofs.ErrOutsideRoot):
				w.report(problem{path: rel, pos: diag.Pos{Line: 1, Col: 1}, what: "is a symbolic link that leads out of the repository root"})
				continue
			case errors.Is(err, repofs.ErrNotExist), errors.Is(err, repofs.ErrSymlinkLoop):
				continue // a dangling link or a loop: the go command skips or reports it
			}
			real, err := filepath.EvalSymlinks(full) // inside the root
			if err != nil || !within(w.c.root.real, real) {
				continue
			}
			st, err := os.Stat(real)
			if err != nil {
				continue
			}
			if st.IsDir() {
				if !strings.HasPrefix(name, ".") {
					w.walk(real, inTree && descends(name))
				}
				continue
			}
			mode = st.Mode().Type()
			if mode.IsRegular() {
				if w.fileOK(rel, name, st.Size()) && strings.HasSuffix(name, ".go") {
					hasGo = true
				}
				continue
			}
		}
		if e.IsDir() {
			if strings.HasPrefix(name, ".") {
				continue // not an import path element; .git can be large
			}
			if w.nestedModule(full) {
				continue // a nested module: checked when it is loaded
			}
			w.walk(full, inTree && descends(name))
			continue
		}
		if !sourceExts[filepath.Ext(name)] && !readWhole(name) {
			continue // the go command does not open it
		}
		if mode.IsRegular() {
			size := int64(0)
			if info, err := e.Info(); err == nil {
				size = info.Size()
			}
			if w.fileOK(rel, name, size) && strings.HasSuffix(name, ".go") {
				hasGo = true
			}
			continue
		}
		w.report(problem{path: rel, pos: diag.Pos{Line: 1, Col: 1}, what: "is " + kind(mode) + ", not a regular file"})
	}
	if hasGo && inTree {
		w.srcDirs = append(w.srcDirs, dir)
	}
}

// descends reports whether a directory called name is in the tree of
// packages that `./...` matches.
func descends(name string) bool {
	return name != "testdata" && !strings.HasPrefix(name, "_") && name != "vendor"
}

// fileOK checks the size of a regular file the load reads.
func (w *safetyWalk) fileOK(rel, name string, size int64) bool {
	if readWhole(name) && size > w.maxSize {
		w.report(problem{path: rel, pos: diag.Pos{Line: 1, Col: 1}, what: fmt.Sprintf("is larger than the size limit (%d bytes)", w.maxSize)})
		return false
	}
	return true
}

// kind names a file type that is not a regular file.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// within reports whether the absolute path p is root or inside it.
func within(root, p string) bool {
	if p == root {
		return true
	}
	return strings.HasPrefix(p, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

// cgoPackages finds, in the package directories walked, the files that
// would be built with cgo: Go files that import "C" and match the build
// context when cgo is enabled. They are not loaded (CGO_ENABLED=0), so
// they are reported as not analyzed. The directories' files have been
// checked (regular, inside the root, capped); go/build reads only their
// headers and runs nothing for a directory import.
func (w *safetyWalk) cgoPackages() []cgoPackage {
	ctxt := build.Default
	ctxt.CgoEnabled = true
	var out []cgoPackage
	sort.Strings(w.srcDirs)
	for _, dir := range w.srcDirs {
		p, err := ctxt.ImportDir(dir, build.IgnoreVendor)
		if err != nil && p == nil {
			continue
		}
		files := p.CgoFiles // (cgo in a _test.go file is an error of the go command)
		if len(files) == 0 {
			continue
		}
		cp := cgoPackage{dir: dir}
		for _, f := range files {
			rel, _ := w.c.root.rel(filepath.Join(dir, f))
			cp.files = append(cp.files, rel)
		}
		sort.Strings(cp.files)
		cp.pos = importCPos(filepath.Join(dir, path.Base(cp.files[0])))
		out = append(out, cp)
	}
	return out
}

// importCPos is the position of `import "C"` in a Go file (checked before:
// regular, inside the root, capped), or line 1 column 1.
func importCPos(file string) diag.Pos {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.ImportsOnly)
	if err != nil || f == nil {
		return diag.Pos{Line: 1, Col: 1}
	}
	for _, imp := range f.Imports {
		if s, err := strconv.Unquote(imp.Path.Value); err == nil && s == "C" {
			p := fset.Position(imp.Pos())
			return diag.Pos{Offset: p.Offset, Line: p.Line, Col: p.Column}
		}
	}
	return diag.Pos{Line: 1, Col: 1}
}

// packageDir is the root-relative directory of a loaded package's files,
// or "" when it has none.
func (c *converter) packageDir(p *packages.Package) string {
	files := p.GoFiles
	if len(files) == 0 {
		files = p.IgnoredFiles
	}
	if len(files) == 0 {
		return ""
	}
	rel, ok := c.root.rel(filepath.Dir(files[0]))
	if !ok {
		return ""
	}
	return rel
}

// cgoNotes reports, once per package, the files left out because they use
// cgo, and returns the root-relative directories of those packages: their
// type errors follow from the files left out and are not reported one by
// one.
func (c *converter) cgoNotes(mod string, cgo []cgoPackage, pkgs []*packages.Package) map[string]bool {
	if len(cgo) == 0 {
		return nil
	}
	byDir := map[string]*packages.Package{}
	for _, p := range pkgs {
		if d := c.packageDir(p); d != "" && byDir[d] == nil {
			byDir[d] = p
		}
	}
	dirs := map[string]bool{}
	for _, cp := range cgo {
		rel, _ := c.root.rel(cp.dir)
		dirs[rel] = true
		names := make([]string, 0, len(cp.files))
		for _, f := range cp.files {
			names = append(names, path.Base(f))
		}
		list := strings.Join(names, ", ")
		if len(names) > 3 {
			list = fmt.Sprintf("%s and %d more files", strings.Join(names[:3], ", "), len(names)-3)
		}
		verb, them := "is not analyzed: it uses", "it"
		if len(names) > 1 {
			verb, them = "are not analyzed: they use", "them"
		}
		name, rest := "in "+rel, "the package has no other file, so it is not analyzed"
		if p := byDir[rel]; p != nil && len(p.GoFiles) > 0 {
			name = p.PkgPath
			switch {
			case p.IllTyped || len(p.Errors) > 0:
				rest = "without " + them + " the package does not type-check, so it is not analyzed"
			default:
				rest = "the package's other files are analyzed"
			}
		}
		c.add(core.GoLoadError.New(cp.files[0], cp.pos, cp.pos, fmt.Sprintf(
			"Go package %s: %s %s cgo (import \"C\"), and gymlint loads Go code with CGO_ENABLED=0 so that no C compiler or pkg-config runs on the repository; %s",
			name, list, verb, rest)))
	}
	return dirs
}
