package contract

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/internal/repofs"
	"github.com/gymlint/gymlint/internal/testtree"
)

func detect(t *testing.T, files map[string]string, o Options) *Framework {
	t.Helper()
	fsys, err := repofs.New(testtree.New(t, files), repofs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o.FS = fsys
	return Detect(o)
}

func facts(fw *Framework) []string {
	var out []string
	for f := range fw.Facts {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// Each fact is read from the model: by the name of a method of a server
// base, a ClassVar declaration, a read of ray_enabled, a class, a
// function or a binding of any module of the package; a name in a comment,
// a string or another class is not a fact.
func TestFacts(t *testing.T) {
	fw := detect(t, map[string]string{
		"nemo_gym/__init__.py": "",
		"nemo_gym/core/servers.py": "from typing import ClassVar\n\n\nclass BaseServer:\n" +
			"    ray_enabled: ClassVar[bool] = False\n\n" +
			"    def multiple_workers_unsupported_reason(self):\n        return None\n\n" +
			"    @classmethod\n    def run_webserver(cls):\n        if getattr(cls, \"ray_enabled\", False):\n            start_ray()\n",
		"nemo_gym/core/resources.py": "from nemo_gym.core.servers import BaseServer\n\n\n" +
			"class SimpleResourcesServer(BaseServer):\n    async def close_resources_session(self, body):\n        return {}\n\n\n" +
			"class ResourcesSessionLocks:\n    pass\n\n\ndef lost_session_verification(reason):\n    return {}\n",
		// Look-alikes: names in text, on other classes, nested.
		"nemo_gym/notes.py": "# class ResourcesSessionFences and RESERVED_MCP_TOOL_NAMES are planned\n" +
			"DOC = \"def lost_session_verification ResourcesSeedRejectedError\"\n\n\n" +
			"class Helper:\n    def close_resources_session(self):\n        pass\n\n    def checkpoint_verify(self):\n        pass\n\n\n" +
			"def f():\n    class ResourcesSessionLostError(Exception):\n        pass\n",
		// The framework's tests are not the framework.
		"nemo_gym/tests/test_fakes.py": "class ResourcesSessionConflictError(Exception):\n    pass\n",
	}, Options{})
	if !fw.Found || fw.Dir != "nemo_gym" || fw.Where != InRepository {
		t.Fatalf("framework %+v", fw)
	}
	want := []string{CloseSession, LostSession, RayDeclaration, RayPerDeclaration, SessionLocks, WorkerRefusal}
	slices.Sort(want)
	if got := facts(fw); !slices.Equal(got, want) {
		t.Errorf("facts %v, want %v", got, want)
	}
	if at := fw.Facts[WorkerRefusal]; at != "nemo_gym/core/servers.py:7" {
		t.Errorf("worker refusal found at %q", at)
	}
	// Only the modules that name a fact's identifier are parsed.
	if fw.Files != 4 || fw.Modules != 3 {
		t.Errorf("%d files, %d parsed", fw.Files, fw.Modules)
	}
	for _, f := range []Fact{SessionFences, SeedRejectedError, SessionConflictError, SessionLostError, ReservedMCPToolNames, CheckpointHooks} {
		if fw.Has(f) {
			t.Errorf("%s holds", f)
		}
	}
}

// A bare or non-ClassVar ray_enabled is no declaration, and a framework
// that reads ray_enabled without declaring it does not start Ray per
// declaration.
func TestRayDeclaration(t *testing.T) {
	fw := detect(t, map[string]string{
		"nemo_gym/__init__.py":     "",
		"nemo_gym/server_utils.py": "class BaseServer:\n    ray_enabled: bool = False\n\n    def run(self):\n        if self.ray_enabled:\n            pass\n",
	}, Options{})
	if fw.Has(RayDeclaration) || fw.Has(RayPerDeclaration) {
		t.Errorf("facts %v", facts(fw))
	}
}

// Where the framework is looked for, in order.
func TestLocations(t *testing.T) {
	pkg := map[string]string{
		"__init__.py":     "",
		"server_utils.py": "class BaseServer:\n    def multiple_workers_unsupported_reason(self):\n        return None\n",
	}
	under := func(dir string, extra map[string]string) map[string]string {
		out := map[string]string{}
		for p, c := range pkg {
			out[path.Join(dir, p)] = c
		}
		for p, c := range extra {
			out[p] = c
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		o     Options
		dir   string
		where Where
	}{
		{"repository", under("nemo_gym", nil), Options{}, "nemo_gym", InRepository},
		{"framework_path names the package", under("vendor/gym/nemo_gym", nil), Options{FrameworkPath: "vendor/gym/nemo_gym"}, "vendor/gym/nemo_gym", FrameworkPath},
		{"framework_path holds it", under("vendor/gym/nemo_gym", nil), Options{FrameworkPath: "vendor/gym"}, "vendor/gym/nemo_gym", FrameworkPath},
		{".venv", under(".venv/lib/python3.12/site-packages/nemo_gym", nil), Options{}, ".venv/lib/python3.12/site-packages/nemo_gym", VirtualEnv},
		{"venv", under("venv/lib/python3.10/site-packages/nemo_gym", nil), Options{}, "venv/lib/python3.10/site-packages/nemo_gym", VirtualEnv},
		{"the repository's first", under("nemo_gym", under(".venv/lib/python3.12/site-packages/nemo_gym", nil)), Options{}, "nemo_gym", InRepository},
		{"another package name", under("my_gym", nil), Options{Package: "my_gym"}, "my_gym", InRepository},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fw := detect(t, tc.files, tc.o)
			if !fw.Found || fw.Dir != tc.dir || fw.Where != tc.where || !fw.Has(WorkerRefusal) || fw.Has(CloseSession) {
				t.Errorf("found %v at %q (%s), facts %v", fw.Found, fw.Dir, fw.Where, facts(fw))
			}
		})
	}
	// $VIRTUAL_ENV outside the root: read there, shown by its absolute path.
	venv := testtree.New(t, under("lib/python3.11/site-packages/nemo_gym", nil))
	fw := detect(t, map[string]string{"app.py": ""}, Options{VirtualEnv: venv})
	if !fw.Found || !strings.HasPrefix(fw.Dir, "/") || !strings.HasSuffix(fw.Dir, "lib/python3.11/site-packages/nemo_gym") || !fw.Has(WorkerRefusal) {
		t.Errorf("$VIRTUAL_ENV: %+v", fw)
	}
	// Nowhere: every fact holds, and a wrong framework_path says so.
	fw = detect(t, map[string]string{"app.py": ""}, Options{FrameworkPath: "nowhere"})
	if fw.Found || !fw.Has(WorkerRefusal) || len(fw.Problems) != 1 {
		t.Errorf("not found: %+v", fw)
	}
}

// A package link out of the root is not followed, and the reads are
// bounded: a package of more modules than MaxModules is read in part, and
// says so.
func TestBounds(t *testing.T) {
	files := map[string]string{"nemo_gym/__init__.py": ""}
	for i := range MaxModules + 5 {
		files[fmt.Sprintf("nemo_gym/m%04d.py", i)] = "X = 1\n"
	}
	fw := detect(t, files, Options{})
	if fw.Files != MaxModules || len(fw.Problems) != 1 || !strings.Contains(fw.Problems[0], "only the first") {
		t.Errorf("%d files, problems %v", fw.Files, fw.Problems)
	}
}

// TestNotesAndRanges: the contract's notes are short, whatever was left
// out: a count, and the rules named one by one each with why.
func TestNotesAndRanges(t *testing.T) {
	order := []string{"GL005", "GL101", "GL102", "GL103", "GL201", "GL202", "GL203", "GL301"}
	if got := Ranges([]string{"GL103", "GL101", "GL102", "GL202", "GL301", "GL999"}, order); got != "GL101-GL103, GL202, GL301, GL999" {
		t.Errorf("Ranges: %q", got)
	}
	fw := &Framework{Package: "nemo_gym", Found: true, Dir: "nemo_gym", Facts: map[Fact]string{RayDeclaration: "x:1"}}
	skipped := []Skipped{{"GL101", []Fact{WorkerRefusal}}, {"GL102", []Fact{WorkerRefusal}}, {"GL201", []Fact{RayPerDeclaration}}}
	for _, tc := range []struct {
		named []string
		want  []string
	}{
		{nil, []string{"3 rules not applied: the framework at ./nemo_gym predates them; gymlint config lists them; --contract latest applies them"}},
		{[]string{"GL101", "GL005"}, []string{
			"GL101 not applied: nemo_gym at ./nemo_gym predates the worker refusal (BaseServer has no multiple_workers_unsupported_reason); --contract latest applies it",
			"2 more rules not applied: the framework at ./nemo_gym predates them; gymlint config lists them; --contract latest applies them"}},
		{[]string{"GL101", "GL102", "GL201"}, []string{
			"GL101, GL102 not applied: nemo_gym at ./nemo_gym predates the worker refusal (BaseServer has no multiple_workers_unsupported_reason); --contract latest applies them",
			"GL201 not applied: nemo_gym at ./nemo_gym predates Ray per declaration (no framework code reads ray_enabled, so it starts Ray for every server); --contract latest applies it"}},
		{[]string{"GL101", "GL102"}, []string{
			"GL101, GL102 not applied: nemo_gym at ./nemo_gym predates the worker refusal (BaseServer has no multiple_workers_unsupported_reason); --contract latest applies them",
			"1 more rule not applied: the framework at ./nemo_gym predates it; gymlint config lists it; --contract latest applies it"}},
	} {
		if got := Notes(fw, Auto, skipped, tc.named, order); !slices.Equal(got, tc.want) {
			t.Errorf("Notes, named %v:\n%s\nwant\n%s", tc.named, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
	if got := Detail(skipped, order); !slices.Equal(got, []string{
		"GL101, GL102: predates the worker refusal (BaseServer has no multiple_workers_unsupported_reason)",
		"GL201: predates Ray per declaration (no framework code reads ray_enabled, so it starts Ray for every server)"}) {
		t.Errorf("Detail: %q", got)
	}
	latest := Notes(fw, Latest, nil, nil, order)
	if want := fmt.Sprintf("nemo_gym at ./nemo_gym predates %d of the %d parts of the contract (gymlint config lists them); --contract latest applies every rule anyway", len(Facts)-1, len(Facts)); !slices.Equal(latest, []string{want}) {
		t.Errorf("Notes latest: %q", latest)
	}
	if got := Notes(&Framework{Package: "nemo_gym"}, Auto, nil, nil, order); len(got) != 1 || !strings.Contains(got[0], "checked against the latest contract") {
		t.Errorf("Notes, no framework: %q", got)
	}
	full := &Framework{Package: "nemo_gym", Found: true, Dir: "nemo_gym", Facts: map[Fact]string{}}
	for _, in := range Facts {
		full.Facts[in.Fact] = "x:1"
	}
	if got := Notes(full, Latest, nil, nil, order); len(got) != 0 {
		t.Errorf("Notes, the whole contract: %q", got)
	}
	// A framework far away is named by the end of its path: the line stays
	// short.
	far := &Framework{Package: "nemo_gym", Found: true, Dir: "/" + strings.Repeat("very-long-directory/", 20) + "site-packages/nemo_gym"}
	all := []Skipped{}
	for _, in := range Facts {
		all = append(all, Skipped{"GL" + in.Fact, []Fact{in.Fact}})
	}
	named := []string{"GL" + CheckpointHooks}
	for _, l := range Notes(far, Auto, all, named, nil) {
		if len(l) > 200 || !strings.Contains(l, " .../") || !strings.Contains(l, "/site-packages/nemo_gym ") {
			t.Errorf("a far framework's note is %d characters: %s", len(l), l)
		}
	}
}

// The modules are parsed in parallel; what is read from them, the facts,
// where they are, and the problems in the files' order, is the same as a
// parse of one module at a time.
func TestDetectInParallel(t *testing.T) {
	files := map[string]string{"nemo_gym/__init__.py": ""}
	for i := range 24 {
		var src string
		switch i % 4 {
		case 0: // a fact, in a module of a size that varies
			src = strings.Repeat("X = 1\n", i*40) + fmt.Sprintf("\n\ndef lost_session_verification(reason%d):\n    return {}\n", i)
		case 1: // a syntax error in a module that may hold a fact
			src = fmt.Sprintf("class ResourcesSessionLocks%d(:\n    pass\n", i)
		case 2: // no fact's name: not parsed
			src = "def helper(:\n"
		case 3:
			src = fmt.Sprintf("class BaseServer%d:\n    def multiple_workers_unsupported_reason(self):\n        return None\n", i)
		}
		files[fmt.Sprintf("nemo_gym/m%02d.py", i)] = src
	}
	serial := detect(t, files, Options{Jobs: 1})
	if len(serial.Problems) != 6 || serial.Modules != 18 {
		t.Fatalf("serial: %d modules, problems %q; want 18 and 6 syntax errors", serial.Modules, serial.Problems)
	}
	for i := 1; i < len(serial.Problems); i++ {
		if serial.Problems[i-1] >= serial.Problems[i] {
			t.Errorf("problems out of the files' order: %q", serial.Problems)
		}
	}
	for _, jobs := range []int{0, 3, 8} {
		fw := detect(t, files, Options{Jobs: jobs})
		if !slices.Equal(fw.Problems, serial.Problems) || fw.Modules != serial.Modules || fmt.Sprint(fw.Facts) != fmt.Sprint(serial.Facts) || fmt.Sprint(fw.FuncModules) != fmt.Sprint(serial.FuncModules) {
			t.Errorf("jobs %d: %+v\nserial: %+v", jobs, fw, serial)
		}
	}
}
