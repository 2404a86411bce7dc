package rayenabled

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/gym"
)

// searchKey is what a search says about a server, complete left out: the
// use, the module record it is in and how the entrypoint reaches it.
func searchKey(s search) string {
	if s.use == nil {
		return "none"
	}
	k := fmt.Sprintf("%s:%d %s", s.use.path, s.use.start.Line, s.use.what)
	for r := s.rec; r != nil; r = r.By {
		k += " < " + r.Path
	}
	return k
}

// searchesAgree compares, for every server of v, the search that may stop
// at the roots with the one that reads the whole closure, each by a
// scanner of its own; it returns how many searches stopped at the roots,
// with a use and without.
func searchesAgree(t *testing.T, name string, v *gym.View) (withUse, without int) {
	t.Helper()
	full, pre := newScanner(v), newScanner(v)
	for _, sv := range declsOf(v).list {
		want := full.search(sv.e.Module, sv.s.Class, true)
		got := pre.search(sv.e.Module, sv.s.Class, false)
		if gk, wk := searchKey(got), searchKey(want); gk != wk {
			t.Errorf("%s: %s, server %s: the search stopping at the roots finds %s; the whole closure %s",
				name, sv.e.Path, sv.s.Class.Class.Name, gk, wk)
		}
		if fmt.Sprint(got.ancestor) != fmt.Sprint(want.ancestor) {
			t.Errorf("%s: %s: ancestors %v, want %v", name, sv.e.Path, got.ancestor, want.ancestor)
		}
		if want.complete && !got.complete { // stopped at the roots
			if got.use != nil {
				withUse++
			} else {
				without++
			}
		}
	}
	return withUse, without
}

// TestBeyondRootsAgreesWithTheClosure: on the rayenabled cases, the
// rayrepo fixture and any repository named by GYMLINT_EQUIV_REPO (the
// real NeMo Gym, a generated one), a search that stops at the roots when
// beyondRoots allows it finds what the search of the whole import closure
// finds, for every server; and the cases make it stop at the roots both
// with a use in a root and without any.
func TestBeyondRootsAgreesWithTheClosure(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "src", "*"))
	if err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, filepath.Join("..", "..", "testdata", "rayrepo"))
	if d := os.Getenv("GYMLINT_EQUIV_REPO"); d != "" {
		dirs = append(dirs, d)
	}
	withUse, without := 0, 0
	for _, dir := range dirs {
		v, err := gym.Build(dir, gym.Options{})
		if err != nil {
			t.Fatal(err)
		}
		w, wo := searchesAgree(t, dir, v)
		withUse, without = withUse+w, without+wo
		v.Close()
	}
	t.Logf("stopped at the roots: %d with a use, %d without", withUse, without)
	if withUse == 0 || without == 0 {
		t.Errorf("stopped at the roots %d times with a use, %d without: the cases do not exercise beyondRoots", withUse, without)
	}
}

// TestBeyondRoots pins when a search stops at the roots, and that it then
// parses none of the modules beyond them.
func TestBeyondRoots(t *testing.T) {
	const helper = "resources_servers/srv/helper.py"
	for _, c := range []struct {
		name   string
		header string // the entrypoint's imports
		files  map[string]string
		stops  bool
		use    string // searchKey of the search
		app    string // the entrypoint, when not server(header, "")
	}{
		{"helper without Ray", "from resources_servers.srv.helper import clean\n",
			map[string]string{helper: "import json\n\n\ndef clean(x):\n    return json.dumps(x)\n"}, true, "none", ""},
		{"array is no word ray", "from resources_servers.srv.helper import clean\n",
			map[string]string{helper: "import array\n\n\ndef clean(x):\n    return array.array('b', x)  # a bytearray\n"}, true, "none", ""},
		{"use in the entrypoint", "import ray\nfrom resources_servers.srv.helper import clean\n",
			map[string]string{helper: "def clean(x):\n    return x\n"}, true, app + ":4 imports ray < " + app, ""},
		{"helper imports ray", "from resources_servers.srv.helper import clean\n",
			map[string]string{helper: "import ray\n\n\ndef clean(x):\n    return x\n"}, false, helper + ":1 imports ray < " + helper + " < " + app, ""},
		{"ray in a comment of a helper", "from resources_servers.srv.helper import clean\n",
			map[string]string{helper: "# no ray here\ndef clean(x):\n    return x\n"}, false, "none", ""},
		{"helper imports the framework", "from resources_servers.srv.helper import get\n",
			map[string]string{helper: "from nemo_gym.server_utils import ray\n\nget = ray.get\n"}, false, app + ":4 imports get from resources_servers.srv.helper, which is ray.get < " + app, ""},
		{"deeper helper imports ray", "from resources_servers.srv.helper import clean\n",
			map[string]string{helper: "from resources_servers.srv.deep import clean\n", "resources_servers/srv/deep.py": "import ray\n\n\ndef clean(x):\n    return x\n"},
			false, "resources_servers/srv/deep.py:1 imports ray < resources_servers/srv/deep.py < " + helper + " < " + app, ""},
		{"helper imports the entrypoint back", "import ray as _r\nfrom resources_servers.srv.helper import clean\n",
			map[string]string{helper: "from resources_servers.srv.app import _r\n\nclean = _r.get\n"}, false, app + ":4 imports ray < " + app, ""},
		// The framework, in the repository, passes on a Ray object under
		// another name: the helper holds no word ray, but the framework's
		// name.
		{"helper imports ray from the framework", "from resources_servers.srv.helper import fetch\n", map[string]string{
			"nemo_gym/__init__.py":              "",
			"nemo_gym/base_resources_server.py": "class SimpleResourcesServer:\n    pass\n",
			"nemo_gym/utils.py":                 "from ray import get as fetch\n",
			helper:                              "from nemo_gym.utils import fetch\n",
		}, false, app + ":4 imports fetch from resources_servers.srv.helper, which is ray.get < " + app, ""},
		// The ancestor's module binds x to ray.get in its __main__ guard,
		// which is no use of its own (it runs only as the script); the
		// helper, which holds no word ray, passes it on.
		{"helper imports an ancestor's module", "", map[string]string{
			"resources_servers/srv/base.py": "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\nclass Base(SimpleResourcesServer):\n    pass\n\n\nif __name__ == \"__main__\":\n    from ray import get as x\n",
			helper:                          "from resources_servers.srv.base import x\n",
		}, false, app + ":5 imports x from resources_servers.srv.helper, which is ray.get < " + app,
			srs + "from resources_servers.srv.base import Base\nfrom resources_servers.srv.helper import x\n\n\nclass Srv(Base):\n    pass\n" + strings.Replace(guard, "%s", "Srv", 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{app: server(c.header, "")}
			if c.app != "" {
				files[app] = c.app
			}
			for p, s := range c.files {
				files[p] = s
			}
			v := build(t, files, gym.Options{})
			sv := declsOf(v).list[0]
			before := v.ParsedModules()
			sc := newScanner(v)
			got := sc.search(sv.e.Module, sv.s.Class, false)
			parsed := v.ParsedModules() - before
			if stopped := !got.complete; stopped != c.stops {
				t.Errorf("stopped at the roots: %v, want %v", stopped, c.stops)
			}
			if k := searchKey(got); k != c.use {
				t.Errorf("search finds %q, want %q", k, c.use)
			}
			if c.stops && parsed != 0 {
				t.Errorf("the search stopped at the roots but parsed %d modules", parsed)
			}
			if !c.stops && parsed == 0 {
				t.Errorf("the search read the closure but parsed no module")
			}
			// Asked to find out whether it read everything (GL205), it
			// reads the closure, and finds the same.
			if all := newScanner(v).search(sv.e.Module, sv.s.Class, true); !all.complete || searchKey(all) != c.use {
				t.Errorf("the whole search: complete %v, %q", all.complete, searchKey(all))
			}
			if c.stops && !strings.Contains(strings.Join(keys(sc), " "), helper) {
				t.Errorf("the helper was not remembered as clean: %v", keys(sc))
			}
		})
	}
}

// keys lists the files a scanner remembers as clean.
func keys(s *scanner) []string {
	var out []string
	s.clean.Range(func(k, _ any) bool {
		out = append(out, k.(string))
		return true
	})
	return out
}
