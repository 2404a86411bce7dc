package gym_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/lint"
)

func TestDiagMissingEntrypoint(t *testing.T) {
	cfg := "# comment\narxiv:\n  resources_servers:\n    tools_arxiv:\n      entrypoint: app.py\n"
	root := writeRepo(t, withHealthy(map[string]string{
		"resources_servers/tools/app.py":          serverModule("ToolsServer"),
		"resources_servers/tools/configs/ns.yaml": cfg,
	}))
	v := build(t, root, gym.Options{})
	d := findDiag(t, v, "GL005", "resources_servers/tools/configs/ns.yaml")
	if d.Start.Line != 5 || d.Start.Col != 19 {
		t.Errorf("GL005 at %d:%d, want 5:19 (the entrypoint value)", d.Start.Line, d.Start.Col)
	}
	if wantOff := strings.Index(cfg, "app.py"); d.Start.Offset != wantOff {
		t.Errorf("GL005 offset %d, want %d", d.Start.Offset, wantOff)
	}
	if d.Rule != "missing-entrypoint" || d.Severity != diag.Error || d.Analyzer != "core" {
		t.Errorf("GL005 metadata: %+v", d)
	}
	for _, s := range []string{"resources_servers/tools_arxiv/app.py", "arxiv"} {
		if !strings.Contains(d.Message, s) {
			t.Errorf("GL005 message %q does not name %q", d.Message, s)
		}
	}
	if len(v.Diagnostics()) != 1 {
		t.Errorf("diagnostics:\n%s", dumpDiags(v.Diagnostics()))
	}
	assertHealthy(t, v)
	entry(t, v, "resources_servers/tools/app.py")
}

func TestDiagEntrypointOutsideRoot(t *testing.T) {
	cfg := yamlServer("climb", "resources_servers", "x", "../../../../outside.py") +
		yamlServer("abs", "resources_servers", "x", "/etc/passwd") +
		yamlServer("abs_py", "resources_servers", "x", "/tmp/x.py") +
		yamlServer("backslash", "resources_servers", "x", `..\..\..\..\outside.py`) +
		yamlServer("dirkey", "resources_servers", "../../..", "x.py")
	root := writeRepo(t, withHealthy(map[string]string{
		"resources_servers/x/configs/x.yaml": cfg,
	}))
	v := build(t, root, gym.Options{})
	ds := diagsOf(v, "GL006")
	// A backslash climbs only where it is a separator (Windows); on Linux
	// and macOS ..\..\..\..\outside.py is a file name in resources_servers/x/,
	// which is not there (GL005).
	want := []int{4, 8, 12, 16, 20}
	var others []diag.Diagnostic
	if filepath.Separator != '\\' {
		want = []int{4, 8, 12, 20}
		others = diagsOf(v, "GL005")
		if len(others) != 1 || others[0].Start.Line != 16 || !strings.Contains(others[0].Message, `resources_servers/x/..\..\..\..\outside.py`) {
			t.Errorf("GL005 = %s", dumpDiags(others))
		}
	}
	if len(ds) != len(want) {
		t.Errorf("GL006 count = %d, want %d:\n%s", len(ds), len(want), dumpDiags(v.Diagnostics()))
	}
	lines := map[int]bool{}
	for _, d := range ds {
		if d.Path != "resources_servers/x/configs/x.yaml" {
			t.Errorf("GL006 on %s", d.Path)
		}
		lines[d.Start.Line] = true
	}
	for _, l := range want {
		if !lines[l] {
			t.Errorf("no GL006 at line %d", l)
		}
	}
	if len(v.Diagnostics()) != len(ds)+len(others) {
		t.Errorf("other diagnostics:\n%s", dumpDiags(v.Diagnostics()))
	}
	assertHealthy(t, v)
}

// The outside file would be a syntax error if it were ever parsed.
const outsideContent = "this is ( not python\n"

func TestDiagSymlinkEntrypointOutsideRoot(t *testing.T) {
	outside := t.TempDir()
	outFile := filepath.Join(outside, "secret.py")
	if err := os.WriteFile(outFile, []byte(outsideContent), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "leak.yaml"), []byte(yamlServer("leak", "resources_servers", "leak", "app.py")), 0o644); err != nil {
		t.Fatal(err)
	}
	root := writeRepo(t, withHealthy(map[string]string{
		"resources_servers/x/configs/x.yaml": yamlServer("linked", "resources_servers", "x", "linked.py"),
		"resources_servers/x/importer.py":    "from resources_servers.x.linked import Secret\nfrom evil import Evil\n",
		"resources_servers/x/configs/y.yaml": yamlServer("imp", "resources_servers", "x", "importer.py"),
	}))
	symlink(t, root, "resources_servers/x/linked.py", outFile)
	symlink(t, root, "resources_servers/x/evil.py", outFile)
	// As a server dir app.py and as a YAML file.
	symlink(t, root, "resources_servers/y/app.py", outFile)
	symlink(t, root, "configs/leak.yaml", filepath.Join(outside, "leak.yaml"))
	// A directory link out of the root holding an app.py.
	if err := os.WriteFile(filepath.Join(outside, "app.py"), []byte(outsideContent), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, root, "resources_servers/outdir", outside)

	v := build(t, root, gym.Options{})
	d := findDiag(t, v, "GL006", "resources_servers/x/configs/x.yaml")
	if d.Start.Line != 4 {
		t.Errorf("GL006 line %d, want 4", d.Start.Line)
	}
	findDiag(t, v, "GL002", "resources_servers/y/app.py")
	findDiag(t, v, "GL002", "configs/leak.yaml")
	for _, d := range v.Diagnostics() {
		if d.Code == "GL001" {
			t.Errorf("the outside file was parsed: %s %s", d.Path, d.Message)
		}
	}
	for _, p := range entryPaths(v) {
		if strings.Contains(p, "linked") || strings.Contains(p, "outdir") || strings.Contains(p, "leak") {
			t.Errorf("entrypoint %s leaves the root", p)
		}
	}
	imp := entry(t, v, "resources_servers/x/importer.py")
	for _, name := range []string{"Secret", "Evil"} {
		if s := v.Resolve(imp.Module, name); s.Kind == gym.RepoClass || s.Kind == gym.RepoModule {
			t.Errorf("%s resolved through a link out of the root: %+v", name, s)
		}
	}
	if got := v.ModuleFile("resources_servers/x/importer.py", 0, "evil"); got != "" {
		t.Errorf("ModuleFile(evil) = %q", got)
	}
	assertHealthy(t, v)
}

func TestDiagSymlinkLoops(t *testing.T) {
	root := writeRepo(t, withHealthy(map[string]string{
		"resources_servers/x/configs/x.yaml": yamlServer("loop", "resources_servers", "x", "a.py"),
		"resources_servers/x/importer.py":    "from resources_servers.x.a import A\n",
		"resources_servers/x/configs/i.yaml": yamlServer("imp", "resources_servers", "x", "importer.py"),
	}))
	symlink(t, root, "resources_servers/x/a.py", "b.py")
	symlink(t, root, "resources_servers/x/b.py", "a.py")
	symlink(t, root, "resources_servers/y/app.py", "other.py")
	symlink(t, root, "resources_servers/y/other.py", "app.py")
	symlink(t, root, "configs/self.yaml", "self.yaml")
	// A directory loop inside the root.
	symlink(t, root, "resources_servers/x/loop", "..")
	symlink(t, root, "resources_servers/x/up", "../..")

	v := buildWithin(t, 20*time.Second, root, gym.Options{})
	d := findDiag(t, v, "GL002", "resources_servers/x/configs/x.yaml")
	if d.Start.Line != 4 || !strings.Contains(d.Message, "loop") {
		t.Errorf("GL002 for the config: %d %q", d.Start.Line, d.Message)
	}
	d = findDiag(t, v, "GL002", "resources_servers/y/app.py")
	if !strings.Contains(d.Message, "loop") {
		t.Errorf("GL002 for app.py: %q", d.Message)
	}
	findDiag(t, v, "GL002", "configs/self.yaml")
	y := entry(t, v, "resources_servers/y/app.py")
	if y.Module != nil || len(y.Servers) != 0 {
		t.Errorf("y/app.py: module %v servers %v", y.Module, serverNames(y))
	}
	for _, p := range entryPaths(v) {
		if strings.Contains(p, "loop/") || strings.Contains(p, "up/") {
			t.Errorf("walked into a directory link: %s", p)
		}
	}
	for _, c := range v.Configs {
		if strings.Contains(c.Path, "loop/") || strings.Contains(c.Path, "up/") {
			t.Errorf("walked into a directory link: %s", c.Path)
		}
	}
	imp := entry(t, v, "resources_servers/x/importer.py")
	var s gym.Symbol
	within(t, 5*time.Second, "Resolve through a symlink loop", func() { s = v.Resolve(imp.Module, "A") })
	if s.Kind == gym.RepoClass {
		t.Errorf("A resolved through a link loop")
	}
	assertHealthy(t, v)
}

func TestDiagUnreadableContent(t *testing.T) {
	root := writeRepo(t, withHealthy(map[string]string{
		"resources_servers/bin/app.py":           "import os\x00\nclass X:\n    pass\n",
		"resources_servers/latin/configs/l.yaml": "name: caf\xe9\nx:\n  resources_servers:\n    healthy:\n      entrypoint: app.py\n",
		"resources_servers/latin/app.py":         "# caf\xe9\n" + serverModule("Latin"),
		"resources_servers/latin/configs/b.yml":  "a: \x00\n",
	}))
	v := build(t, root, gym.Options{})
	for _, c := range []struct{ path, want string }{
		{"resources_servers/bin/app.py", "binary"},
		{"resources_servers/latin/configs/l.yaml", "UTF-8"},
		{"resources_servers/latin/app.py", "UTF-8"},
		{"resources_servers/latin/configs/b.yml", "binary"},
	} {
		d := findDiag(t, v, "GL002", c.path)
		if !strings.Contains(d.Message, c.want) {
			t.Errorf("%s: message %q does not say %s", c.path, d.Message, c.want)
		}
		if d.Start.Line != 1 || d.Start.Col != 1 {
			t.Errorf("%s: at %d:%d", c.path, d.Start.Line, d.Start.Col)
		}
	}
	// The unreadable YAML's server is not counted.
	if n := len(entry(t, v, healthyPath).Configs); n != 1 {
		t.Errorf("healthy configs = %d", n)
	}
	assertHealthy(t, v)
}

func TestDiagFileTooLarge(t *testing.T) {
	const limit = 2000
	big := serverModule("Big") + "\n# " + strings.Repeat("x", limit) + "\n"
	bigYAML := yamlServer("big", "resources_servers", "big", "app.py") + "# " + strings.Repeat("y", limit) + "\n"
	root := writeRepo(t, withHealthy(map[string]string{
		"resources_servers/big/app.py":            big,
		"resources_servers/big/configs/big.yaml":  bigYAML,
		"resources_servers/small/app.py":          serverModule("Small"),
		"resources_servers/small/configs/ok.yaml": yamlServer("small", "resources_servers", "small", "app.py"),
	}))
	v := build(t, root, gym.Options{MaxFileSize: limit})
	for _, p := range []string{"resources_servers/big/app.py", "resources_servers/big/configs/big.yaml"} {
		d := findDiag(t, v, "GL002", p)
		if !strings.Contains(d.Message, strconv.Itoa(limit)) {
			t.Errorf("%s: message %q does not state the limit %d", p, d.Message, limit)
		}
		if strings.Contains(d.Message, "(0 bytes)") {
			t.Errorf("%s: message states a limit of 0: %q", p, d.Message)
		}
	}
	if e := entry(t, v, "resources_servers/big/app.py"); e.Module != nil {
		t.Errorf("the large module was parsed")
	}
	if got := serverNames(entry(t, v, "resources_servers/small/app.py")); !equalStrings(got, []string{"Small"}) {
		t.Errorf("small servers = %v", got)
	}
	assertHealthy(t, v)

	// The default limit is stated too.
	huge := strings.Repeat("#", 4<<20+1)
	root2 := writeRepo(t, map[string]string{"resources_servers/huge/app.py": huge})
	v2 := build(t, root2, gym.Options{})
	d := findDiag(t, v2, "GL002", "resources_servers/huge/app.py")
	if !strings.Contains(d.Message, strconv.Itoa(4<<20)) {
		t.Errorf("default limit not stated: %q", d.Message)
	}
}

func TestDiagAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= 9; i++ {
		prev := "*a" + strconv.Itoa(i-1)
		b.WriteString("a" + strconv.Itoa(i) + ": &a" + strconv.Itoa(i) + " [" + strings.Repeat(prev+", ", 8) + prev + "]\n")
	}
	b.WriteString(yamlServer("bomb", "resources_servers", "bomb", "app.py"))
	root := writeRepo(t, withHealthy(map[string]string{
		"resources_servers/bomb/configs/bomb.yaml": b.String(),
	}))
	start := time.Now()
	v := buildWithin(t, 20*time.Second, root, gym.Options{})
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("Build took %v on an alias bomb", el)
	}
	d := findDiag(t, v, "GL003", "resources_servers/bomb/configs/bomb.yaml")
	if d.Rule != "invalid-config" {
		t.Errorf("rule %s", d.Rule)
	}
	assertHealthy(t, v)
}

func TestDiagInvalidYAML(t *testing.T) {
	root := writeRepo(t, withHealthy(map[string]string{
		"resources_servers/a/configs/syntax.yaml": "a:\n  b: [unclosed\n  c: d\n",
		"resources_servers/a/configs/bad_ep.yaml": "x:\n  resources_servers:\n    a:\n      entrypoint: [app.py]\n",
	}))
	v := build(t, root, gym.Options{})
	findDiag(t, v, "GL003", "resources_servers/a/configs/syntax.yaml")
	d := findDiag(t, v, "GL003", "resources_servers/a/configs/bad_ep.yaml")
	if d.Start.Line != 4 {
		t.Errorf("bad entrypoint at line %d, want 4", d.Start.Line)
	}
	assertHealthy(t, v)
}

func TestDiagDuplicateKey(t *testing.T) {
	cfg := "agent:\n  responses_api_agents:\n    swe:\n      entrypoint: app.py\n      datasets: []\n      datasets: []\n"
	root := writeRepo(t, withHealthy(map[string]string{
		"responses_api_agents/swe/app.py":           serverModule("Swe"),
		"responses_api_agents/swe/configs/swe.yaml": cfg,
	}))
	v := build(t, root, gym.Options{})
	d := findDiag(t, v, "GL004", "responses_api_agents/swe/configs/swe.yaml")
	if d.Start.Line != 6 || d.Start.Col != 7 {
		t.Errorf("GL004 at %d:%d, want 6:7", d.Start.Line, d.Start.Col)
	}
	if !strings.Contains(d.Message, "datasets") {
		t.Errorf("GL004 message %q", d.Message)
	}
	// The config still counts.
	if e := entry(t, v, "responses_api_agents/swe/app.py"); len(e.Configs) != 1 {
		t.Errorf("swe configs = %d", len(e.Configs))
	}
	assertHealthy(t, v)
}

func TestDiagSyntaxError(t *testing.T) {
	root := writeRepo(t, withHealthy(map[string]string{
		"resources_servers/broken/app.py":         importSRS + "\n\nclass Broken(SimpleResourcesServer:\n    pass\n",
		"resources_servers/broken/configs/b.yaml": yamlServer("broken", "resources_servers", "broken", "app.py"),
		// The syntax error is in the parent module.
		"resources_servers/parent/base.py": importSRS + "\n\nclass Parent(SimpleResourcesServer):\n    pass\n\n\nx = (\n",
		"resources_servers/child/app.py": "from resources_servers.parent.base import Parent\n\n\nclass Child(Parent):\n    pass\n" +
			"\nif __name__ == \"__main__\":\n    Child.run_webserver()\n",
		"resources_servers/child2/app.py": "from resources_servers.parent.base import Parent\n\n\nclass Child2(Parent):\n    pass\n",
	}))
	res, err := lint.Run(root, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := res.View
	d := findDiag(t, v, "GL001", "resources_servers/broken/app.py")
	if d.Start.Line != 4 {
		t.Errorf("GL001 at line %d, want 4", d.Start.Line)
	}
	if d.Rule != "python-syntax-error" || d.Severity != diag.Error {
		t.Errorf("GL001 metadata %+v", d)
	}
	// Reported once, although two modules import the parent.
	if n := countDiags(v.Diagnostics(), "GL001", "resources_servers/parent/base.py"); n != 1 {
		t.Errorf("GL001 for the parent reported %d times, want 1:\n%s", n, dumpDiags(v.Diagnostics()))
	}
	for _, d := range res.Diagnostics {
		if d.Analyzer == "workers" && (strings.HasPrefix(d.Path, "resources_servers/broken/") || strings.HasPrefix(d.Path, "resources_servers/child")) {
			t.Errorf("workers finding for a module whose analysis rests on a syntax error: %s %s", d.Path, d.Message)
		}
	}
	// The broken entrypoint is still an entrypoint with its config.
	if e := entry(t, v, "resources_servers/broken/app.py"); e.Module == nil || e.Module.SyntaxError == nil || len(e.Configs) != 1 {
		t.Errorf("broken entrypoint: %+v", e)
	}
	// The healthy server gets its workers finding (it has no app and no
	// override), so the scan went on.
	if countDiags(res.Diagnostics, "GL101", healthyPath) != 1 {
		t.Errorf("no GL101 for the healthy server:\n%s", dumpDiags(res.Diagnostics))
	}
	assertHealthy(t, v)
}

func countDiags(ds []diag.Diagnostic, code, p string) int {
	n := 0
	for _, d := range ds {
		if d.Code == code && d.Path == p {
			n++
		}
	}
	return n
}

func TestDiagExemptions(t *testing.T) {
	root := writeRepo(t, withHealthy(map[string]string{
		"resources_servers/gymnasium/base.py":          serverModule("GymnasiumServer"),
		"resources_servers/gymnasium/configs/gym.yaml": yamlServer("g", "resources_servers", "gymnasium", "base.py"),
		"resources_servers/search/library.py":          "x = 1\n",
	}))
	cfgPos := diag.Pos{Offset: 40, Line: 3, Col: 11}
	v := build(t, root, gym.Options{Exemptions: []gym.Exemption{
		{Path: "./resources_servers/gymnasium/base.py", Reason: "base class", Source: ".gymlint.yaml", Pos: diag.Pos{Offset: 10, Line: 2, Col: 11}},
		{Path: "resources_servers/search/library.py", Reason: "renamed", Source: ".gymlint.yaml", Pos: cfgPos},
		{Path: "resources_servers/gone.py", Reason: "flag", Flag: true},
		{Path: healthyPath, Reason: "flag", Flag: true},
	}})
	g := entry(t, v, "resources_servers/gymnasium/base.py")
	if g.Exemption == nil || g.Exemption.Reason != "base class" {
		t.Errorf("./ exemption did not match: %+v", g.Exemption)
	}
	if e := entry(t, v, healthyPath); e.Exemption == nil || !e.Exemption.Flag {
		t.Errorf("flag exemption did not match the healthy server")
	}
	ds := diagsOf(v, "GL007")
	if len(ds) != 2 {
		t.Fatalf("GL007 = %d, want 2:\n%s", len(ds), dumpDiags(v.Diagnostics()))
	}
	var fromCfg, fromFlag *diag.Diagnostic
	for i := range ds {
		switch ds[i].Path {
		case ".gymlint.yaml":
			fromCfg = &ds[i]
		case "resources_servers/gone.py":
			fromFlag = &ds[i]
		}
	}
	if fromCfg == nil || fromCfg.Start != cfgPos || !strings.Contains(fromCfg.Message, "resources_servers/search/library.py") {
		t.Errorf("config GL007 = %+v", fromCfg)
	}
	if fromCfg != nil && fromCfg.Severity != diag.Warning {
		t.Errorf("GL007 severity %s", fromCfg.Severity)
	}
	if fromFlag == nil || !strings.Contains(fromFlag.Message, "--exempt") || fromFlag.Start.Line != 1 {
		t.Errorf("flag GL007 = %+v", fromFlag)
	}
}

// After Close, a module that was never parsed cannot be loaded; asking for
// it must fail, not block for ever.
func TestModuleAfterClose(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/a/app.py":   serverModule("A"),
		"resources_servers/a/later.py": "class Later:\n    pass\n",
	})
	v, err := gym.Build(root, gym.Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	v.Close()
	v.Close() // twice is fine
	within(t, 3*time.Second, "Module after Close", func() {
		m, err := v.Module("resources_servers/a/later.py")
		if err == nil && m != nil && len(m.Classes) != 1 {
			t.Errorf("Module after Close = %+v", m)
		}
	})
}

// Star imports that form a cycle must not make resolution blow up: each
// module star-imports the two others, so a name none defines is looked for
// along every path of the import graph up to the depth bound.
func TestResolveStarImportWeb(t *testing.T) {
	runIsolated(t, 10*time.Second, func(t *testing.T) {
		files := map[string]string{
			"resources_servers/web/m0.py":  "from m1 import *\nfrom m2 import *\n",
			"resources_servers/web/m1.py":  "from m0 import *\nfrom m2 import *\n",
			"resources_servers/web/m2.py":  "from m0 import *\nfrom m1 import *\n",
			"resources_servers/web/app.py": importSRS + "from m0 import Nowhere\n\n\nclass S(Nowhere, SimpleResourcesServer):\n    pass\n",
		}
		v := build(t, writeRepo(t, files), gym.Options{})
		e := entry(t, v, "resources_servers/web/app.py")
		if got := serverNames(e); !equalStrings(got, []string{"S"}) {
			t.Errorf("servers = %v", got)
		}
	})
}

// A lattice of repository classes (each level inheriting from both classes
// of the level below, which Python accepts) must not make the MRO
// exponential.
func TestMROLatticeIsNotExponential(t *testing.T) {
	runIsolated(t, 10*time.Second, func(t *testing.T) {
		var src strings.Builder
		src.WriteString(importSRS + "\n\nclass A0(SimpleResourcesServer):\n    pass\n\n\nclass B0(SimpleResourcesServer):\n    pass\n")
		const levels = 20
		for i := 1; i <= levels; i++ {
			p := strconv.Itoa(i - 1)
			s := strconv.Itoa(i)
			src.WriteString("\n\nclass A" + s + "(A" + p + ", B" + p + "):\n    pass\n\n\nclass B" + s + "(A" + p + ", B" + p + "):\n    pass\n")
		}
		src.WriteString("\n\nclass Top(A" + strconv.Itoa(levels) + "):\n    pass\n")
		v := build(t, writeRepo(t, map[string]string{"resources_servers/lattice/app.py": src.String()}), gym.Options{})
		e := entry(t, v, "resources_servers/lattice/app.py")
		if got := serverNames(e); !equalStrings(got, []string{"B" + strconv.Itoa(levels), "Top"}) {
			t.Errorf("servers = %v", got)
		}
		mro, ok := v.MRO(class(t, e.Module, "Top"))
		if !ok || len(mro) != 2*levels+3 {
			t.Errorf("MRO(Top): ok %v, %d entries, want %d", ok, len(mro), 2*levels+3)
		}
	})
}

// runIsolated runs fn in a child process of the test binary and fails the
// test if the child has not finished after d, killing it. It is for inputs
// that may make gymlint spin: a goroutine left spinning would slow every
// later test.
func runIsolated(t *testing.T, d time.Duration, fn func(t *testing.T)) {
	t.Helper()
	if os.Getenv(isolatedEnv) == t.Name() {
		fn(t)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), isolatedEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	switch {
	case ctx.Err() != nil:
		t.Fatalf("did not finish within %v (child process killed)", d)
	case err != nil:
		t.Fatalf("child process failed: %v\n%s", err, out)
	}
}

const isolatedEnv = "GYMLINT_GYM_TEST_ISOLATED"
