package configs

import (
	"fmt"
	"path"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/internal/repofs"
)

// ServerDirNotInstallable is rule GL402.
var ServerDirNotInstallable = &diag.Rule{
	Code: "GL402", Name: "server-dir-not-installable", Analyzer: "configs", Severity: diag.Error,
	Summary: "A config names a server directory that exists but ships no install marker (requirements.txt or pyproject.toml), or ships both.",
	Doc:     ruleDoc("GL402"),
}

// installMarkers are the files that make a directory a server for the
// supervisor.
var installMarkers = []string{"requirements.txt", "pyproject.toml"}

func runServerDirNotInstallable(v *gym.View) []diag.Diagnostic {
	r := newReporter(ServerDirNotInstallable)
	for _, in := range Instances(v) {
		if in.Override {
			continue
		}
		if !firstDirKey(in) {
			continue
		}
		dir, ok := repofs.Clean(path.Join(in.Inst.Type, in.Inst.Dir))
		// Whether it is a directory is not a dependency of the view: the
		// directories of the listing are the entrypoint map's.
		if !ok || !v.FS.IsDir(dir) {
			continue
		}
		var have []string
		for _, m := range installMarkers {
			if v.IsFile(dir + "/" + m) {
				have = append(have, m)
			}
		}
		if f, bad := CheckInstallMarkers(dir, where(in.Inst), have); bad {
			f.Pos, f.End = in.Inst.DirPos, in.Inst.DirPos
			r.add(in.File.Path, f)
		}
	}
	return r.out
}

// CheckInstallMarkers is GL402's test of a server directory that exists,
// given the install markers it ships; label names the instance. The caller
// sets the position.
func CheckInstallMarkers(dir, label string, have []string) (Finding, bool) {
	switch len(have) {
	case 0:
		return Finding{
			Message: fmt.Sprintf("server dir %s/ of %s has neither requirements.txt nor pyproject.toml, so the supervisor cannot set up its venv and the run fails at startup", shown(dir), label),
			Help:    "add a requirements.txt (or a pyproject.toml) listing the server's dependencies to " + shown(dir) + "/",
		}, true
	case 2:
		return Finding{
			Message: fmt.Sprintf("server dir %s/ of %s has both requirements.txt and pyproject.toml, which the supervisor refuses at startup", shown(dir), label),
			Help:    "keep one of the two install markers",
		}, true
	}
	return Finding{}, false
}

// firstDirKey reports whether the instance's dir is the first server
// directory key of its type mapping: the one the supervisor starts.
func firstDirKey(in Instance) bool {
	t := typeNode(in)
	if t == nil {
		return true
	}
	for _, p := range t.Pairs {
		if strings.HasPrefix(p.Key, "_") {
			continue
		}
		return p.Key == in.Inst.Dir
	}
	return true
}
