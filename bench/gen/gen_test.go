package gen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

func generate(t *testing.T, servers int, seed int64) (string, Summary) {
	t.Helper()
	dir := t.TempDir()
	sum, err := Generate(dir, Options{Servers: servers, Seed: seed})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return dir, sum
}

// treeHash hashes every file's path and bytes, in walk (lexical) order.
func treeHash(t *testing.T, root string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		h.Write([]byte(filepath.ToSlash(rel)))
		h.Write([]byte{0})
		h.Write(data)
		h.Write([]byte{0})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, sumA := generate(t, 60, 7)
	b, sumB := generate(t, 60, 7)
	if sumA != sumB {
		t.Errorf("summaries differ for the same seed: %+v vs %+v", sumA, sumB)
	}
	if ha, hb := treeHash(t, a), treeHash(t, b); ha != hb {
		t.Errorf("trees differ for the same seed: %s vs %s", ha, hb)
	}
	c, _ := generate(t, 60, 8)
	if treeHash(t, a) == treeHash(t, c) {
		t.Error("seeds 7 and 8 generated the same tree")
	}
}

func TestSummaryMatchesTree(t *testing.T) {
	const servers = 80
	root, sum := generate(t, servers, 3)
	var got Summary
	got.Servers = servers
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch filepath.Ext(path) {
		case ".py":
			got.PyFiles++
			got.PyBytes += info.Size()
		case ".yaml", ".yml":
			got.YAMLFiles++
			got.YAMLBytes += info.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got != sum {
		t.Errorf("summary %+v, tree has %+v", sum, got)
	}

	counts := map[string]int{}
	for _, typ := range []string{typeResources, typeAgents, typeModels} {
		dirs, err := os.ReadDir(filepath.Join(root, typ))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range dirs {
			counts[typ]++
			for _, f := range []string{"app.py", "requirements.txt", "tests/test_app.py"} {
				if _, err := os.Stat(filepath.Join(root, typ, d.Name(), f)); err != nil {
					t.Errorf("%s/%s: %v", typ, d.Name(), err)
				}
			}
			cfgs, _ := filepath.Glob(filepath.Join(root, typ, d.Name(), "configs", "*.yaml"))
			if len(cfgs) == 0 {
				t.Errorf("%s/%s has no configs/*.yaml", typ, d.Name())
			}
			tests, _ := filepath.Glob(filepath.Join(root, typ, d.Name(), "tests", "test_*.py"))
			if len(tests) < 1 || len(tests) > 3 {
				t.Errorf("%s/%s has %d test files, want 1-3", typ, d.Name(), len(tests))
			}
		}
	}
	if n := counts[typeResources] + counts[typeAgents] + counts[typeModels]; n != servers {
		t.Errorf("%d server dirs, want %d (%v)", n, servers, counts)
	}
	if counts[typeResources] != 52 || counts[typeAgents] != 22 || counts[typeModels] != 6 {
		t.Errorf("split %v, want 52/22/6 (65%%/27%%/8%%)", counts)
	}
	for _, f := range []string{"nemo_gym/server_utils.py", "nemo_gym/base_resources_server.py",
		"nemo_gym/base_responses_api_agent.py", "nemo_gym/base_responses_api_model.py",
		"responses_api_agents/simple_agent/app.py", "responses_api_models/vllm_model/app.py"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestGenerateRejectsBadInput(t *testing.T) {
	if _, err := Generate(t.TempDir(), Options{Servers: 2}); err == nil {
		t.Error("Servers=2: want an error")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Generate(dir, Options{Servers: 10}); err == nil {
		t.Error("non-empty dir: want an error")
	}
	if _, err := Generate(filepath.Join(dir, "missing"), Options{Servers: 10}); err == nil {
		t.Error("missing dir: want an error")
	}
}

// pythonCheck parses every .py file under argv[1] with ast and prints the
// failures, one per line.
const pythonCheck = `
import ast, os, sys
n = 0
for root, dirs, files in os.walk(sys.argv[1]):
    dirs[:] = sorted(d for d in dirs if not d.startswith("."))
    for f in sorted(files):
        if f.endswith(".py"):
            p = os.path.join(root, f)
            n += 1
            try:
                with open(p, "rb") as fh:
                    ast.parse(fh.read(), p)
            except SyntaxError as e:
                print(f"{p}:{e.lineno}: {e.msg}")
print(f"parsed {n}", file=sys.stderr)
`

func TestGeneratedPythonParses(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	root, sum := generate(t, 50, 1)
	cmd := exec.Command(python, "-c", pythonCheck, root)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, stderr.String())
	}
	if len(out) > 0 {
		t.Errorf("files that ast.parse rejects:\n%s", out)
	}
	if want := "parsed " + itoa(sum.PyFiles); !strings.Contains(stderr.String(), want) {
		t.Errorf("python3 said %q, want %q", stderr.String(), want)
	}
}

// TestGeneratedConfigs decodes every YAML file, resolves merge keys, and
// checks that each entrypoint a config names exists.
func TestGeneratedConfigs(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 120-server repository")
	}
	root, _ := generate(t, 120, 5)
	var entrypoints, merged, inherit, envs, benchFiles int
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(path); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var node yaml.Node
		if err := yaml.Unmarshal(data, &node); err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		var doc map[string]any
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		text := string(data)
		if strings.Contains(text, "<<: *") {
			merged++
		}
		if strings.Contains(text, "_inherit_from:") {
			inherit++
		}
		if strings.Contains(text, "${oc.env:") {
			envs++
		}
		isBench := strings.HasPrefix(rel, "benchmarks/")
		if isBench {
			benchFiles++
		}
		for _, inst := range doc {
			types, ok := inst.(map[string]any)
			if !ok {
				continue
			}
			for typ, dirs := range types {
				dm, ok := dirs.(map[string]any)
				if !ok || strings.HasPrefix(typ, "_") {
					continue
				}
				for dir, settings := range dm {
					sm, ok := settings.(map[string]any)
					if !ok {
						continue
					}
					ep, ok := sm["entrypoint"].(string)
					if !ok {
						continue
					}
					if isBench {
						t.Errorf("%s: benchmark config names entrypoint %s", rel, ep)
					}
					entrypoints++
					if _, err := os.Stat(filepath.Join(root, typ, dir, ep)); err != nil {
						t.Errorf("%s: entrypoint %s/%s/%s: %v", rel, typ, dir, ep, err)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if entrypoints < 120 {
		t.Errorf("%d config entries with an entrypoint, want at least one per server", entrypoints)
	}
	if merged == 0 || inherit == 0 || envs == 0 || benchFiles == 0 {
		t.Errorf("merge keys in %d files, _inherit_from in %d, ${oc.env:} in %d, benchmark configs %d: want each > 0",
			merged, inherit, envs, benchFiles)
	}
}

// TestGeneratedShapes checks that the entrypoints contain the shapes the
// brief asks for, in roughly the asked proportions.
func TestGeneratedShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 400-server repository")
	}
	const servers = 400
	root, _ := generate(t, servers, 11)
	apps, err := filepath.Glob(filepath.Join(root, "*", "*", "app.py"))
	if err != nil || len(apps) != servers {
		t.Fatalf("%d app.py files (%v), want %d", len(apps), err, servers)
	}
	shapes := []struct {
		name     string
		re       *regexp.Regexp
		min, max int // percent of entrypoints, inclusive
	}{
		{"main guard", regexp.MustCompile(`(?m)^if __name__ == "__main__":\r?\n    \w+\.run_webserver\(\)`), 100, 100},
		{"elif app", regexp.MustCompile(`(?m)^elif is_nemo_gym_fastapi_entrypoint\(__file__\):\r?\n    app = \w+\.run_webserver\(\)`), 2, 10},
		{"refusal override", regexp.MustCompile(`def multiple_workers_unsupported_reason\(self\)`), 1, 7},
		{"cross-dir parent", regexp.MustCompile(`(?m)^from (resources_servers|responses_api_agents|responses_api_models)\.\w+\.app import`), 9, 22},
		{"subscripted base", regexp.MustCompile(`(?m)^class \w+\(\w+\[\w+, \w+\]\):`), 0, 5},
		{"bare sibling import", regexp.MustCompile(`(?m)^(    )?from (` + strings.Join(helperModuleNames, "|") + `) import`), 8, 40},
		{"import ray", regexp.MustCompile(`(?m)^import ray`), 1, 10},
		{"local app in setup_webserver", regexp.MustCompile(`(?m)^        app = super\(\)\.setup_webserver\(\)`), 30, 80},
	}
	for _, sh := range shapes {
		n := 0
		for _, p := range apps {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if sh.re.Match(data) {
				n++
			}
		}
		pct := n * 100 / servers
		if n == 0 || pct < sh.min || pct > sh.max {
			t.Errorf("%s: %d of %d entrypoints (%d%%), want %d-%d%% and at least one", sh.name, n, servers, pct, sh.min, sh.max)
		}
	}

	var total int64
	for _, p := range apps {
		info, _ := os.Stat(p)
		total += info.Size()
	}
	if mean := total / servers; mean < 15000 || mean > 21000 {
		t.Errorf("mean entrypoint size %d bytes, want 15-21 KB", mean)
	}
}
