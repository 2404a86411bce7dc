package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestResolveGolden checks gymlint resolve on a benchmark that composes a
// server three files deep, inherits it, copies a model and overrides both.
// Regenerate with: go test ./cli -run TestResolveGolden -update
func TestResolveGolden(t *testing.T) {
	root := filepath.Join("testdata", "resolverepo")
	file := filepath.Join(root, "benchmarks", "quiz", "config.yaml")
	for _, tc := range []struct{ format, golden string }{
		{"yaml", "resolverepo.golden.yaml"},
		{"json", "resolverepo.golden.json"},
	} {
		out, errOut, code := run(t, "resolve", "--format", tc.format, "--root", root, file)
		if code != ExitClean || errOut != "" {
			t.Fatalf("%s: exit %d, stderr %q", tc.format, code, errOut)
		}
		golden := filepath.Join("testdata", tc.golden)
		if *update {
			if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("%s output differs from %s (go test ./cli -run TestResolveGolden -update):\n%s", tc.format, golden, out)
		}
		if tc.format == "json" {
			var v jsonRun
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// The shape of gymlint resolve --format json, for the tests that read it.
type jsonNode struct {
	Origin        string      `json:"origin"`
	Kind          string      `json:"kind"`
	Tag           string      `json:"tag,omitempty"`
	Value         *string     `json:"value,omitempty"`
	Interpolation bool        `json:"interpolation,omitempty"`
	Inherited     string      `json:"inherited_from,omitempty"`
	Copied        string      `json:"copied_from,omitempty"`
	Pairs         []jsonPair  `json:"pairs,omitempty"`
	Items         []*jsonNode `json:"items,omitempty"`
}

type jsonPair struct {
	Key       string    `json:"key"`
	KeyOrigin string    `json:"key_origin"`
	Value     *jsonNode `json:"value"`
}

type jsonRun struct {
	Files    []string                 `json:"files"`
	Merge    []string                 `json:"merge_order"`
	Includes map[string][]jsonInclude `json:"includes"`
	Config   *jsonNode                `json:"config"`
	Problems []jsonProblem            `json:"problems"`
}

func TestResolveProblemsAndErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.yaml", "config_paths: [b.yaml, gone.yaml]\n")
	write("b.yaml", "config_paths: [a.yaml]\nx: 1\n")
	out, errOut, code := run(t, "resolve", "--root", dir, filepath.Join(dir, "a.yaml"))
	if code != ExitFindings || errOut != "" ||
		!strings.Contains(out, "#   b.yaml:1: include-cycle: config_paths includes a.yaml, which includes this file (a.yaml -> b.yaml -> a.yaml)") ||
		!strings.Contains(out, "#   a.yaml:1: include-missing: config_paths entry \"gone.yaml\" names no file: Gym stops with ConfigPathNotFoundError [stops the run]") {
		t.Errorf("exit %d, stderr %q, out:\n%s", code, errOut, out)
	}
	if _, errOut, code := run(t, "resolve", "--format", "toml", filepath.Join(dir, "a.yaml")); code != ExitError || !strings.Contains(errOut, "unknown --format") {
		t.Errorf("bad format: %d %q", code, errOut)
	}
	if _, errOut, code := run(t, "resolve", "--root", dir); code != ExitError || !strings.Contains(errOut, "expected at least one config file") {
		t.Errorf("no file: %d %q", code, errOut)
	}
	if _, errOut, code := run(t, "resolve", "--root", filepath.Join(dir, "sub"), filepath.Join(dir, "a.yaml")); code != ExitError || errOut == "" {
		t.Errorf("outside root: %d %q", code, errOut)
	}
}

// deepConfig is a config whose server settings nest a mapping depth levels
// deep, in flow style: {k: {k: ... {k: 1} ...}}.
func deepConfig(depth int) string {
	return "deep:\n  resources_servers:\n    deep:\n      entrypoint: app.py\n      nest: " +
		strings.Repeat("{k: ", depth) + "1" + strings.Repeat("}", depth) + "\n"
}

// TestResolveDeepIsLinear checks that gymlint resolve prints a deep config
// in bytes proportional to its depth, in both formats (indentation that
// grows with the depth made it quadratic: a 200 KB config printed 400 MB),
// and that the YAML still reads back as the same config.
func TestResolveDeepIsLinear(t *testing.T) {
	dir := t.TempDir()
	size := map[string]map[int]int{"yaml": {}, "json": {}}
	for _, depth := range []int{300, 600} {
		file := filepath.Join(dir, fmt.Sprintf("deep%d.yaml", depth))
		if err := os.WriteFile(file, []byte(deepConfig(depth)), 0o644); err != nil {
			t.Fatal(err)
		}
		for format := range size {
			out, errOut, code := run(t, "resolve", "--format", format, "--root", dir, file)
			if code != ExitClean || errOut != "" {
				t.Fatalf("%s, depth %d: exit %d, stderr %q", format, depth, code, errOut)
			}
			size[format][depth] = len(out)
			// Both formats read back (JSON is YAML) as the same config.
			var v any
			if err := yaml.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("%s, depth %d: the output does not read back: %v", format, depth, err)
			}
			if format == "yaml" {
				n := v.(map[string]any)["deep"].(map[string]any)["resources_servers"].(map[string]any)["deep"].(map[string]any)["nest"]
				got := 0
				for {
					m, ok := n.(map[string]any)
					if !ok {
						break
					}
					n = m["k"]
					got++
				}
				if got != depth || n != 1 {
					t.Errorf("yaml, depth %d: read back %d levels down to %v", depth, got, n)
				}
			}
		}
	}
	for format, s := range size {
		// Twice the depth, twice the bytes (and a little more for the
		// longer line numbers): quadratic output would be four times.
		if ratio := float64(s[600]) / float64(s[300]); ratio > 2.2 {
			t.Errorf("%s: %d levels print %d bytes, %d levels %d bytes: %.2f times as much, not linear", format, 300, s[300], 600, s[600], ratio)
		}
	}
}

// TestResolveDeepJSON checks that the JSON of a config deeper than
// encoding/json's indenter accepts (10,000 JSON levels, three a level of
// the config) is written, not "exceeded max depth".
func TestResolveDeepJSON(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "deep.yaml")
	const depth = 3500
	if err := os.WriteFile(file, []byte(deepConfig(depth)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run(t, "resolve", "--format", "json", "--root", dir, file)
	if code != ExitClean || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if opens, closes := strings.Count(out, "{"), strings.Count(out, "}"); opens != closes || opens < 2*depth || !strings.HasSuffix(out, "\n}\n") {
		t.Errorf("%d { and %d }, output ends %q", opens, closes, out[max(0, len(out)-40):])
	}
}

// TestResolveFindsTheRoot checks that gymlint resolve FILE, run from a
// directory below the repository's root, finds the root as the check
// does (the includes of config_paths are relative to it), gives what it
// gives with --root, and that --root still chooses the root.
func TestResolveFindsTheRoot(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("testdata", "resolverepo"))
	if err != nil {
		t.Fatal(err)
	}
	want, errOut, code := run(t, "resolve", "--root", root, filepath.Join(root, "benchmarks", "quiz", "config.yaml"))
	if code != ExitClean || errOut != "" || strings.Contains(want, "include-missing") {
		t.Fatalf("with --root: exit %d, stderr %q:\n%s", code, errOut, want)
	}
	for _, tc := range []struct{ dir, file string }{
		{"benchmarks/quiz", "config.yaml"},
		{"benchmarks", "quiz/config.yaml"},
		{"resources_servers/quiz/configs", "../../../benchmarks/quiz/config.yaml"},
		{".", "benchmarks/quiz/config.yaml"},
	} {
		t.Chdir(filepath.Join(root, filepath.FromSlash(tc.dir)))
		out, errOut, code := run(t, "resolve", filepath.FromSlash(tc.file))
		if code != ExitClean || errOut != "" || out != want {
			t.Errorf("from %s, resolve %s: exit %d, stderr %q, output:\n%s\nwant what --root gives:\n%s", tc.dir, tc.file, code, errOut, out, want)
		}
	}
	// --root chooses the root: here the file's directory, where the
	// includes are not.
	t.Chdir(filepath.Join(root, "benchmarks", "quiz"))
	out, _, code := run(t, "resolve", "--root", ".", "config.yaml")
	if code != ExitFindings || !strings.Contains(out, `include-missing: config_paths entry "benchmarks/quiz/tuning.yaml" names no file`) {
		t.Errorf("--root . from benchmarks/quiz: exit %d, output:\n%s", code, out)
	}
	// With nothing marking a root above the file, the current directory
	// is the root, as before.
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for p, s := range map[string]string{"sub/a.yaml": "config_paths: [b.yaml]\n", "b.yaml": "x: 1\n"} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	if out, errOut, code := run(t, "resolve", filepath.Join("sub", "a.yaml")); code != ExitClean || errOut != "" || !strings.Contains(out, "x: 1  # b.yaml:1") {
		t.Errorf("an unmarked tree, from its top: exit %d, stderr %q:\n%s", code, errOut, out)
	}
}
