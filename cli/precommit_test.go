package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestPreCommitFiles(t *testing.T) {
	root := writeTree(t, map[string]string{
		"resources_servers/plain/app.py":             plainServer,
		"resources_servers/plain/configs/plain.yaml": "plain:\n  resources_servers:\n    plain:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/plain/requirements.txt":   "fastapi\n",
		"resources_servers/other/app.py":             strings.ReplaceAll(plainServer, "PlainServer", "OtherServer"),
		"resources_servers/other/README.md":          "other\n",
	})
	t.Chdir(root)

	check := func(want []string, files ...string) {
		t.Helper()
		out, errOut, code := run(t, append([]string{"--pre-commit", "--quiet"}, files...)...)
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if l != "" {
				got = append(got, strings.SplitN(l, ": ", 2)[0])
			}
		}
		wantCode := ExitClean
		if len(want) > 0 {
			wantCode = ExitFindings
		}
		if code != wantCode || strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("files %v: code %d, findings %v, want %v (stderr %q)", files, code, got, want, errOut)
		}
	}
	plain := "resources_servers/plain/app.py:4:7"
	other := "resources_servers/other/app.py:4:7"
	// The config alone reaches the server it names (a related position).
	check([]string{plain}, "resources_servers/plain/configs/plain.yaml")
	check([]string{plain}, "resources_servers/plain/app.py")
	check([]string{other}, "resources_servers/other/app.py")
	check(nil, "resources_servers/other/README.md")
	check(nil)
	// However pre-commit splits the list, each batch gets its own servers.
	check([]string{other, plain}, "resources_servers/plain/configs/plain.yaml", "resources_servers/other/README.md", "./resources_servers/other/app.py")
	check([]string{other}, "--", filepath.Join(root, "resources_servers/other/app.py"))
	// Flags may follow the files.
	check([]string{plain}, "resources_servers/plain/app.py", "--format", "text")

	// Without --pre-commit, the paths must exist; with it, a file deleted
	// by the commit is no error.
	if _, errOut, code := run(t, "resources_servers/plain/app.py", "gone.py"); code != ExitError || !strings.Contains(errOut, "gone.py: no such file or directory") {
		t.Errorf("a missing path: code %d, stderr %q", code, errOut)
	}
	check(nil, "gone.py")
}
