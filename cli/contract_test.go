package cli

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/internal/golden"
	"github.com/gymlint/gymlint/internal/testtree"
)

// The framework generations of testdata/contracts: the same servers
// (servers/) on three frameworks (gen1: before the worker refusal and the
// Ray declaration; gen2: the refusal, ray_enabled and the close, sessions
// fenced by hand; gen3: the whole current contract). Each repository is
// the servers with one framework, put together at test time.

// contractFiles reads the files under testdata/contracts/<dir>, by path
// relative to it; prefix is put before each path.

// contractsDir is testdata/contracts, absolute: the checks run in their
// roots (see checkOutput).
var contractsDir, _ = filepath.Abs(filepath.Join("..", "testdata", "contracts"))

func contractFiles(t *testing.T, dir, prefix string, into map[string]string) {
	t.Helper()
	base := filepath.Join(contractsDir, dir)
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "README.md" {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		data, err := os.ReadFile(p)
		into[path.Join(prefix, filepath.ToSlash(rel))] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// generation writes the servers with generation gen's framework at
// frameworkAt (a root-relative directory holding nemo_gym/), plus extra.
func generation(t *testing.T, gen, frameworkAt string, extra map[string]string) string {
	files := map[string]string{}
	contractFiles(t, "servers", "", files)
	contractFiles(t, gen, frameworkAt, files)
	for p, c := range extra {
		files[p] = c
	}
	return testtree.New(t, files)
}

// checkOutput is what a check prints that the goldens hold: the findings,
// then the contract line of stderr (not the timed summary).
//
// It runs in the root, the last argument, so that paths are the root's.
func checkOutput(t *testing.T, args ...string) (findings, contract string, code int) {
	t.Helper()
	t.Chdir(args[len(args)-1])
	out, errOut, code := run(t, args...)
	for _, l := range strings.Split(errOut, "\n") {
		if strings.HasPrefix(l, "gymlint: ") && !strings.Contains(l, " finding") && !strings.Contains(l, "--fix") {
			contract += l + "\n"
		}
	}
	return out, contract, code
}

// positions keeps the position and code of each finding of a check's
// output: what --contract latest must give alike on every framework (the
// help of a rule follows the framework's names, so the text may differ).
func positions(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if f := strings.Fields(l); len(f) >= 2 {
			b.WriteString(f[0] + " " + f[1] + "\n")
		}
	}
	return b.String()
}

// TestContractGenerations: each generation gives the findings its
// framework's contract supports, and the line that says what was left out;
// with --contract latest each gives the whole set, which is what the
// current framework (gen3) gives by default.
// Regenerate with: go test ./cli -run TestContractGenerations -update
func TestContractGenerations(t *testing.T) {
	full := ""
	outputs := map[string]string{}
	for _, gen := range []string{"gen3", "gen2", "gen1"} {
		root := generation(t, gen, "", nil)
		for _, mode := range []string{"auto", "latest"} {
			findings, note, code := checkOutput(t, "--contract", mode, root)
			if code != ExitFindings {
				t.Errorf("%s --contract %s: exit %d", gen, mode, code)
			}
			outputs[gen+"."+mode] = findings
			golden.Check(t, filepath.Join(contractsDir, gen+"."+mode+".golden.txt"),
				[]byte(findings+"--- stderr\n"+note), *update, "update")
		}
		if gen == "gen3" {
			full = outputs["gen3.auto"]
			if !strings.Contains(full, "GL101") || !strings.Contains(full, "GL301") {
				t.Fatalf("the current contract's findings lack rules:\n%s", full)
			}
		}
		if got := outputs[gen+".latest"]; positions(got) != positions(full) {
			t.Errorf("%s --contract latest differs from the current framework's findings:\n%s\nwant\n%s", gen, got, full)
		}
	}
	for k, out := range outputs {
		for _, line := range strings.Split(out, "\n") {
			// GL114's hint is right there: both refuse always, yet key
			// their state by the routed session.
			if strings.Contains(line, " GL114 ") {
				continue
			}
			// GL317 is right too: neither releases its state in a
			// retire_session_state (they fence and lock by hand, which
			// is what this checks).
			if strings.Contains(line, " GL317 ") {
				continue
			}
			if strings.Contains(line, "resources_servers/fenced/") || strings.Contains(line, "resources_servers/locked/") {
				t.Errorf("%s: a server that fences or locks by hand is reported:\n%s", k, out)
			}
		}
	}
	if outputs["gen1.auto"] == full || outputs["gen2.auto"] == full || outputs["gen1.auto"] == outputs["gen2.auto"] {
		t.Error("the generations give the same findings by default")
	}
	// The configuration chooses the mode too, and the flag wins over it.
	root := generation(t, "gen1", "", map[string]string{".gymlint.yaml": "contract: latest\n"})
	if got, _, _ := checkOutput(t, root); positions(got) != positions(full) {
		t.Errorf("contract: latest in .gymlint.yaml:\n%s", got)
	}
	if got, _, _ := checkOutput(t, "--contract", "auto", root); got != outputs["gen1.auto"] {
		t.Errorf("--contract auto over contract: latest:\n%s", got)
	}
	if _, errOut, code := run(t, "--contract", "newest", root); code != ExitError || !strings.Contains(errOut, "--contract must be auto or latest") {
		t.Errorf("--contract newest: exit %d, %s", code, errOut)
	}
}

// TestContractInstalledFramework: a framework installed in a virtual
// environment, in the repository's .venv or in $VIRTUAL_ENV outside it, or
// at a configured framework_path, is found and read as one in the
// repository is.
func TestContractInstalledFramework(t *testing.T) {
	want := map[string]string{}
	for _, gen := range []string{"gen1", "gen3"} {
		want[gen], _, _ = checkOutput(t, generation(t, gen, "", nil))
	}
	for _, gen := range []string{"gen1", "gen3"} {
		root := generation(t, gen, ".venv/lib/python3.12/site-packages", nil)
		got, note, _ := checkOutput(t, root)
		if got != want[gen] {
			t.Errorf("%s in .venv: findings\n%s\nwant\n%s", gen, got, want[gen])
		}
		if gen == "gen1" && !strings.Contains(note, " not applied: the framework at ./.venv/lib/python3.12/site-packages/nemo_gym predates them") {
			t.Errorf("%s in .venv: %q", gen, note)
		}
	}

	venv := t.TempDir()
	files := map[string]string{}
	contractFiles(t, "gen1", "lib/python3.11/site-packages", files)
	testtree.Write(t, venv, files)
	t.Setenv("VIRTUAL_ENV", venv)
	root := generation(t, "gen3", "", nil)
	if err := os.RemoveAll(filepath.Join(root, "nemo_gym")); err != nil {
		t.Fatal(err)
	}
	got, note, _ := checkOutput(t, root)
	if got != want["gen1"] {
		t.Errorf("gen1 at $VIRTUAL_ENV: findings\n%s\nwant\n%s", got, want["gen1"])
	}
	// The framework's path, or its end when it is long: the line stays
	// short.
	_, at, _ := strings.Cut(note, " the framework at ")
	at, _, _ = strings.Cut(at, " predates them")
	if full := filepath.Join(venv, "lib/python3.11/site-packages/nemo_gym"); len(note) > 200 ||
		!(at == full || strings.HasPrefix(at, ".../") && strings.HasSuffix(full, at[3:])) {
		t.Errorf("gen1 at $VIRTUAL_ENV: %q, not %s", note, full)
	}

	t.Setenv("VIRTUAL_ENV", "")
	root = generation(t, "gen1", "third_party", map[string]string{".gymlint.yaml": "framework_path: third_party/nemo_gym\n"})
	if got, _, _ := checkOutput(t, root); got != want["gen1"] {
		t.Errorf("gen1 at framework_path: findings\n%s\nwant\n%s", got, want["gen1"])
	}

	// With no framework anywhere, the latest contract, said once.
	root = generation(t, "gen1", "elsewhere", nil)
	got, note, _ = checkOutput(t, root)
	if !strings.Contains(got, "GL101") || strings.Count(note, "\n") != 1 || !strings.Contains(note, "no nemo_gym framework package found") {
		t.Errorf("no framework: %q\n%s", note, got)
	}
}

// gymlint config prints the framework found and every fact; gymlint
// servers says by which contract each column was judged.
func TestContractConfigAndServers(t *testing.T) {
	gen1, gen3 := generation(t, "gen1", "", nil), generation(t, "gen3", "", nil)
	out, _, code := run(t, "config", "--format", "json", gen1)
	var ec effectiveConfig
	if err := json.Unmarshal([]byte(out), &ec); err != nil || code != ExitClean {
		t.Fatalf("config: exit %d, %v\n%s", code, err, out)
	}
	fw := ec.Framework
	if !fw.Found || fw.Dir != "nemo_gym" || fw.Where != "repository" || ec.Contract != "auto" ||
		fw.Facts["worker-refusal"] != nil || len(fw.Facts) != len(contract.Facts) || !slices.Contains(ec.NotApplied, "GL101") {
		t.Errorf("config of gen1: %+v, not applied %v", fw, ec.NotApplied)
	}
	out, _, _ = run(t, "config", gen3)
	if !strings.Contains(out, "worker-refusal             yes  nemo_gym/server_utils.py:18") || !strings.Contains(out, "not applied under the contract (0)") {
		t.Errorf("config of gen3:\n%s", out)
	}

	for _, tc := range []struct {
		root, judged, note string
	}{
		{gen1, "latest", "contract: WORKERS, RAY, SESSION METHODS judged by the latest contract: nemo_gym at ./nemo_gym predates the worker refusal, the Ray declaration, the session close"},
		{gen3, "framework", ""},
	} {
		out, _, _ := run(t, "servers", "--format", "json", tc.root)
		var rows []map[string]any
		if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 6 {
			t.Fatalf("servers: %v\n%s", err, out)
		}
		if c := rows[0]["contract"].(map[string]any); c["workers"] != tc.judged || c["ray"] != tc.judged || c["session_methods"] != tc.judged {
			t.Errorf("servers contract %v, want %s", c, tc.judged)
		}
		text, _, _ := run(t, "servers", tc.root)
		if last := strings.TrimSpace(text[strings.LastIndex(strings.TrimSpace(text), "\n")+1:]); (tc.note == "") != strings.HasPrefix(last, "resources_servers") || tc.note != "" && last != tc.note {
			t.Errorf("servers text ends with %q, want %q", last, tc.note)
		}
	}
}

// contractLines are the lines of a check's stderr about the contract.
func contractLines(errOut string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(errOut, "\n"), "\n") {
		if strings.Contains(l, " not applied") || strings.Contains(l, " predates ") {
			out = append(out, l)
		}
	}
	return out
}

// TestContractLineBrief: on a framework that predates parts of the
// contract, a check says so in one short line, once a run (--fix checks
// twice, --diff once), that counts the rules really left out and sends to
// gymlint config; a rule chosen by code or name (--select, --extend-select,
// enable) that is left out gets its own line, with why.
func TestContractLineBrief(t *testing.T) {
	// An unused suppression, for --fix to remove: the check runs again.
	unused := "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\n" +
		"class PlainServer(SimpleResourcesServer):  # gymlint: ignore[GL204] nothing to suppress here\n" +
		"    async def verify(self, body):\n        return {\"reward\": 1.0}\n\n\n" +
		"if __name__ == \"__main__\":\n    PlainServer.run_webserver()\n"
	root := generation(t, "gen1", "", map[string]string{"resources_servers/plain/app.py": unused})
	t.Chdir(root)
	out, _, _ := run(t, "config", "--format", "json")
	var ec effectiveConfig
	if err := json.Unmarshal([]byte(out), &ec); err != nil {
		t.Fatal(err)
	}
	n := len(ec.NotApplied)
	if n < 10 {
		t.Fatalf("gen1 leaves out %d rules: %v", n, ec.NotApplied)
	}
	want := fmt.Sprintf("gymlint: %d rules not applied: the framework at ./nemo_gym predates them; gymlint config lists them; --contract latest applies them", n)
	for _, args := range [][]string{{}, {"--diff"}, {"--fix"}} {
		_, errOut, _ := run(t, args...)
		if args := strings.Join(args, " "); args == "--fix" && !strings.Contains(errOut, "applied 1 fix") {
			t.Fatalf("--fix fixed nothing, so checked once:\n%s", errOut)
		}
		if got := contractLines(errOut); len(got) != 1 || got[0] != want || strings.Count(errOut, "\n") > 5 {
			t.Errorf("gymlint %s: stderr\n%s\nwant one contract line:\n%s", strings.Join(args, " "), errOut, want)
		}
	}
	testtree.Write(t, root, map[string]string{"resources_servers/plain/app.py": unused})

	gl101 := "gymlint: GL101 not applied: nemo_gym at ./nemo_gym predates the worker refusal (BaseServer has no multiple_workers_unsupported_reason); --contract latest applies it"
	more := fmt.Sprintf("gymlint: %d more rules not applied: the framework at ./nemo_gym predates them; gymlint config lists them; --contract latest applies them", n-1)
	for _, tc := range []struct {
		args   []string
		config string // .gymlint.yaml
		want   []string
	}{
		{[]string{"--select", "GL101"}, "", []string{gl101}},
		{[]string{"--select", "undeclared-workers,GL005"}, "", []string{gl101}},
		{[]string{"--extend-select", "GL101"}, "", []string{gl101, more}},
		{[]string{"--extend-select", "undeclared-workers"}, "", []string{gl101, more}},
		{nil, "enable: [GL101, GL005]\n", []string{gl101}},
		{[]string{"--extend-select", "GL102"}, "enable: [undeclared-workers]\n", []string{
			"gymlint: GL101, GL102 not applied: nemo_gym at ./nemo_gym predates the worker refusal (BaseServer has no multiple_workers_unsupported_reason); --contract latest applies them"}},
		// --select replaces the configuration's enable: its names too.
		{[]string{"--select", "GL1"}, "enable: [GL101]\n", []string{"gymlint: 17 rules not applied: the framework at ./nemo_gym predates them; gymlint config lists them; --contract latest applies them"}},
		// A prefix or an analyzer names no rule one by one.
		{[]string{"--select", "workers"}, "", []string{"gymlint: 17 rules not applied: the framework at ./nemo_gym predates them; gymlint config lists them; --contract latest applies them"}},
	} {
		cfg := filepath.Join(root, ".gymlint.yaml")
		os.Remove(cfg)
		if tc.config != "" {
			testtree.Write(t, root, map[string]string{".gymlint.yaml": tc.config})
		}
		_, errOut, code := run(t, tc.args...)
		if got := contractLines(errOut); code == ExitError || !slices.Equal(got, tc.want) {
			t.Errorf("gymlint %s with %q: exit %d, stderr\n%s\nwant the contract lines\n%s", strings.Join(tc.args, " "), tc.config, code, errOut, strings.Join(tc.want, "\n"))
		}
	}
}

// TestContractConfigListsReasons: gymlint config lists each rule the
// contract leaves out with why, in text and in JSON.
func TestContractConfigListsReasons(t *testing.T) {
	root := generation(t, "gen1", "", nil)
	out, _, _ := run(t, "config", "--format", "json", root)
	var ec effectiveConfig
	if err := json.Unmarshal([]byte(out), &ec); err != nil {
		t.Fatal(err)
	}
	text, _, _ := run(t, "config", root)
	if len(ec.NotApplied) == 0 || len(ec.NotAppliedWhy) != len(ec.NotApplied) ||
		!strings.Contains(text, fmt.Sprintf("not applied under the contract (%d): ", len(ec.NotApplied))) {
		t.Fatalf("not applied %v, reasons %v:\n%s", ec.NotApplied, ec.NotAppliedWhy, text)
	}
	for i, na := range ec.NotAppliedWhy {
		r := lookupRule(t, na.Code)
		if na.Code != ec.NotApplied[i] || na.Name != r.Name || len(na.Missing) == 0 || !strings.HasPrefix(na.Reason, "predates ") {
			t.Errorf("reason %d: %+v", i, na)
		}
		if want := fmt.Sprintf("\n  %s %-36s %s\n", na.Code, na.Name, na.Reason); !strings.Contains(text, want) {
			t.Errorf("gymlint config has no line %q", want)
		}
	}
	for _, na := range ec.NotAppliedWhy {
		if na.Code == "GL101" && (na.Reason != "predates the worker refusal (BaseServer has no multiple_workers_unsupported_reason)" || !slices.Equal(na.Missing, []string{contract.WorkerRefusal})) {
			t.Errorf("GL101: %+v", na)
		}
	}
}

func lookupRule(t *testing.T, code string) *diag.Rule {
	t.Helper()
	r := ruleLookup(code)
	if r == nil {
		t.Fatalf("no rule %s", code)
	}
	return r
}
