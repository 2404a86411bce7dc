package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
