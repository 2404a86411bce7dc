package lsp

import (
	"strings"
	"testing"
)

const episodeApp = `from nemo_gym.base_environment_server import BaseEnvironmentServer


class EpisodeServer(BaseEnvironmentServer):
    async def run(self, request):
        return request


if __name__ == "__main__":
    EpisodeServer.run_webserver()
`

const episodeConfig = `episode:
  environment_servers:
    episode:
      entrypoint: app.py
      resources_server: {type: resources_servers, name: ech}
`

// TestEnvironmentServer: an environment server is a server to the
// language server as to the command line (GL101 on the open buffer), and a
// reference in its config that names no instance is reported on the YAML
// file (GL408) without it being open.
func TestEnvironmentServer(t *testing.T) {
	root := workspace(t, map[string]string{
		"environment_servers/episode/app.py":               episodeApp,
		"environment_servers/episode/configs/episode.yaml": episodeConfig,
		"environment_servers/episode/requirements.txt":     "fastapi\n",
	})
	c := startServer(t, root, Options{NoGo: true})
	c.initialize()
	const app = "environment_servers/episode/app.py"
	c.open(app, episodeApp)
	pub := c.waitDiagnostics(app, "GL101", withCode("GL101"))
	if d := find(pub.Diagnostics, "GL101"); !strings.Contains(d.Message, "EpisodeServer") {
		t.Errorf("GL101 message %q, want the environment server's class", d.Message)
	}
	pub = c.waitDiagnostics("environment_servers/episode/configs/episode.yaml", "GL408", withCode("GL408"))
	if d := find(pub.Diagnostics, "GL408"); !strings.Contains(d.Message, "'ech'") || d.Range.Start.Line != 4 {
		t.Errorf("GL408 %q at line %d, want the reference to 'ech' on line 5", d.Message, d.Range.Start.Line+1)
	}
}
