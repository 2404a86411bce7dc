package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestServersMermaidTooLarge checks that a Mermaid drawing longer than
// Mermaid renders by default is still printed, with a word on stderr and
// exit 0, and that a small one gets no word.
func TestServersMermaidTooLarge(t *testing.T) {
	files := map[string]string{}
	for i := range 250 {
		dir := fmt.Sprintf("resources_servers/a_rather_long_server_directory_name_%03d", i)
		files[dir+"/app.py"] = cleanServer
		files[dir+"/configs/server.yaml"] = fmt.Sprintf("s%d:\n  resources_servers:\n    a_rather_long_server_directory_name_%03d:\n      entrypoint: app.py\n", i, i)
	}
	root := writeTree(t, files)
	out, errOut, code := run(t, "servers", "--format", "mermaid", root)
	if code != ExitClean || !strings.HasPrefix(out, "flowchart LR\n") || len(out) <= 50000 {
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
