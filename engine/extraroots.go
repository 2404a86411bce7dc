package engine

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// EnvExtraRoots is the environment variable of the supervisor's extra
// roots: directories separated by os.PathListSeparator (":" on Unix),
// empty entries skipped, relative ones taken from the working directory.
const EnvExtraRoots = "NEMO_GYM_EXTRA_ROOTS"

// SplitExtraRoots splits a NEMO_GYM_EXTRA_ROOTS value as the supervisor
// does (os.pathsep, empty entries left out) and makes each entry absolute
// from the working directory.
func SplitExtraRoots(value string) []string {
	var out []string
	for _, d := range strings.Split(value, string(os.PathListSeparator)) {
		if d == "" {
			continue
		}
		if abs, err := filepath.Abs(d); err == nil {
			out = append(out, abs)
		}
	}
	return out
}

// extraRoots are the view's extra roots: the user's (absolute, as given),
// then the configuration's, which must stay inside the root once links are
// resolved: a repository may not make gymlint read outside itself.
func extraRoots(root string, user, conf []string) ([]string, error) {
	out := append([]string(nil), user...)
	if len(conf) == 0 {
		return out, nil
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	for _, c := range conf {
		dir := filepath.Join(root, filepath.FromSlash(c))
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			continue // not there: the supervisor skips it too
		}
		if rel, err := filepath.Rel(realRoot, real); err != nil || !filepath.IsLocal(rel) && rel != "." {
			return nil, fmt.Errorf("extra_roots: %s leads outside the repository (through a symbolic link); a root outside it is given with --extra-root or %s", c, EnvExtraRoots)
		}
		out = append(out, dir)
	}
	return out, nil
}

// installRoot is the framework's install root when it is a separate
// install (a framework_path or a virtual environment): the directory that
// holds the package, where a wheel install keeps the built-in servers.
// "" for a framework in the repository (its install root is the root).
func installRoot(root string, fw *contract.Framework) string {
	if fw == nil || !fw.Found || fw.Where == contract.InRepository || fw.Dir == "" {
		return ""
	}
	if filepath.IsAbs(fw.Dir) {
		return filepath.Dir(fw.Dir)
	}
	return filepath.Join(root, filepath.FromSlash(path.Dir(fw.Dir)))
}

// dropExtra leaves out the findings in files of extra roots outside the
// root (paths "<name>/..."), unless asked for (--include-extra-roots).
func dropExtra(ds []diag.Diagnostic) []diag.Diagnostic {
	out := ds[:0:0]
	for _, d := range ds {
		if !gym.InExtraRoot(d.Path) {
			out = append(out, d)
		}
	}
	return out
}

// noExtraFixes drops the fixes that would edit a file of an extra root
// outside the root: gymlint writes only in the root (--fix), and an extra
// root is read-only input.
func noExtraFixes(ds []diag.Diagnostic) []diag.Diagnostic {
	cloned := false
	for i := range ds {
		if len(ds[i].Fixes) == 0 {
			continue
		}
		d := ds[i]
		var keep []diag.Fix
		for _, f := range d.Fixes {
			ok := true
			for _, ed := range f.Edits {
				if gym.InExtraRoot(ed.Path) {
					ok = false
					break
				}
			}
			if ok {
				keep = append(keep, f)
			}
		}
		if len(keep) != len(d.Fixes) {
			if !cloned { // ds may be a session's own: not changed in place
				ds, cloned = slices.Clone(ds), true
			}
			ds[i].Fixes = keep
		}
	}
	return ds
}
