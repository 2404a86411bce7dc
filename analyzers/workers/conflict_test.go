//go:build ignore

package workers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
)

// conflictServer is a resources server at resources_servers/<dir>/app.py
// whose refusal method has the given body.
func conflictServer(body string) string {
	return rfMethod(body) + "\n\nif __name__ == \"__main__\":\n    EchoServer.run_webserver()\n"
}

// conflictConfig is a config for resources_servers/<dir> with extra
// settings lines (6 spaces of indentation each).
func conflictConfig(dir string, settings ...string) string {
	s := "echo_instance:\n  resources_servers:\n    " + dir + ":\n      entrypoint: app.py\n      domain: other\n"
	for _, l := range settings {
		s += "      " + l + "\n"
	}
	return s
}

type conflictWant struct {
	at       string   // path:line:col
	contains []string // message fragments
	related  []string // related "path:line"
}

func TestRefusedNumWorkers(t *testing.T) {
	always := conflictServer(`        return "Episodes are kept in memory by the env_id in the request body."`)
	prometheus := conflictServer("        if self.config.metrics_source == \"prometheus\":\n            return \"The window starts from a metrics snapshot in memory.\"\n        return None")
	comet := conflictServer("        if not self.config.compute_comet:\n            return None\n        return \"Each worker builds its own Ray GPU actor pool for COMET.\"")
	noResources := conflictServer("        if self.config.resources_server is None:\n            return \"Episode sessions are process-local.\"\n        return None")
	cohort := conflictServer("        if self.config.num_rollouts_per_prompt > 1:\n            return \"It collects a prompt's rollouts in memory.\"\n        return None")
	const app = "resources_servers/echo/app.py"
	const cfg = "resources_servers/echo/configs/echo.yaml"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []conflictWant
	}{
		{
			name:  "unconditional refusal, int",
			files: map[string]string{app: always, cfg: conflictConfig("echo", "num_workers: 4")},
			want: []conflictWant{{at: cfg + ":6:20", contains: []string{
				"num_workers: 4 in echo_instance.resources_servers.echo asks for 4 workers",
				"EchoServer.multiple_workers_unsupported_reason() always returns a reason",
				`run_webserver refuses to start with "Episodes are kept in memory by the env_id in the request body."`,
				"set num_workers: 1 or remove it",
				"make the server safe with several workers and drop the refusal",
			}, related: []string{app + ":8"}}},
		},
		{
			name:  "unconditional refusal, a string that is an int",
			files: map[string]string{app: always, cfg: conflictConfig("echo", `num_workers: "16"`)},
			want:  []conflictWant{{at: cfg + ":6:20", contains: []string{`num_workers: "16" in echo_instance.resources_servers.echo asks for 16 workers`}}},
		},
		{name: "num_workers: 1", files: map[string]string{app: always, cfg: conflictConfig("echo", "num_workers: 1")}},
		{name: `num_workers: "1"`, files: map[string]string{app: always, cfg: conflictConfig("echo", `num_workers: "1"`)}},
		{name: "num_workers: 0", files: map[string]string{app: always, cfg: conflictConfig("echo", "num_workers: 0")}},
		{name: "num_workers: null", files: map[string]string{app: always, cfg: conflictConfig("echo", "num_workers: null")}},
		{name: "interpolation", files: map[string]string{app: always, cfg: conflictConfig("echo", "num_workers: ${oc.env:NUM_WORKERS,4}")}},
		{name: "float", files: map[string]string{app: always, cfg: conflictConfig("echo", "num_workers: 4.0")}},
		{name: "no refusal", files: map[string]string{app: conflictServer("        return None"), cfg: conflictConfig("echo", "num_workers: 4")}},
		{
			name:  "condition made true by the YAML",
			files: map[string]string{app: prometheus, cfg: conflictConfig("echo", "metrics_source: prometheus", "num_workers: 4")},
			want: []conflictWant{{at: cfg + ":7:20", contains: []string{
				`returns a reason when self.config.metrics_source == "prometheus", and this config sets metrics_source: prometheus`,
				`refuses to start with "The window starts from a metrics snapshot in memory."`,
				"set num_workers: 1 or remove it, or change metrics_source, or make the server safe",
			}, related: []string{app + ":8", cfg + ":6"}}},
		},
		{name: "condition made false by the YAML", files: map[string]string{app: prometheus, cfg: conflictConfig("echo", "metrics_source: responses", "num_workers: 4")}},
		{name: "condition on a field the YAML does not set", files: map[string]string{app: prometheus, cfg: conflictConfig("echo", "num_workers: 4")}},
		{name: "condition on an interpolated field", files: map[string]string{app: prometheus, cfg: conflictConfig("echo", "metrics_source: ${oc.env:SRC}", "num_workers: 4")}},
		{
			name:  "truthiness true",
			files: map[string]string{app: comet, cfg: conflictConfig("echo", "compute_comet: true", "num_workers: 2")},
			want:  []conflictWant{{at: cfg + ":7:20", contains: []string{"when self.config.compute_comet, and this config sets compute_comet: true"}}},
		},
		{name: "truthiness false", files: map[string]string{app: comet, cfg: conflictConfig("echo", "compute_comet: false", "num_workers: 2")}},
		{
			name:  "is None with null",
			files: map[string]string{app: noResources, cfg: conflictConfig("echo", "resources_server: null", "num_workers: 2")},
			want:  []conflictWant{{at: cfg + ":7:20", contains: []string{"this config sets resources_server: null"}}},
		},
		{name: "is None with a mapping", files: map[string]string{app: noResources, cfg: conflictConfig("echo", "resources_server: {type: resources_servers, name: x}", "num_workers: 2")}},
		{
			name:  "greater than, true",
			files: map[string]string{app: cohort, cfg: conflictConfig("echo", "num_rollouts_per_prompt: 8", "num_workers: 2")},
			want:  []conflictWant{{at: cfg + ":7:20", contains: []string{"when self.config.num_rollouts_per_prompt > 1, and this config sets num_rollouts_per_prompt: 8"}}},
		},
		{name: "greater than, false", files: map[string]string{app: cohort, cfg: conflictConfig("echo", "num_rollouts_per_prompt: 1", "num_workers: 2")}},
		{name: "delegating refusal", files: map[string]string{app: conflictServer("        return self._why()"), cfg: conflictConfig("echo", "num_workers: 4")}},
		{
			name: "override without entrypoint, matched to the dir's app.py",
			files: map[string]string{
				app:                          always,
				cfg:                          conflictConfig("echo"),
				"benchmarks/big/config.yaml": "config_paths:\n  - resources_servers/echo/configs/echo.yaml\necho_instance:\n  resources_servers:\n    echo:\n      num_workers: 16\n",
			},
			want: []conflictWant{{at: "benchmarks/big/config.yaml:6:20", contains: []string{
				"(an override without entrypoint, applied to resources_servers/echo/app.py)",
			}}},
		},
		{
			name: "override of a dir without app.py",
			files: map[string]string{
				"resources_servers/echo/lite_app.py":       always,
				"resources_servers/echo/configs/echo.yaml": "echo_instance:\n  resources_servers:\n    echo:\n      entrypoint: lite_app.py\n",
				"benchmarks/big/config.yaml":               "echo_instance:\n  resources_servers:\n    echo:\n      num_workers: 16\n",
			},
		},
		{
			name: "a value shared through a merge key is reported once",
			files: map[string]string{
				app: always,
				cfg: "base: &base\n  entrypoint: app.py\n  num_workers: 4\none:\n  resources_servers:\n    echo:\n      <<: *base\ntwo:\n  resources_servers:\n    echo:\n      <<: *base\n",
			},
			want: []conflictWant{{at: cfg + ":3:16", contains: []string{"num_workers: 4 in one.resources_servers.echo", "(the value comes in through a << merge key) (the same value also configures two)"}}},
		},
		{
			name: "a server class from another module",
			files: map[string]string{
				app:                                  always,
				"resources_servers/echo/lite_app.py": "from resources_servers.echo.app import EchoServer\n\nif __name__ == \"__main__\":\n    EchoServer.run_webserver()\n",
				cfg:                                  "lite:\n  resources_servers:\n    echo:\n      entrypoint: lite_app.py\n      num_workers: 3\n",
			},
			want: []conflictWant{{at: cfg + ":5:20", related: []string{app + ":8"}}},
		},
		{
			// helpers.Missing comes before Parent in the MRO and might define
			// the method itself.
			name: "uncertain ancestry",
			files: map[string]string{
				app:                                 rfHeader + "from resources_servers.echo import helpers\n\n\nclass Parent(SimpleResourcesServer):\n    def multiple_workers_unsupported_reason(self):\n        return \"r\"\n\n\nclass EchoServer(helpers.Missing, Parent):\n    pass\n",
				"resources_servers/echo/helpers.py": "X = 1\n",
				cfg:                                 conflictConfig("echo", "num_workers: 4"),
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := rfRun(t, runRefusedNumWorkers, tc.files)
			conflictCheck(t, ds, tc.want, "GL104", "refused-num-workers", diag.Error)
		})
	}
}

func conflictCheck(t *testing.T, ds []diag.Diagnostic, want []conflictWant, code, name string, sev diag.Severity) {
	t.Helper()
	if len(ds) != len(want) {
		var got []string
		for _, d := range ds {
			got = append(got, fmt.Sprintf("%s:%d:%d %s", d.Path, d.Start.Line, d.Start.Col, d.Message))
		}
		t.Fatalf("got %d findings, want %d:\n%s", len(ds), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		d := ds[i]
		if d.Code != code || d.Rule != name || d.Analyzer != "workers" || d.Severity != sev {
			t.Errorf("metadata: %+v", d)
		}
		if at := fmt.Sprintf("%s:%d:%d", d.Path, d.Start.Line, d.Start.Col); at != w.at {
			t.Errorf("finding %d at %s, want %s (%s)", i, at, w.at, d.Message)
		}
		for _, frag := range w.contains {
			if !strings.Contains(d.Message, frag) {
				t.Errorf("message %q lacks %q", d.Message, frag)
			}
		}
		if w.related != nil {
			var rel []string
			for _, r := range d.Related {
				rel = append(rel, fmt.Sprintf("%s:%d", r.Path, r.Start.Line))
			}
			if strings.Join(rel, ",") != strings.Join(w.related, ",") {
				t.Errorf("related %v, want %v", rel, w.related)
			}
		}
	}
}
