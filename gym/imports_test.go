package gym_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// closurePaths lists the paths of ImportClosure's records, each followed by
// the line of the import that reached it ("path<-from:line"), roots bare.
func closurePaths(recs []*gym.Imported) []string {
	var out []string
	for _, r := range recs {
		s := r.Path
		if r.By != nil {
			s += "<-" + r.By.Path + ":" + itoa(r.By.Module.Line(r.Import.Span.Start))
		}
		out = append(out, s)
	}
	return out
}

func wantClosure(t *testing.T, got []*gym.Imported, want ...string) {
	t.Helper()
	if g := closurePaths(got); !equalStrings(g, want) {
		t.Errorf("closure:\n  got  %s\n  want %s", strings.Join(g, "\n       "), strings.Join(want, "\n       "))
	}
}

func TestImportClosureTransitive(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/calc/app.py": `import numpy
import helpers
from resources_servers.calc.lib import core
from nemo_gym.server_utils import SimpleServer


def later():
    import lazy  # runs only when later() runs


class Calc:
    import classbody  # a class-body import is not followed either
`,
		"resources_servers/calc/helpers.py":      "X = 1\n",
		"resources_servers/calc/lazy.py":         "Y = 1\n",
		"resources_servers/calc/classbody.py":    "Z = 1\n",
		"resources_servers/calc/lib/__init__.py": "",
		"resources_servers/calc/lib/core.py":     "from .util import f\nfrom . import extra\n",
		"resources_servers/calc/lib/util.py":     "import resources_servers.calc.lib.core  # a cycle\n\n\ndef f():\n    pass\n",
		"resources_servers/calc/lib/extra.py":    "",
		// The framework is never followed, even into the repository.
		"nemo_gym/__init__.py":     "",
		"nemo_gym/server_utils.py": "import resources_servers.calc.helpers\n\n\nclass SimpleServer:\n    pass\n",
	})
	v := build(t, root, gym.Options{})
	m := module(t, v, "resources_servers/calc/app.py")
	got := v.ImportClosure(m)
	wantClosure(t, got,
		"resources_servers/calc/app.py",
		"resources_servers/calc/helpers.py<-resources_servers/calc/app.py:2",
		"resources_servers/calc/lib/__init__.py<-resources_servers/calc/app.py:3",
		"resources_servers/calc/lib/core.py<-resources_servers/calc/app.py:3",
		"resources_servers/calc/lib/util.py<-resources_servers/calc/lib/core.py:1",
		"resources_servers/calc/lib/extra.py<-resources_servers/calc/lib/core.py:2",
	)
	// Every record of a readable module carries it, and the chain of By
	// leads back to the root.
	for _, r := range got {
		if r.Module == nil || r.Err != nil {
			t.Errorf("%s: module %v, err %v", r.Path, r.Module, r.Err)
		}
	}
	last := got[len(got)-1]
	if last.By.By == nil || last.By.By.Path != "resources_servers/calc/app.py" {
		t.Errorf("chain of %s does not lead back to the root", last.Path)
	}
	// The same closure again parses nothing new.
	n := v.ParsedModules()
	v.ImportClosure(m)
	if v.ParsedModules() != n {
		t.Errorf("a second closure parsed %d more modules", v.ParsedModules()-n)
	}
	for _, p := range []string{"nemo_gym/server_utils.py", "resources_servers/calc/lazy.py", "resources_servers/calc/classbody.py"} {
		for _, r := range got {
			if r.Path == p {
				t.Errorf("%s should not be in the closure", p)
			}
		}
	}
}

func TestImportClosureMainGuardAndRoots(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/child/app.py": `from resources_servers.parent.app import ParentServer


class ChildServer(ParentServer):
    pass


if __name__ == "__main__":
    import script_only
    ChildServer.run_webserver()
`,
		"resources_servers/child/script_only.py": "",
		"resources_servers/parent/app.py": `from nemo_gym.base_resources_server import SimpleResourcesServer
import parent_helpers


class ParentServer(SimpleResourcesServer):
    pass


if __name__ == "__main__":
    import parent_script_only
    ParentServer.run_webserver()
`,
		"resources_servers/parent/parent_helpers.py":     "",
		"resources_servers/parent/parent_script_only.py": "",
	})
	v := build(t, root, gym.Options{})
	child := module(t, v, "resources_servers/child/app.py")
	parent := module(t, v, "resources_servers/parent/app.py")
	// The script's guard runs; the parent module's does not.
	wantClosure(t, v.ImportClosure(child),
		"resources_servers/child/app.py",
		"resources_servers/parent/app.py<-resources_servers/child/app.py:1",
		"resources_servers/child/script_only.py<-resources_servers/child/app.py:9",
		"resources_servers/parent/parent_helpers.py<-resources_servers/parent/app.py:2",
	)
	// A second root is loaded, not run: its guard is skipped too, and a
	// root listed twice, or reached by an import, appears once.
	wantClosure(t, v.ImportClosure(child, parent, child, nil),
		"resources_servers/child/app.py",
		"resources_servers/parent/app.py",
		"resources_servers/child/script_only.py<-resources_servers/child/app.py:9",
		"resources_servers/parent/parent_helpers.py<-resources_servers/parent/app.py:2",
	)
	// A framework root is skipped.
	fw := &pyscan.Module{Path: "nemo_gym/x.py", Name: "nemo_gym.x"}
	if got := v.ImportClosure(fw); len(got) != 0 {
		t.Errorf("framework root: %v", closurePaths(got))
	}
	if got := v.ImportClosure(); len(got) != 0 {
		t.Errorf("no roots: %v", closurePaths(got))
	}
}

func TestImportClosureSubmodulesAndUnreadable(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/pk/app.py": `from tools import sub, helper
from tools.deep import *
import broken
`,
		"resources_servers/pk/tools/__init__.py":      "def helper():\n    pass\n",
		"resources_servers/pk/tools/sub.py":           "",
		"resources_servers/pk/tools/helper_other.py":  "",
		"resources_servers/pk/tools/deep/__init__.py": "",
		"resources_servers/pk/tools/deep/hidden.py":   "",
		"resources_servers/pk/broken.py":              "x = '\x00'\n",
	})
	v := build(t, root, gym.Options{})
	got := v.ImportClosure(module(t, v, "resources_servers/pk/app.py"))
	wantClosure(t, got,
		"resources_servers/pk/app.py",
		"resources_servers/pk/tools/__init__.py<-resources_servers/pk/app.py:1",
		"resources_servers/pk/tools/sub.py<-resources_servers/pk/app.py:1",
		"resources_servers/pk/tools/deep/__init__.py<-resources_servers/pk/app.py:2",
		"resources_servers/pk/broken.py<-resources_servers/pk/app.py:3",
	)
	b := got[len(got)-1]
	if b.Module != nil || b.Err == nil {
		t.Errorf("unreadable module: module %v, err %v", b.Module, b.Err)
	}
	findDiag(t, v, "GL002", "resources_servers/pk/broken.py")
}

func TestImportFilesRelative(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"pkg/__init__.py":        "",
		"pkg/a/__init__.py":      "",
		"pkg/a/mod.py":           "from ..b.c import d\nfrom . import mod\n",
		"pkg/b/__init__.py":      "",
		"pkg/b/c/__init__.py":    "",
		"pkg/b/c/d.py":           "",
		"nemo_gym/__init__.py":   "",
		"nemo_gym/base.py":       "",
		"resources_servers/x.py": "import nemo_gym.base\nfrom nemo_gym import base\n",
	})
	v := build(t, root, gym.Options{})
	m := module(t, v, "pkg/a/mod.py")
	if got := v.ImportFiles(m, m.Imports[0]); !equalStrings(got, []string{"pkg/__init__.py", "pkg/b/__init__.py", "pkg/b/c/__init__.py", "pkg/b/c/d.py"}) {
		t.Errorf("from ..b.c import d: %v", got)
	}
	if got := v.ImportFiles(m, m.Imports[1]); !equalStrings(got, []string{"pkg/a/__init__.py", "pkg/a/mod.py"}) {
		t.Errorf("from . import mod: %v", got)
	}
	x := module(t, v, "resources_servers/x.py")
	for _, imp := range x.Imports {
		if got := v.ImportFiles(x, imp); len(got) != 0 {
			t.Errorf("framework import %s: %v", imp.Module, got)
		}
	}
}

func TestImportGraphSharedAcrossClosures(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/a/app.py":       "import shared\nimport only_a\n",
		"resources_servers/a/shared.py":    "import resources_servers.common.util\n",
		"resources_servers/a/only_a.py":    "",
		"resources_servers/b/app.py":       "from resources_servers.a import shared\n",
		"resources_servers/common/util.py": "",
	})
	v := build(t, root, gym.Options{})
	a := module(t, v, "resources_servers/a/app.py")
	b := module(t, v, "resources_servers/b/app.py")
	g := v.NewImportGraph()
	want := map[*pyscan.Module][]string{
		a: closurePaths(v.ImportClosure(a)),
		b: closurePaths(v.ImportClosure(b)),
	}
	if !equalStrings(want[b], []string{
		"resources_servers/b/app.py",
		"resources_servers/a/shared.py<-resources_servers/b/app.py:1",
		"resources_servers/common/util.py<-resources_servers/a/shared.py:1",
	}) {
		t.Errorf("closure of b: %v", want[b])
	}
	// The same answers from one graph, in any order, from several goroutines.
	done := make(chan bool)
	for i := 0; i < 4; i++ {
		go func(i int) {
			m := a
			if i%2 == 1 {
				m = b
			}
			done <- equalStrings(closurePaths(g.Closure(m)), want[m])
		}(i)
	}
	for i := 0; i < 4; i++ {
		if !<-done {
			t.Error("a shared graph gave a different closure")
		}
	}
}

func TestSharedComputesOncePerView(t *testing.T) {
	type key struct{}
	v, err := gym.Build(t.TempDir(), gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	calls := 0
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v.Shared(key{}, func() any { calls++; return 42 })
		}()
	}
	wg.Wait()
	if calls != 1 || v.Shared(key{}, func() any { return 0 }) != 42 {
		t.Errorf("computed %d times", calls)
	}
}
