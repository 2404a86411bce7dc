package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/settings"
)

// Root is the repository root that a path belongs to, and what marks it.
type Root struct {
	// Dir is the root, absolute and clean.
	Dir string
	// Marker says what made Dir the root: ".gymlint.yaml",
	// "pyproject.toml [tool.gymlint]", "resources_servers/" (a server-type
	// folder with servers in it), "nemo_gym/" (the framework package);
	// "" when nothing marks a root and Dir is the directory given, and
	// "--root" when the caller chose it.
	Marker string
}

// maxMarkerSize bounds the pyproject.toml read to tell whether it has a
// [tool.gymlint] table.
const maxMarkerSize = 1 << 20

// FindRoot returns the root of the repository that path (a directory or a
// file) lies in: the nearest directory, path's own first, that holds
// .gymlint.yaml, a pyproject.toml with a [tool.gymlint] table, or the Gym
// layout (a server-type folder such as resources_servers/ with a server
// folder in it, or the framework package nemo_gym/ with its __init__.py).
// The search does not go above a directory that holds .git (the top of a
// checkout). When no directory on the way is marked, the root is path's
// own directory, as given. It fails when path does not exist.
func FindRoot(path string) (Root, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Root{}, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return Root{}, err
	}
	start := abs
	if !st.IsDir() {
		start = filepath.Dir(abs)
	}
	for d := start; ; {
		if m := marker(d); m != "" {
			return Root{Dir: d, Marker: m}, nil
		}
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			break
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return Root{Dir: start}, nil
}

// marker says what marks dir as a repository root, or "".
func marker(dir string) string {
	if isFile(filepath.Join(dir, settings.FileName)) {
		return settings.FileName
	}
	if data, ok := readSmall(filepath.Join(dir, settings.PyProject)); ok {
		if _, found, err := settings.ParseTOML(settings.PyProject, data); found || err != nil && bytes.Contains(data, []byte("[tool.gymlint")) {
			return settings.PyProject + " [tool.gymlint]"
		}
	}
	for _, t := range configscan.DefaultServerTypes {
		if hasServer(filepath.Join(dir, t)) {
			return t + "/"
		}
	}
	if isFile(filepath.Join(dir, contract.DefaultPackage, "__init__.py")) {
		return contract.DefaultPackage + "/"
	}
	return ""
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// hasServer reports whether dir is a directory with a folder in it that is
// not hidden (a server of its type).
func hasServer(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	for {
		es, err := f.ReadDir(64)
		for _, e := range es {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && !strings.HasPrefix(e.Name(), "_") {
				return true
			}
		}
		if err != nil {
			return false
		}
	}
}

// readSmall reads a regular file of at most maxMarkerSize bytes.
func readSmall(p string) ([]byte, bool) {
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxMarkerSize {
		return nil, false
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxMarkerSize))
	return data, err == nil
}

// ErrOutside is returned by Rel for a path outside the root.
var ErrOutside = errors.New("not inside the repository root")

// Rel returns path (relative to the current directory, or absolute) as a
// slash-separated path relative to the root: "." for the root itself.
func (r Root) Rel(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(r.Dir, abs)
	if err == nil && filepath.IsLocal(rel) || rel == "." {
		return filepath.ToSlash(rel), nil
	}
	// Through symbolic links: the root or the path may be reached by
	// another name.
	if realRoot, err1 := filepath.EvalSymlinks(r.Dir); err1 == nil {
		if realPath, err2 := filepath.EvalSymlinks(abs); err2 == nil {
			if rel, err := filepath.Rel(realRoot, realPath); err == nil && (filepath.IsLocal(rel) || rel == ".") {
				return filepath.ToSlash(rel), nil
			}
		}
	}
	return "", fmt.Errorf("%s: %w %s", path, ErrOutside, r.Dir)
}
