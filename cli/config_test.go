package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/schema"
)

func policyRepo(t *testing.T, conf map[string]string) string {
	files := map[string]string{
		"resources_servers/plain/app.py":                   plainServer,
		"resources_servers/plain/configs/plain.yaml":       "plain:\n  resources_servers:\n    plain:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/plain/requirements.txt":         "fastapi\n",
		"resources_servers/plain/configs/dangling.yaml":    "gone:\n  resources_servers:\n    gone:\n      entrypoint: nope.py\n",
		"resources_servers/legacy_a/app.py":                plainServer,
		"resources_servers/legacy_a/configs/legacy_a.yaml": "legacy:\n  resources_servers:\n    legacy:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/legacy_a/requirements.txt":      "fastapi\n",
	}
	for k, v := range conf {
		files[k] = v
	}
	return writeTree(t, files)
}

func codesOf(t *testing.T, out string) []map[string]any {
	t.Helper()
	var got []map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return got
}

func TestPolicyEndToEnd(t *testing.T) {
	out, _, code := run(t, "--format", "json", policyRepo(t, nil))
	seen := map[string]bool{}
	for _, d := range codesOf(t, out) {
		seen[d["path"].(string)+" "+d["code"].(string)] = true
	}
	if code != ExitFindings || !seen["resources_servers/legacy_a/app.py GL101"] || !seen["resources_servers/plain/configs/dangling.yaml GL005"] {
		t.Fatalf("without configuration: code %d:\n%s", code, out)
	}
	const yamlConf = `disable: [missing-entrypoint]
severity: {GL101: warning}
per_path_ignores:
  - paths: ["resources_servers/legacy_*/**"]
    rules: [workers]
    reason: Legacy servers run with one worker.
`
	const tomlConf = `[project]
name = "x"

[tool.gymlint]
disable = ["missing-entrypoint"]
severity = { GL101 = "warning" }

[[tool.gymlint.per_path_ignores]]
paths = ["resources_servers/legacy_*/**"]
rules = ["workers"]
reason = "Legacy servers run with one worker."
`
	for name, conf := range map[string]map[string]string{
		".gymlint.yaml":  {".gymlint.yaml": yamlConf},
		"pyproject.toml": {"pyproject.toml": tomlConf},
	} {
		t.Run(name, func(t *testing.T) {
			out, _, code := run(t, "--format", "json", policyRepo(t, conf))
			got := codesOf(t, out)
			if code != ExitFindings || len(got) != 1 {
				t.Fatalf("code %d, %d findings:\n%s", code, len(got), out)
			}
			d := got[0]
			if d["code"] != "GL101" || d["path"] != "resources_servers/plain/app.py" || d["severity"] != "warning" {
				t.Errorf("%v", d)
			}
		})
	}
}

func TestConfigCommand(t *testing.T) {
	root := policyRepo(t, map[string]string{
		".gymlint.yaml":  "disable: [rayenabled]\nseverity: {GL106: error}\nper_path_ignores:\n  - {paths: [\"a/**\"], rules: [GL101], reason: why not}\n",
		"pyproject.toml": "[tool.gymlint]\ndisable = [\"GL101\"]\n",
	})
	out, errOut, code := run(t, "config", root)
	if code != ExitClean {
		t.Fatalf("code %d: %s", code, errOut)
	}
	for _, want := range []string{
		"file: .gymlint.yaml\n",
		"pyproject.toml also has [tool.gymlint]",
		"framework_package: nemo_gym\n",
		"max_file_size: 4194304\n",
		"GL201 GL202 GL203 GL204 GL205\n",
		"  GL106 unreachable-app: error (default warning)\n",
		"  a/**: GL101 (why not)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	out, _, code = run(t, "config", "--format", "json", root)
	var ec effectiveConfig
	if err := json.Unmarshal([]byte(out), &ec); err != nil || code != ExitClean {
		t.Fatalf("code %d, %v:\n%s", code, err, out)
	}
	if ec.File != ".gymlint.yaml" || ec.Shadowed != "pyproject.toml" || len(ec.Disabled) != 5 || ec.Severity["GL106"] != "error" ||
		len(ec.PerPathIgnores) != 1 || len(ec.ServerTypes) != 4 {
		t.Errorf("%+v", ec)
	}

	bad := policyRepo(t, map[string]string{".gymlint.yaml": "disable: [GL999]\n"})
	if _, errOut, code := run(t, "config", bad); code != ExitError || !strings.Contains(errOut, ".gymlint.yaml:1: unknown rule \"GL999\"") {
		t.Errorf("code %d: %s", code, errOut)
	}
	if _, errOut, code := run(t, bad); code != ExitError || !strings.Contains(errOut, ".gymlint.yaml:1:") {
		t.Errorf("check with a bad configuration: code %d: %s", code, errOut)
	}
	none := policyRepo(t, nil)
	if out, _, code := run(t, "config", none); code != ExitClean || !strings.Contains(out, "file: (none: defaults)") || !strings.Contains(out, "disabled (0)") {
		t.Errorf("code %d:\n%s", code, out)
	}
}

// The configuration's words reach the check and `gymlint config`: a
// logging call through an attribute the team names in words.logger is no
// work before the refusal (GL102), and config lists the kind it extends
// with every word of it, in text and JSON; without words, config says
// nothing of them.
func TestWordsEndToEnd(t *testing.T) {
	app := "from nemo_gym.base_resources_server import SimpleResourcesServer\n" +
		"from nemo_gym.server_utils import refuse_unsupported_num_workers\n\n\n" +
		"class AuditServer(SimpleResourcesServer):\n" +
		"    def multiple_workers_unsupported_reason(self):\n" +
		"        return \"trails are kept in this process\"\n\n" +
		"    def model_post_init(self, context):\n" +
		"        self.audit.info(\"starting\")\n" +
		"        refuse_unsupported_num_workers(self)\n"
	repo := func(conf string) string {
		files := map[string]string{
			"resources_servers/audit/app.py":             app,
			"resources_servers/audit/configs/audit.yaml": "audit:\n  resources_servers:\n    audit:\n      entrypoint: app.py\n      domain: other\n",
			"resources_servers/audit/requirements.txt":   "fastapi\n",
		}
		if conf != "" {
			files[".gymlint.yaml"] = conf
		}
		return writeTree(t, files)
	}
	count := func(dir string) int {
		out, _, _ := run(t, "--format", "json", "--select", "GL102", "--contract", "latest", dir)
		return len(codesOf(t, out))
	}
	plain, words := repo(""), repo("words:\n  logger: [audit]\n")
	if n := count(plain); n != 1 {
		t.Errorf("without words: %d GL102, want 1", n)
	}
	if n := count(words); n != 0 {
		t.Errorf("with words.logger [audit]: %d GL102, want 0", n)
	}
	out, _, code := run(t, "config", words)
	if code != ExitClean || !strings.Contains(out, "words: 1 kinds extended\n  logger: +audit (all: LOG LOGGER _log _logger audit log logger logging)\n") {
		t.Errorf("config text (%d):\n%s", code, out)
	}
	out, _, _ = run(t, "config", "--format", "json", words)
	var ec struct {
		Words map[string]struct{ Added, All []string }
	}
	if err := json.Unmarshal([]byte(out), &ec); err != nil || len(ec.Words["logger"].Added) != 1 || len(ec.Words["logger"].All) != 8 {
		t.Errorf("config json: %v %+v", err, ec)
	}
	if out, _, _ := run(t, "config", plain); strings.Contains(out, "words") {
		t.Errorf("config without words mentions them:\n%s", out)
	}
	if _, errOut, code := run(t, "config", repo("words:\n  loggers: [audit]\n")); code != ExitError || !strings.Contains(errOut, `words: unknown kind "loggers"`) {
		t.Errorf("an unknown kind: %d %s", code, errOut)
	}
}

// TestConfigSchema: gymlint config --schema prints the configuration's
// JSON Schema (schema.Config) on stdout, exit 0, whatever the directory;
// --schema=pyproject that of a whole pyproject.toml.
func TestConfigSchema(t *testing.T) {
	for arg, want := range map[string][]byte{"--schema": schema.Config, "--schema=pyproject": schema.PyProject} {
		out, errOut, code := run(t, "config", arg)
		if code != ExitClean || out != string(want) || errOut != "" {
			t.Errorf("config %s: exit %d, stderr %q, stdout %.80q", arg, code, errOut, out)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(out), &doc); err != nil || doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("config %s: not a draft 2020-12 schema: %v", arg, err)
		}
	}
	for _, args := range [][]string{{"--schema=yaml"}, {"--schema", "."}} {
		_, errOut, code := run(t, append([]string{"config"}, args...)...)
		if code != ExitError || !strings.Contains(errOut, "--schema") || !strings.Contains(errOut, "Run 'gymlint config --help' for usage.") {
			t.Errorf("config %v: exit %d, stderr %q", args, code, errOut)
		}
	}
}
