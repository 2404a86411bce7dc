//go:build ignore

package rayenabled

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// Each case is a small repository given as an overlay (nothing is written
// to disk) and the findings of the five rules expected in it, as "CODE
// path:line:col" plus fragments the message must contain. The fixture
// repository testdata/rayrepo covers the shapes end to end; these pin each
// decision, and the look-alikes that must not be reported, one at a time.

const srs = "from typing import ClassVar\n\nfrom nemo_gym.base_resources_server import SimpleResourcesServer\n"

const guard = "\n\nif __name__ == \"__main__\":\n    %s.run_webserver()\n"

// server returns an entrypoint: header lines, then a server class Srv with
// body, then the __main__ guard. The class name is on line
// len(header lines) + 6 (srs is 3 lines, then 2 blank).
func server(header, body string) string {
	if body == "" {
		body = "    pass\n"
	}
	return srs + header + "\n\nclass Srv(SimpleResourcesServer):\n" + body + strings.Replace(guard, "%s", "Srv", 1)
}

const app = "resources_servers/srv/app.py"

// frameworkInRepo is a mini framework package inside the repository whose
// BaseServer declares the ClassVar, and which itself uses Ray (which must
// never count for a server).
var frameworkInRepo = map[string]string{
	"nemo_gym/__init__.py": "",
	"nemo_gym/server_utils.py": "from typing import ClassVar\n\nimport ray\nfrom pydantic import BaseModel\n\n\n" +
		"class BaseServer(BaseModel):\n    ray_enabled: ClassVar[bool] = False\n\n\n" +
		"class SimpleServer(BaseServer):\n    @classmethod\n    def run_webserver(cls):\n        ray.init()\n",
	"nemo_gym/base_resources_server.py": "from nemo_gym.server_utils import BaseServer, SimpleServer\n\n\n" +
		"class BaseResourcesServer(BaseServer):\n    pass\n\n\n" +
		"class SimpleResourcesServer(BaseResourcesServer, SimpleServer):\n    pass\n",
}

// frameworkNoClassVar is the same framework without the declaration.
var frameworkNoClassVar = map[string]string{
	"nemo_gym/__init__.py": "",
	"nemo_gym/server_utils.py": "from pydantic import BaseModel\n\n\nclass BaseServer(BaseModel):\n    pass\n\n\n" +
		"class SimpleServer(BaseServer):\n    pass\n",
	"nemo_gym/base_resources_server.py": frameworkInRepo["nemo_gym/base_resources_server.py"],
}

func with(base map[string]string, files map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range files {
		out[k] = v
	}
	return out
}

type finding struct {
	at       string   // "CODE path:line:col"
	contains []string // message fragments
	related  []string // related "path:line", in order
}

func build(t *testing.T, files map[string]string, opts gym.Options) *gym.View {
	t.Helper()
	overlay := map[string][]byte{}
	for p, c := range files {
		overlay[p] = []byte(c)
	}
	opts.Overlay = overlay
	v, err := gym.Build(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return v
}

func scan(t *testing.T, files map[string]string) []diag.Diagnostic {
	t.Helper()
	v := build(t, files, gym.Options{})
	var ds []diag.Diagnostic
	for _, c := range Checks {
		for _, d := range c.Run(v) {
			if d.Code != c.Rule.Code || d.Rule != c.Rule.Name || d.Analyzer != "rayenabled" || d.Severity != c.Rule.Severity {
				t.Errorf("metadata of %s: %+v", c.Rule.Code, d)
			}
			ds = append(ds, d)
		}
	}
	diag.Sort(ds)
	return ds
}

func at(d diag.Diagnostic) string {
	return d.Code + " " + d.Path + ":" + itoa(d.Start.Line) + ":" + itoa(d.Start.Col)
}

func itoa(i int) string { return strconv.Itoa(i) }

type tcase struct {
	name  string
	files map[string]string
	want  []finding
}

func runCases(t *testing.T, cases []tcase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds := scan(t, tc.files)
			if len(ds) != len(tc.want) {
				var got []string
				for _, d := range ds {
					got = append(got, at(d)+" "+d.Message)
				}
				t.Fatalf("got %d findings, want %d:\n%s", len(ds), len(tc.want), strings.Join(got, "\n"))
			}
			for i, w := range tc.want {
				d := ds[i]
				if at(d) != w.at {
					t.Errorf("finding %d at %s, want %s (%s)", i, at(d), w.at, d.Message)
				}
				for _, frag := range w.contains {
					if !strings.Contains(d.Message, frag) {
						t.Errorf("%s: message %q lacks %q", w.at, d.Message, frag)
					}
				}
				if w.related != nil {
					var rel []string
					for _, r := range d.Related {
						rel = append(rel, r.Path+":"+itoa(r.Start.Line))
					}
					if strings.Join(rel, ",") != strings.Join(w.related, ",") {
						t.Errorf("%s: related %v, want %v", w.at, rel, w.related)
					}
				}
			}
		})
	}
}

func TestUndeclaredRay(t *testing.T) {
	runCases(t, []tcase{
		{
			name:  "top-level import ray",
			files: map[string]string{app: server("import ray\n", "")},
			want: []finding{{at: "GL201 " + app + ":7:7", contains: []string{
				"server class Srv of " + app + " uses Ray (" + app + ":4 imports ray) but does not declare it",
				"add `ray_enabled: ClassVar[bool] = True` to the body of Srv",
			}, related: []string{app + ":4"}}},
		},
		{
			name:  "from ray import available_resources",
			files: map[string]string{app: server("from ray import available_resources, cluster_resources\n", "")},
			want:  []finding{{at: "GL201 " + app + ":7:7", contains: []string{app + ":4 imports available_resources from ray"}}},
		},
		{
			name:  "from ray.util.placement_group import",
			files: map[string]string{app: server("from ray.util.placement_group import placement_group\n", "")},
			want:  []finding{{at: "GL201 " + app + ":7:7", contains: []string{"imports placement_group from ray.util.placement_group"}}},
		},
		{
			name: "import inside a method counts",
			files: map[string]string{app: server("", `    async def verify(self, body):
        from ray.exceptions import RayTaskError
        return body
`)},
			want: []finding{{at: "GL201 " + app + ":6:7", contains: []string{app + ":8 imports RayTaskError from ray.exceptions"}}},
		},
		{
			name: "import ray in a function, @ray.remote nested in it",
			files: map[string]string{app: server(`

def build():
    import ray

    @ray.remote(num_gpus=1)
    def score(x):
        return x

    return score
`, "")},
			want: []finding{{at: "GL201 " + app + ":16:7", contains: []string{app + ":7 imports ray"}}},
		},
		{
			name: "a sibling helper imported at module level imports ray",
			files: map[string]string{
				app:                                server("import helpers\n", ""),
				"resources_servers/srv/helpers.py": "import ray\n\n\ndef fetch(ref):\n    return ray.get(ref)\n",
			},
			want: []finding{{at: "GL201 " + app + ":7:7", contains: []string{
				"resources_servers/srv/helpers.py:1 imports ray, imported through " + app + ":4",
			}, related: []string{"resources_servers/srv/helpers.py:1"}}},
		},
		{
			name: "transitively, through a package",
			files: map[string]string{
				app:                                     server("from resources_servers.srv.lib import runner\n", ""),
				"resources_servers/srv/lib/__init__.py": "",
				"resources_servers/srv/lib/runner.py":   "from .pool import start\n",
				"resources_servers/srv/lib/pool.py":     "from ray.util.placement_group import placement_group\n\n\ndef start():\n    pass\n",
			},
			want: []finding{{at: "GL201 " + app + ":7:7", contains: []string{
				"resources_servers/srv/lib/pool.py:1 imports placement_group from ray.util.placement_group, imported through " +
					app + ":4, resources_servers/srv/lib/runner.py:1",
			}}},
		},
		{
			name: ".remote() on a function imported in a method from a helper that makes it remote",
			files: map[string]string{
				app: server("", `    async def verify(self, body):
        from jobs import score

        return await score.remote(body)
`),
				"resources_servers/srv/jobs.py": "import ray\n\n\n@ray.remote(num_cpus=1)\ndef score(body):\n    return 1.0\n",
			},
			want: []finding{{at: "GL201 " + app + ":6:7", contains: []string{
				app + ":10 calls score.remote() (score is a Ray remote function of resources_servers/srv/jobs.py:5)",
			}}},
		},
		{
			name: ".options(...).remote() on a re-exported actor class, through an alias",
			files: map[string]string{
				app: server("", `    async def verify(self, body):
        import jobs as j

        actor = j.Scorer.options(num_gpus=1).remote()
        return actor
`),
				"resources_servers/srv/jobs.py":   "from actors import Scorer\n",
				"resources_servers/srv/actors.py": "import ray as r\n\n\n@r.remote\nclass Scorer:\n    pass\n",
			},
			want: []finding{{at: "GL201 " + app + ":6:7", contains: []string{
				app + ":10 calls j.Scorer.remote() (Scorer is a Ray actor class of resources_servers/srv/actors.py:5)",
			}}},
		},
		{
			name: ".remote() on a name made remote by a call",
			files: map[string]string{
				app: server("", `    def verify(self, body):
        from jobs import score_remote
        return score_remote.remote(body)
`),
				"resources_servers/srv/jobs.py": "import ray\n\n\ndef score(b):\n    return b\n\n\nscore_remote = ray.remote(num_cpus=1)(score)\n",
			},
			want: []finding{{at: "GL201 " + app + ":6:7", contains: []string{app + ":9 calls score_remote.remote() (score_remote is made a Ray remote object at resources_servers/srv/jobs.py:8)"}}},
		},
		{
			name: "an ancestor class's module uses Ray",
			files: map[string]string{
				"resources_servers/base_srv/app.py": srs + "import ray\n\n\nclass BaseSrv(SimpleResourcesServer):\n    ray_enabled: ClassVar[bool] = False\n",
				app:                                 "from resources_servers.base_srv.app import BaseSrv\n\n\nclass Srv(BaseSrv):\n    pass\n" + strings.Replace(guard, "%s", "Srv", 1),
			},
			want: []finding{
				// The base module is a server dir app.py too: it uses Ray and
				// declares False.
				{at: "GL201 resources_servers/base_srv/app.py:7:7", contains: []string{"declares ray_enabled = False but uses Ray"}},
				{at: "GL201 " + app + ":4:7", contains: []string{
					"resources_servers/base_srv/app.py:4 imports ray, in the module of ancestor class BaseSrv",
				}},
			},
		},
		{
			name:  "ray re-exported by the framework",
			files: map[string]string{app: server("from nemo_gym.server_utils import ray\n", "")},
			want: []finding{{at: "GL201 " + app + ":7:7", contains: []string{
				app + ":4 imports ray from nemo_gym.server_utils, which is the ray module",
			}}},
		},
		{
			name: "ray.get re-exported by a repository helper",
			files: map[string]string{
				app:                                server("from helpers import fetch\n", "    def verify(self, body):\n        return fetch(body)\n"),
				"resources_servers/srv/helpers.py": "from ray import get as fetch\n",
			},
			// The entrypoint's import comes before the helper's own.
			want: []finding{{at: "GL201 " + app + ":7:7", contains: []string{app + ":4 imports fetch from helpers, which is ray.get"}}},
		},
		{
			name: "ray re-exported by a repository helper, imported in a function",
			files: map[string]string{
				app:                              server("", "    def verify(self, body):\n        from utils import ray\n        return ray.get(body)\n"),
				"resources_servers/srv/utils.py": "import ray\n",
			},
			want: []finding{{at: "GL201 " + app + ":6:7", contains: []string{app + ":8 imports ray from utils, which is the ray module"}}},
		},
		{
			name: "server class defined in another module, started from the entrypoint",
			files: map[string]string{
				"resources_servers/srv/core.py":           srs + "import ray\n\n\nclass Core(SimpleResourcesServer):\n    pass\n",
				"resources_servers/srv/lite.py":           "from core import Core\n" + strings.Replace(guard, "%s", "Core", 1),
				"resources_servers/srv/configs/lite.yaml": "lite:\n  resources_servers:\n    srv:\n      entrypoint: lite.py\n",
			},
			want: []finding{{at: "GL201 resources_servers/srv/lite.py:5:5", contains: []string{
				"server class Core (defined in resources_servers/srv/core.py) of resources_servers/srv/lite.py uses Ray",
				"subclass Core in resources_servers/srv/lite.py with `ray_enabled: ClassVar[bool] = True` in its body",
			}, related: []string{"resources_servers/srv/core.py:4", "resources_servers/srv/core.py:7"}}},
		},
		{
			name:  "declared False while using Ray",
			files: map[string]string{app: server("import ray\n", "    ray_enabled: ClassVar[bool] = False\n")},
			want:  []finding{{at: "GL201 " + app + ":7:7", contains: []string{"declares ray_enabled = False but uses Ray", "set it to True"}}},
		},
	})
}

func TestUndeclaredRayLookAlikes(t *testing.T) {
	runCases(t, []tcase{
		{
			name: "docstring and comment mentions",
			files: map[string]string{app: server(`"""Scores SQL; unlike the old version this does not use Ray (import ray)."""
# ray.get(ref) used to be here
`, "    async def verify(self, body):\n        \"\"\"ray.remote is not used.\"\"\"\n        return body\n")},
		},
		{
			name: "a local name ray that is not the ray module",
			files: map[string]string{app: server(`from optics import Beam

ray = Beam()
ray.get(1)
`, "    async def verify(self, ray):\n        return ray.wait(ray.put(1))\n")},
		},
		{
			name: ".remote() on objects not known to come from Ray",
			files: map[string]string{
				app: server("from client import Client\n", `    async def verify(self, body):
        from helpers import plain
        self.worker.remote(body)
        Client().remote(body)
        plain.remote(body)
        body.remote()
        return remote(body)
`),
				"resources_servers/srv/client.py":  "class Client:\n    def remote(self, x):\n        return x\n",
				"resources_servers/srv/helpers.py": "def plain(x):\n    return x\n",
			},
		},
		{
			name:  "names that merely start with ray",
			files: map[string]string{app: server("import rayon\nimport raytracer.scene\nfrom tools import ray_helper\n", "")},
		},
		{
			name: "the framework's own use of Ray does not count",
			files: with(frameworkInRepo, map[string]string{
				app: server("from nemo_gym.server_utils import SimpleServer\n", ""),
			}),
		},
		{
			name: "a helper imported only inside a function is not followed",
			files: map[string]string{
				app:                                server("", "    def verify(self, body):\n        import helpers\n        return helpers.go(body)\n"),
				"resources_servers/srv/helpers.py": "import ray\n\n\ndef go(b):\n    return ray.get(b)\n",
			},
		},
		{
			name: "an import in another module's __main__ guard does not run",
			files: map[string]string{
				app:                                server("import helpers\n", ""),
				"resources_servers/srv/helpers.py": "X = 1\n\nif __name__ == \"__main__\":\n    import ray\n    ray.init()\n",
			},
		},
		{
			name: "ray bound by a repository module that is not the ray module",
			files: map[string]string{
				app:                              server("", "    def verify(self, body):\n        from utils import ray\n        return ray.get(body)\n"),
				"resources_servers/srv/utils.py": "ray = object()\n",
			},
		},
		{
			name:  "declared and used: nothing to say",
			files: map[string]string{app: server("import ray\n", "    ray_enabled: ClassVar[bool] = True\n")},
		},
		{
			name:  "a syntax error in the entrypoint suppresses the rules",
			files: map[string]string{app: server("import ray\n", "    def verify(self, body:\n        pass\n")},
		},
	})
}

func TestExemptEntrypointIsSkipped(t *testing.T) {
	files := map[string]string{app: server("import ray\n", "    ray_enabled = os.environ.get(\"X\")\n")}
	overlay := map[string][]byte{}
	for p, c := range files {
		overlay[p] = []byte(c)
	}
	v, err := gym.Build(t.TempDir(), gym.Options{Overlay: overlay, Exemptions: []gym.Exemption{{Path: app, Reason: "base classes"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for _, c := range Checks {
		if ds := c.Run(v); len(ds) != 0 {
			t.Errorf("%s on an exempt entrypoint: %v", c.Rule.Code, ds)
		}
	}
	// Status still answers.
	if st := Status(v, v.Entrypoints[0].Servers[0]); st.Declared || !st.Needed {
		t.Errorf("status %+v", st)
	}
}

func TestInheritedRayEnabled(t *testing.T) {
	parent := "resources_servers/base_srv/app.py"
	parentSrc := srs + "import ray\n\n\nclass BaseSrv(SimpleResourcesServer):\n    ray_enabled: ClassVar[bool] = True\n"
	child := func(body string) string {
		return "from typing import ClassVar\n\nfrom resources_servers.base_srv.app import BaseSrv\n\n\nclass Srv(BaseSrv):\n" + body +
			strings.Replace(guard, "%s", "Srv", 1)
	}
	runCases(t, []tcase{
		{
			name:  "declaration inherited from another module",
			files: map[string]string{parent: parentSrc, app: child("    pass\n")},
			want: []finding{{at: "GL202 " + app + ":6:7", contains: []string{
				"server class Srv of " + app + " inherits ray_enabled from BaseSrv (" + parent + ":8)",
				"declare `ray_enabled: ClassVar[bool] = True` on Srv itself",
			}, related: []string{parent + ":8"}}},
		},
		{
			name:  "own declaration: nothing to say",
			files: map[string]string{parent: parentSrc, app: child("    ray_enabled: ClassVar[bool] = True\n")},
		},
		{
			name: "a parent declaring False is not a declaration",
			files: map[string]string{
				parent: strings.Replace(parentSrc, "= True", "= False", 1),
				app:    child("    pass\n"),
			},
			// Both use Ray (the parent's module imports it) and declare False
			// or nothing.
			want: []finding{
				{at: "GL201 " + parent + ":7:7", contains: []string{"declares ray_enabled = False"}},
				{at: "GL201 " + app + ":6:7", contains: []string{"in the module of ancestor class BaseSrv"}},
			},
		},
		{
			name: "a server class defined elsewhere that declares it there",
			files: map[string]string{
				"resources_servers/srv/core.py":           srs + "import ray\n\n\nclass Core(SimpleResourcesServer):\n    ray_enabled: ClassVar[bool] = True\n",
				"resources_servers/srv/lite.py":           "from core import Core\n" + strings.Replace(guard, "%s", "Core", 1),
				"resources_servers/srv/configs/lite.yaml": "lite:\n  resources_servers:\n    srv:\n      entrypoint: lite.py\n",
			},
			want: []finding{{at: "GL202 resources_servers/srv/lite.py:5:5", contains: []string{
				"declares ray_enabled in resources_servers/srv/core.py, but the server supervisor reads it only from resources_servers/srv/lite.py",
			}, related: []string{"resources_servers/srv/core.py:8", "resources_servers/srv/core.py:7"}}},
		},
	})
}

func TestUnreadableRayEnabled(t *testing.T) {
	runCases(t, []tcase{
		{
			name:  "computed value",
			files: map[string]string{app: server("import ray\n\nUSE_RAY = True\n", "    ray_enabled: ClassVar[bool] = USE_RAY\n")},
			want: []finding{{at: "GL203 " + app + ":10:5", contains: []string{
				"ray_enabled of server class Srv of " + app + " is set to `USE_RAY`",
				"write `ray_enabled: ClassVar[bool] = True` (Srv uses Ray: " + app + ":4 imports ray)",
			}}},
		},
		{
			name:  "computed bare value: unreadable and unannotated",
			files: map[string]string{app: server("import os\n", "    ray_enabled = os.environ.get(\"USE_RAY\") == \"1\"\n")},
			want: []finding{
				{at: "GL203 " + app + ":8:5", contains: []string{"gymlint finds no Ray use in Srv, so if it does not need Ray, remove the declaration instead"}},
				{at: "GL204 " + app + ":8:5", contains: []string{"`ray_enabled = os.environ.get(\"USE_RAY\") == \"1\"`"}},
			},
		},
		{
			name:  "annotation without a value",
			files: map[string]string{app: server("import ray\n", "    ray_enabled: ClassVar[bool]\n")},
			want:  []finding{{at: "GL203 " + app + ":8:5", contains: []string{"has no value the server supervisor can read"}}},
		},
		{
			name: "set in a method",
			files: map[string]string{app: server("import ray\n", `    def model_post_init(self, ctx):
        self.ray_enabled = True
`)},
			want: []finding{{at: "GL203 " + app + ":9:9", contains: []string{
				"ray_enabled is set in function model_post_init (`self.ray_enabled = ...`)",
				"declare `ray_enabled: ClassVar[bool] = True` in the body of Srv instead",
			}, related: []string{app + ":7", app + ":4"}}},
		},
		{
			name: "set with setattr, in a classmethod and at module level",
			files: map[string]string{app: server("import ray\n", `    @classmethod
    def setup(cls):
        setattr(cls, "ray_enabled", True)
`) + "\nsetattr(Srv, 'ray_enabled', True)\n"},
			want: []finding{
				{at: "GL203 " + app + ":10:9", contains: []string{"set with setattr() in function setup"}},
				{at: "GL203 " + app + ":16:1", contains: []string{"set with setattr(), which the server supervisor does not read"}},
			},
		},
		{
			name: "declared only on a mixin of the entrypoint",
			files: map[string]string{app: srs + `import ray


class RayMixin:
    ray_enabled: ClassVar[bool] = True


class Srv(RayMixin, SimpleResourcesServer):
    pass
` + strings.Replace(guard, "%s", "Srv", 1)},
			want: []finding{{at: "GL203 " + app + ":8:5", contains: []string{
				"ray_enabled is declared on RayMixin, which is not a server class of " + app,
				"declare `ray_enabled: ClassVar[bool] = True` in the body of Srv",
			}, related: []string{app + ":11", app + ":4"}}},
		},
		{
			name: "look-alikes: False, other attributes, reads, another server's own declaration",
			files: map[string]string{app: srs + `import ray


class Settings:
    ray_enabled = False


class Srv(SimpleResourcesServer):
    def setup(self):
        self.ray_enabled = False
        self.ray_enabled_flag = True
        self.config.ray_enabled
        setattr(self, "other", True)
        setattr(self, "ray_enabled", False)


class Other(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = True

    def setup(self):
        self.ray_enabled = True
`},
			// Srv uses Ray and declares nothing; Other's declaration, and
			// its method's assignment (Other's own business), do not count
			// for Srv.
			want: []finding{
				{at: "GL201 " + app + ":11:7", contains: []string{"server class Srv"}},
			},
		},
	})
}

func TestUnannotatedRayEnabled(t *testing.T) {
	runCases(t, []tcase{
		{
			name:  "bare, framework outside the repository",
			files: map[string]string{app: server("import ray\n", "    ray_enabled = True\n")},
			want: []finding{{at: "GL204 " + app + ":8:5", contains: []string{
				"`ray_enabled = True` in the body of server class Srv of " + app + " has no annotation",
				"PydanticUserError: A non-annotated attribute was detected",
				"write `ray_enabled: ClassVar[bool] = True`",
				"the framework package is outside the repository",
			}}},
		},
		{
			name: "bare, framework in the repository without the ClassVar",
			files: with(frameworkNoClassVar, map[string]string{
				app: server("import ray\n", "    ray_enabled = True\n"),
			}),
			want: []finding{{at: "GL204 " + app + ":8:5", contains: []string{"no ancestor of Srv declares ray_enabled as a ClassVar"}}},
		},
		{
			name: "bare, the repository's framework declares the ClassVar",
			files: with(frameworkInRepo, map[string]string{
				app: server("import ray\n", "    ray_enabled = True\n"),
			}),
		},
		{
			name: "bare, a repository ancestor in another module declares the ClassVar",
			files: map[string]string{
				"resources_servers/base_srv/base.py": srs + "\n\nclass RayBase(SimpleResourcesServer):\n    ray_enabled: typing.ClassVar[bool] = False\n",
				app: "import ray\nfrom resources_servers.base_srv.base import RayBase\n\n\nclass Srv(RayBase):\n    ray_enabled = True\n" +
					strings.Replace(guard, "%s", "Srv", 1),
			},
		},
		{
			name: "annotated forms are accepted",
			files: map[string]string{
				app: srs + "import typing\n\nimport ray\n\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled: typing.ClassVar[bool] = True\n" +
					strings.Replace(guard, "%s", "Srv", 1),
				"resources_servers/two/app.py": srs + "import ray\n\n\nclass Two(SimpleResourcesServer):\n    ray_enabled: \"ClassVar[bool]\" = True\n",
			},
		},
	})
	// An unresolvable base leaves GL204 silent.
	files := map[string]string{
		app: srs + "import ray\nfrom resources_servers.srv import helpers\n\n\nclass Srv(helpers.Missing, SimpleResourcesServer):\n    ray_enabled = True\n" +
			strings.Replace(guard, "%s", "Srv", 1),
		"resources_servers/srv/helpers.py": "X = 1\n",
	}
	if ds := scan(t, files); len(ds) != 0 {
		t.Errorf("unresolved base: got %v", ds)
	}
}

func TestUnneededRayEnabled(t *testing.T) {
	cfg := "resources_servers/srv/configs/srv.yaml"
	runCases(t, []tcase{
		{
			name:  "declared, no use",
			files: map[string]string{app: server("", "    ray_enabled: ClassVar[bool] = True\n")},
			want: []finding{{at: "GL205 " + app + ":7:5", contains: []string{
				"server class Srv of " + app + " declares ray_enabled = True, but gymlint finds no Ray use",
				"remove the declaration",
			}}},
		},
		{
			name:  "bare and unneeded: both rules",
			files: map[string]string{app: server("", "    ray_enabled = True\n")},
			want:  []finding{{at: "GL204 " + app + ":7:5"}, {at: "GL205 " + app + ":7:5"}},
		},
		{
			name: "a config key with the word ray",
			files: map[string]string{
				app: server("", "    ray_enabled: ClassVar[bool] = True\n"),
				cfg: "srv:\n  resources_servers:\n    srv:\n      entrypoint: app.py\n      engine:\n        VLLM_RAY_DP_PACK_STRATEGY: strict\n",
			},
		},
		{
			name: "a config value that is exactly ray",
			files: map[string]string{
				app: server("", "    ray_enabled: ClassVar[bool] = True\n"),
				cfg: "srv:\n  resources_servers:\n    srv:\n      entrypoint: app.py\n      backends: [mp, Ray]\n",
			},
		},
		{
			name: "an override of the instance in another file",
			files: map[string]string{
				app:                          server("", "    ray_enabled: ClassVar[bool] = True\n"),
				cfg:                          "srv:\n  resources_servers:\n    srv:\n      entrypoint: app.py\n",
				"benchmarks/big/config.yaml": "srv:\n  resources_servers:\n    srv:\n      num_ray_workers: 4\n",
			},
		},
		{
			name: "look-alike settings still warn",
			files: map[string]string{
				app: server("", "    ray_enabled: ClassVar[bool] = True\n"),
				cfg: "srv:\n  resources_servers:\n    srv:\n      entrypoint: app.py\n      array_size: 3\n      description: Traces a gray ray of light.\n      judge_url: ${oc.env:RAY_URL}\n" +
					// An override of another instance does not count.
					"other:\n  resources_servers:\n    srv:\n      ray_address: auto\n",
			},
			want: []finding{{at: "GL205 " + app + ":7:5"}},
		},
		{
			name: "a module on the way that does not parse: silent",
			files: map[string]string{
				app:                                server("import helpers\n", "    ray_enabled: ClassVar[bool] = True\n"),
				"resources_servers/srv/helpers.py": "def broken(:\n",
			},
		},
		{
			name:  "declared and used",
			files: map[string]string{app: server("import ray\n", "    ray_enabled: ClassVar[bool] = True\n")},
		},
	})
}

func TestStatus(t *testing.T) {
	v := build(t, map[string]string{
		"resources_servers/used/app.py":     server("import helpers\n", "    ray_enabled: ClassVar[bool] = True\n"),
		"resources_servers/used/helpers.py": "import ray\n",
		"resources_servers/plain/app.py":    server("", ""),
		"resources_servers/bare/app.py":     server("", "    ray_enabled = True\n"),
		"resources_servers/calc/app.py":     server("import ray\n", "    ray_enabled: ClassVar[bool] = 1 == 1\n"),
		"resources_servers/broken/app.py":   server("import ray\n", "    def f(self:\n        pass\n"),
	}, gym.Options{})
	want := map[string]string{
		"resources_servers/used/app.py":   "declared needed resources_servers/used/helpers.py:1",
		"resources_servers/plain/app.py":  "undeclared unneeded",
		"resources_servers/bare/app.py":   "declared unneeded",
		"resources_servers/calc/app.py":   "undeclared needed resources_servers/calc/app.py:4",
		"resources_servers/broken/app.py": "",
	}
	for _, e := range v.Entrypoints {
		w, ok := want[e.Path]
		if !ok {
			t.Errorf("unexpected entrypoint %s", e.Path)
			continue
		}
		if w == "" {
			continue // tree-sitter may or may not recover the class; no claim
		}
		if len(e.Servers) != 1 {
			t.Fatalf("%s: servers %v", e.Path, e.Servers)
		}
		st := Status(v, e.Servers[0])
		got := map[bool]string{true: "declared", false: "undeclared"}[st.Declared] + " " + map[bool]string{true: "needed", false: "unneeded"}[st.Needed]
		if st.Use != nil {
			got += " " + st.Use.Path + ":" + itoa(st.Use.Start.Line)
		}
		if st.Needed != (st.Use != nil) {
			t.Errorf("%s: Needed %v but Use %v", e.Path, st.Needed, st.Use)
		}
		if got != w {
			t.Errorf("%s: status %q, want %q", e.Path, got, w)
		}
	}
	// A server that is no entrypoint's (here: no such run_webserver call)
	// is analysed from its own module.
	e := v.Entrypoints[len(v.Entrypoints)-1]
	if e.Path != "resources_servers/used/app.py" {
		t.Fatalf("last entrypoint is %s", e.Path)
	}
	s := e.Servers[0]
	s.Call = &pyscan.Call{}
	if st := Status(v, s); !st.Declared || !st.Needed || st.Use == nil || st.Use.Path != "resources_servers/used/helpers.py" {
		t.Errorf("detached server: %+v", st)
	}
}

func TestHasRayWord(t *testing.T) {
	for key, want := range map[string]bool{
		"ray": true, "RAY_ADDRESS": true, "ray_address": true, "num_ray_workers": true, "rayActors": true,
		"VLLM_RAY_DP_PACK_STRATEGY": true, "harbor-ray-cpus": true, "useRay": true, "use.ray": true,
		"array": false, "xray": false, "gray_level": false, "rays": false, "Arrays": false, "": false, "stray_ray2": false,
	} {
		if got := hasRayWord(key); got != want {
			t.Errorf("hasRayWord(%q) = %v, want %v", key, got, want)
		}
	}
}

func TestIsClassVar(t *testing.T) {
	for ann, want := range map[string]bool{
		"ClassVar[bool]": true, "typing.ClassVar[bool]": true, "t.ClassVar": true, `"ClassVar[bool]"`: true, "ClassVar [ bool ]": true,
		"bool": false, "": false, "Optional[ClassVar[bool]]": false, "MyClassVar[bool]": false,
	} {
		if got := isClassVar(ann); got != want {
			t.Errorf("isClassVar(%q) = %v, want %v", ann, got, want)
		}
	}
}

func TestRemoteReceiver(t *testing.T) {
	for _, tc := range []struct {
		in   string
		open int
	}{
		{"fn.options(x=1)", 10},
		{"fn.options(x=(1, 2))", 10},
		{"fn.options(x=[1])", 10},
		{"a[0]", -1},
		{"f)", -1},
	} {
		if got := matchingOpen(tc.in); got != tc.open {
			t.Errorf("matchingOpen(%q) = %d, want %d", tc.in, got, tc.open)
		}
	}
	if got := compact("fn .options(\n  x=1,  # why\n).remote"); got != "fn.options(x=1,).remote" {
		t.Errorf("compact = %q", got)
	}
	for s, want := range map[string]bool{"a": true, "a.b_c": true, "a1.b2": true, "1a": false, "a..b": false, "a()": false, "": false} {
		if isDotted(s) != want {
			t.Errorf("isDotted(%q) = %v", s, !want)
		}
	}
}

// TestAnalysisShared checks that the rules and Status share one analysis
// of a view, and that another view gets its own.
func TestAnalysisShared(t *testing.T) {
	build := func() *gym.View {
		v, err := gym.Build(t.TempDir(), gym.Options{Overlay: map[string][]byte{app: []byte(server("import ray\n", ""))}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(v.Close)
		return v
	}
	v, w := build(), build()
	a := analysisOf(v)
	if analysisOf(v) != a {
		t.Error("a second call analysed the view again")
	}
	if analysisOf(w) == a {
		t.Error("two views share one analysis")
	}
	if len(a.diags) != 1 {
		t.Errorf("diags %v", a.diags)
	}
}
