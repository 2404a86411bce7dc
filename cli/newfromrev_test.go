package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func TestParseDiff(t *testing.T) {
	out := `diff --git a/sub/a.py b/sub/a.py
index 1111111..2222222 100644
--- a/sub/a.py
+++ b/sub/a.py
@@ -3 +3 @@ class A:
-    x = 1
+    x = 2
@@ -10,0 +11,2 @@ def f():
+    a
+    b
@@ -20,2 +21,0 @@ def g():
-    gone
-    gone
diff --git a/sub/old.py b/sub/old.py
deleted file mode 100644
--- a/sub/old.py
+++ /dev/null
@@ -1,2 +0,0 @@
-x
-y
diff --git a/other/c.py b/other/c.py
--- a/other/c.py
+++ b/other/c.py
@@ -1 +1 @@
-a
+b
diff --git "a/sub/t\303\251st.yaml" "b/sub/t\303\251st.yaml"
--- "a/sub/t\303\251st.yaml"
+++ "b/sub/t\303\251st.yaml"
@@ -5,0 +6,3 @@
+a
+b
+c
`
	got, err := parseDiff([]byte(out), "sub/")
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string][]int{}
	for p, f := range got {
		for l := range f.lines {
			lines[p] = append(lines[p], l)
		}
		sort.Ints(lines[p])
	}
	want := map[string][]int{"a.py": {3, 11, 12}, "tést.yaml": {6, 7, 8}}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("changed lines %v, want %v", lines, want)
	}
	if got.has("a.py", 4) || !got.has("a.py", 12) || got.has("old.py", 1) {
		t.Errorf("has: wrong answers for %v", lines)
	}
	for _, bad := range []string{"@@ -1 +x @@", "@@ -1 @@", "@@ -1 +1,y @@"} {
		if _, _, err := parseHunk(bad); err == nil {
			t.Errorf("parseHunk(%q): no error", bad)
		}
	}
}

func gitT(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestNewFromRev(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	// The scanned root is a subdirectory of the work tree.
	top := writeTree(t, map[string]string{
		"repo/resources_servers/plain/app.py": plainServer,
		"repo/resources_servers/other/app.py": strings.ReplaceAll(plainServer, "PlainServer", "OtherServer"),
		"outside/app.py":                      plainServer,
	})
	root := filepath.Join(top, "repo")
	gitT(t, top, "init", "-q")
	gitT(t, top, "add", ".")
	gitT(t, top, "commit", "-q", "-m", "base")

	if out, errOut, code := run(t, "--new-from-rev", "HEAD", "--quiet", root); code != ExitClean || out != "" {
		t.Errorf("nothing changed: code %d out %q err %q", code, out, errOut)
	}
	// Change the class line of one server (and a line of a file outside the
	// root, which must not matter), and add an untracked server.
	other := filepath.Join(root, "resources_servers/other/app.py")
	src, _ := os.ReadFile(other)
	if err := os.WriteFile(other, []byte(strings.Replace(string(src), "class OtherServer(", "class OtherServer2(", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, "outside/app.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	newDir := filepath.Join(root, "resources_servers/fresh")
	if err := os.MkdirAll(newDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(newDir, "app.py"), []byte(strings.ReplaceAll(plainServer, "PlainServer", "FreshServer")), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	out, errOut, code := run(t, "--new-from-rev", "HEAD", "--quiet", root)
	if code != ExitFindings {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	got := strings.Split(strings.TrimSpace(out), "\n")
	if len(got) != 2 || !strings.HasPrefix(got[0], "resources_servers/fresh/app.py:4:7: GL101") ||
		!strings.HasPrefix(got[1], "resources_servers/other/app.py:4:7: GL101") {
		t.Errorf("want the fresh and the changed server only, got:\n%s", out)
	}
	// Without the flag the unchanged server is reported too.
	if out, _, _ := run(t, "--quiet", root); strings.Count(out, "GL101") != 3 {
		t.Errorf("without --new-from-rev: %s", out)
	}

	for _, args := range [][]string{
		{"--new-from-rev", "no-such-rev", root},
		{"--new-from-rev", "--", root},
		{"--new-from-rev", "HEAD", t.TempDir()}, // not a git repository
	} {
		_, errOut, code := run(t, args...)
		if code != ExitError || !strings.Contains(errOut, "--new-from-rev") {
			t.Errorf("%v: code %d stderr %q, want exit 2 naming --new-from-rev", args, code, errOut)
		}
	}
}
