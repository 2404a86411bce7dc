package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// fixRepos are the fixture repositories --fix --unsafe-fixes is tried on.
var fixRepos = []string{
	"envrepo", "extframework", "frontendsrepo", "gymrepo", "rayrepo", "refusalrepo",
	"sessionsrepo_a", "sessionsrepo_b", "staterepo", "contracts/gen1", "contracts/gen2", "contracts/gen3",
}

// TestFixAllFixtures applies every fix, safe and unsafe, to copies of the
// fixture repositories under both contracts: no finding appears that was
// not there before (by rule and file), every changed Python file parses
// with CPython (when python3 is present), and a second run changes
// nothing. Across them, fixes must be applied: a run that fixes nothing
// passes the other checks trivially.
func TestFixAllFixtures(t *testing.T) {
	applied := 0
	for _, name := range fixRepos {
		for _, contract := range []string{"auto", "latest"} {
			if name == "frontendsrepo" && contract == "auto" {
				continue // its Go packages take seconds per run; the latest contract covers its fixes
			}
			t.Run(name+"/"+contract, func(t *testing.T) {
				root := filepath.Join(t.TempDir(), "repo")
				if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "testdata", filepath.FromSlash(name)))); err != nil {
					t.Fatal(err)
				}
				applied += checkFixAll(t, root, contract)
			})
		}
	}
	if applied == 0 {
		t.Error("no fix was applied to any fixture")
	}
}

// TestFixAllSnapshot does what TestFixAllFixtures does on a copy of a real
// NeMo Gym checkout named by GYMLINT_SNAPSHOT (it is not in this
// repository), under the latest contract.
func TestFixAllSnapshot(t *testing.T) {
	src := os.Getenv("GYMLINT_SNAPSHOT")
	if src == "" {
		t.Skip("GYMLINT_SNAPSHOT names no NeMo Gym checkout")
	}
	root := filepath.Join(t.TempDir(), "gym")
	if out, err := exec.Command("cp", "-a", src, root).CombinedOutput(); err != nil {
		t.Fatalf("copying %s: %v\n%s", src, err, out)
	}
	if n := checkFixAll(t, root, "latest"); n == 0 {
		t.Error("no fix was applied")
	}
}

var appliedRE = regexp.MustCompile(`gymlint: applied (\d+) fix(?:es)? to (\d+) files?`)

// checkFixAll runs --fix --unsafe-fixes on the repository at root (a copy:
// it is changed) and checks the result; it returns the fixes applied.
func checkFixAll(t *testing.T, root, contract string) int {
	t.Helper()
	findings := func() map[string]int {
		out, errOut, code := run(t, "--contract", contract, "--format", "json", "--no-cache", root)
		if code == ExitError {
			t.Fatalf("check: exit %d\n%s", code, errOut)
		}
		var ds []struct{ Path, Code string }
		if err := json.Unmarshal([]byte(out), &ds); err != nil {
			t.Fatalf("%v\n%s%s", err, out, errOut)
		}
		n := map[string]int{}
		for _, d := range ds {
			n[d.Path+" "+d.Code]++
		}
		return n
	}
	fix := func() int {
		_, errOut, code := run(t, "--contract", contract, "--fix", "--unsafe-fixes", "--no-cache", root)
		m := appliedRE.FindStringSubmatch(errOut)
		if code == ExitError || m == nil {
			t.Fatalf("--fix --unsafe-fixes: exit %d\n%s", code, errOut)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	before, tree := findings(), readTree(t, root)
	n := fix()
	fixed := readTree(t, root)
	after := findings()
	for k, c := range after {
		if c > before[k] {
			t.Errorf("%s: %d findings after the fixes, %d before", k, c, before[k])
		}
	}
	changed := diffPaths(tree, fixed)
	if n > 0 && len(changed) == 0 || n == 0 && len(changed) > 0 {
		t.Errorf("%d fixes applied, %d files changed", n, len(changed))
	}
	pythonParses(t, root, changed...)
	if again := fix(); again != 0 {
		t.Errorf("a second run applied %d fixes", again)
	}
	if d := diffPaths(fixed, readTree(t, root)); len(d) > 0 {
		t.Errorf("the second run changed %s", strings.Join(d, ", "))
	}
	return n
}
