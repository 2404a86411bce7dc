package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fixes of GL101 are unsafe (a person decides whether the server is
// safe with several workers): --diff and --fix leave them out and say how
// to get them; --unsafe-fixes shows and applies them; --statistics counts
// them.
func TestUnsafeFixesFlag(t *testing.T) {
	const app = "resources_servers/srv/app.py"
	root := writeTree(t, map[string]string{
		app: "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\n" +
			"class Srv(SimpleResourcesServer):\n    async def verify(self, body):\n        return body\n\n\n" +
			"if __name__ == \"__main__\":\n    Srv.run_webserver()\n",
		"resources_servers/srv/configs/srv.yaml": "srv:\n  resources_servers:\n    srv:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/srv/requirements.txt": "fastapi\n",
		"nemo_gym/__init__.py":                   "",
		"nemo_gym/base_resources_server.py":      "class SimpleResourcesServer:\n    def multiple_workers_unsupported_reason(self):\n        return None\n",
	})
	out, errOut, code := run(t, root)
	if code != ExitFindings || !strings.Contains(errOut, "gymlint: 1 more with unsafe fixes, which need a person's review (--diff --unsafe-fixes to see them") {
		t.Errorf("check: exit %d, stderr %q", code, errOut)
	}
	out, errOut, _ = run(t, "--diff", root)
	if out != "" || !strings.Contains(errOut, "--diff --unsafe-fixes") {
		t.Errorf("--diff: stdout %q, stderr %q", out, errOut)
	}
	out, _, _ = run(t, "--diff", "--unsafe-fixes", root)
	if !strings.Contains(out, "+++ b/"+app) || !strings.Contains(out, "+elif is_nemo_gym_fastapi_entrypoint(__file__):") {
		t.Errorf("--diff --unsafe-fixes:\n%s", out)
	}
	out, _, _ = run(t, "--statistics", "--format", "json", root)
	var counts []ruleCount
	if err := json.Unmarshal([]byte(out), &counts); err != nil || len(counts) != 1 || counts[0].UnsafeFixable != 1 || counts[0].Fixable != 0 {
		t.Errorf("statistics: %v %+v", err, counts)
	}
	before, _ := os.ReadFile(filepath.Join(root, app))
	if _, _, code := run(t, "--fix", root); code != ExitFindings {
		t.Errorf("--fix without --unsafe-fixes: exit %d", code)
	}
	if after, _ := os.ReadFile(filepath.Join(root, app)); string(after) != string(before) {
		t.Error("--fix applied an unsafe fix")
	}
	if _, errOut, code := run(t, "--fix", "--unsafe-fixes", root); code != ExitClean || !strings.Contains(errOut, "applied 1 fix") {
		t.Errorf("--fix --unsafe-fixes: exit %d, %s", code, errOut)
	}
}
