package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/bench/gen"
)

// TestServersMermaidTooLarge checks that a Mermaid drawing longer than
// Mermaid renders by default is still printed, with a word on stderr and
// exit 0, and that a small one gets no word.
func TestServersMermaidTooLarge(t *testing.T) {
	files := map[string]string{}
	for i := range 450 {
		dir := fmt.Sprintf("resources_servers/a_rather_long_server_directory_name_%03d", i)
		files[dir+"/app.py"] = cleanServer
		files[dir+"/configs/server.yaml"] = fmt.Sprintf("s%d:\n  resources_servers:\n    a_rather_long_server_directory_name_%03d:\n      entrypoint: app.py\n", i, i)
	}
	root := writeTree(t, files)
	out, errOut, code := run(t, "servers", "--format", "mermaid", root)
	if code != ExitClean || !strings.HasPrefix(out, "flowchart TB\n") || len(out) <= 50000 {
		t.Fatalf("exit %d, %d bytes of output: %s", code, len(out), errOut)
	}
	if !strings.Contains(errOut, fmt.Sprintf("the Mermaid drawing is %d characters, more than the 50000", len(out))) {
		t.Errorf("stderr %q, want the size warning", errOut)
	}
	if _, errOut, _ := run(t, "servers", "--format", "dot", root); strings.Contains(errOut, "Mermaid") {
		t.Errorf("dot has no size limit: %q", errOut)
	}
	small := writeTree(t, map[string]string{"resources_servers/echo/app.py": cleanServer})
	if out, errOut, code := run(t, "servers", "--format", "mermaid", small); code != ExitClean || errOut != "" || !strings.Contains(out, "EchoServer") {
		t.Errorf("small: exit %d, stderr %q, out %q", code, errOut, out)
	}
}

// TestServersReferences checks the references field on the fixture whose
// environment servers bind servers by reference: resolved in the run (a
// benchmark that fills a template's name: ???), among the repository's
// configs, and left out when the name is unknown or of another type.
func TestServersReferences(t *testing.T) {
	out, errOut, code := run(t, "servers", "--format", "json", filepath.Join("..", "testdata", "envrepo"))
	if code != ExitClean {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []struct {
		Path       string `json:"path"`
		References []struct {
			Field, Type, Name, Path, Config string
		} `json:"references"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, r := range rows {
		if r.References == nil {
			t.Errorf("%s: references is null, want a list", r.Path)
		}
		for _, ref := range r.References {
			got[r.Path] = append(got[r.Path], fmt.Sprintf("%s=%s/%s->%s@%s", ref.Field, ref.Type, ref.Name, ref.Path, ref.Config))
		}
	}
	want := map[string][]string{
		"environment_servers/bare_episode/app.py": {
			"agent_server=responses_api_agents/relay_agent->responses_api_agents/relay_agent/app.py@environment_servers/bare_episode/configs/bare_episode.yaml:5"},
		"environment_servers/pooled_episode/app.py": {
			"agent_server=responses_api_agents/relay_agent->responses_api_agents/relay_agent/app.py@environment_servers/pooled_episode/configs/pooled_episode.yaml:7",
			"resources_server=resources_servers/tiles->resources_servers/tiles/app.py@environment_servers/pooled_episode/configs/pooled_episode.yaml:6"},
		// The template's ??? names nothing; tiles_episode's run binds tiles
		// (its relay_agnet is unknown), tiles_wrong_type's agent_server
		// names a resources server.
		"environment_servers/single_episode/app.py": {
			"resources_server=resources_servers/tiles->resources_servers/tiles/app.py@benchmarks/tiles_episode/config.yaml:10"},
		"responses_api_agents/relay_agent/app.py": {
			"model_server=responses_api_models/policy_model->responses_api_models/plain_model/app.py@responses_api_agents/relay_agent/configs/relay_agent.yaml:6",
			"resources_server=resources_servers/tiles->resources_servers/tiles/app.py@responses_api_agents/relay_agent/configs/relay_agent.yaml:5"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("references:\n got %q\nwant %q", got, want)
	}
}

// Bounds on the picture of TestServersDotScales, in points: a Graphviz
// rendering of 200 servers stays within a large screen's few zooms, about
// half again as wide as high. Measured with Graphviz 2.43: 4,173 x 2,546
// for the generated repository and 5,149 x 2,942 for NeMo Gym's 175
// servers (before the clusters and grids: 2,434 x 16,015 and
// 2,721 x 18,914).
const (
	maxPictureSide   = 6000.0
	minPictureAspect = 1.0 / 2 // width over height
	maxPictureAspect = 3.0
)

// TestServersDotScales renders `gymlint servers --format dot` of a
// generated repository of 200 server directories (bench/gen: NeMo Gym's
// layout and proportions, parents in other directories, agent configs in
// resources servers' directories, override-only benchmarks) with
// Graphviz, and checks the size of the layout (dot -Tplain). It is
// skipped when dot is not installed, and with -short.
func TestServersDotScales(t *testing.T) {
	bin, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz's dot is not on PATH (Debian: apt-get install graphviz): the DOT output is not rendered")
	}
	if testing.Short() {
		t.Skip("generating and scanning 200 servers takes seconds")
	}
	root := t.TempDir()
	if _, err := gen.Generate(root, gen.Options{Servers: 200, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	src, errOut, code := run(t, "servers", "--format", "dot", root)
	if code != ExitClean {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := strings.Count(src, "fillcolor="); n < 200 {
		t.Fatalf("%d boxes, want one per server at least", n)
	}
	cmd := exec.Command(bin, "-Tplain")
	cmd.Stdin = strings.NewReader(src)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("dot -Tplain: %v\n%s", err, stderr.String())
	}
	// The first line is "graph SCALE WIDTH HEIGHT", in inches.
	var scale, w, h float64
	if _, err := fmt.Sscanf(out.String(), "graph %g %g %g", &scale, &w, &h); err != nil {
		t.Fatalf("dot -Tplain: %v: %.100s", err, out.String())
	}
	w, h = w*72, h*72
	t.Logf("200 servers: %.0f x %.0f points", w, h)
	if w > maxPictureSide || h > maxPictureSide || w/h < minPictureAspect || w/h > maxPictureAspect {
		t.Errorf("200 servers draw %.0f x %.0f points (aspect %.2f): want each side at most %.0f and an aspect from %.2f to %.2f",
			w, h, w/h, maxPictureSide, minPictureAspect, maxPictureAspect)
	}
}
