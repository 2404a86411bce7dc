package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outputsRepo is a repository with one finding (GL101, with unsafe fixes)
// and a config that names its server.
func outputsRepo(t *testing.T) string {
	t.Helper()
	return writeTree(t, map[string]string{
		"resources_servers/srv/app.py": "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\n" +
			"class Srv(SimpleResourcesServer):\n    async def verify(self, body):\n        return body\n\n\n" +
			"if __name__ == \"__main__\":\n    Srv.run_webserver()\n",
		"resources_servers/srv/configs/srv.yaml": "srv:\n  resources_servers:\n    srv:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/srv/requirements.txt": "fastapi\n",
	})
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOutputFile checks --output-file for every format: the file holds the
// bytes stdout gets without it, stdout gets nothing, the summary stays on
// stderr, and the exit status is the same. The file lies outside the
// repository, its missing directories are made, an existing file is
// replaced whole (keeping its mode), and no temporary file is left.
func TestOutputFile(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	root := outputsRepo(t)
	t.Chdir(root)
	out := t.TempDir()
	for _, format := range []string{"text", "full", "json", "sarif", "github"} {
		t.Run(format, func(t *testing.T) {
			want, wantErr, wantCode := run(t, "--format", format, ".")
			if wantCode != ExitFindings || want == "" {
				t.Fatalf("--format %s: exit %d, stdout %q", format, wantCode, want)
			}
			file := filepath.Join(out, format, "sub", "findings."+format)
			got, gotErr, code := run(t, "--format", format, "--output-file", file, ".")
			if code != wantCode || got != "" {
				t.Errorf("--output-file: exit %d (want %d), stdout %q (want nothing)", code, wantCode, got)
			}
			if b := readFile(t, file); b != want {
				t.Errorf("--output-file %s holds\n%s\nwant what stdout gets:\n%s", file, b, want)
			}
			if summaryOf(gotErr) != summaryOf(wantErr) || (format == "text" || format == "full") != strings.Contains(gotErr, "gymlint: 1 finding;") {
				t.Errorf("stderr %q, want the summary as without --output-file: %q", gotErr, wantErr)
			}
			// Replaced whole, mode kept.
			if err := os.WriteFile(file, []byte(strings.Repeat("old line\n", 2000)), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(file, 0o600); err != nil {
				t.Fatal(err)
			}
			if _, _, code := run(t, "--format", format, "--output-file", file, "--quiet", "."); code != wantCode {
				t.Errorf("again: exit %d", code)
			}
			if b := readFile(t, file); b != want {
				t.Errorf("an existing file was not replaced whole:\n%.300s", b)
			}
			if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
				t.Errorf("mode of the replaced file: %v %v, want 0600", st.Mode(), err)
			}
			if es, _ := os.ReadDir(filepath.Dir(file)); len(es) != 1 {
				t.Errorf("the directory holds %d entries, want only the file (no temporary file left)", len(es))
			}
		})
	}
	// --output-file with --diff: the diff goes there.
	diff, _, diffCode := run(t, "--diff", "--unsafe-fixes", ".")
	file := filepath.Join(out, "fixes.patch")
	if got, _, code := run(t, "--diff", "--unsafe-fixes", "--output-file", file, "."); code != diffCode || got != "" || readFile(t, file) != diff || !strings.Contains(diff, "+++ b/") {
		t.Errorf("--diff --output-file: exit %d, stdout %q, file\n%s\nwant\n%s", code, got, readFile(t, file), diff)
	}
	// A directory is refused before the check: a usage error.
	for _, args := range [][]string{{"--output-file", out}, {"--format", "sarif:" + out}} {
		got, errOut, code := run(t, append(args, ".")...)
		if code != ExitError || got != "" || !strings.Contains(errOut, out+" is a directory") || !strings.HasSuffix(errOut, "Run 'gymlint --help' for usage.\n") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want a usage error", args, code, got, errOut)
		}
	}
}

// summaryOf is the summary line of a check's stderr without its duration.
func summaryOf(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "gymlint: ") && strings.Contains(l, "; root ") {
			l, _, _ = strings.Cut(l, "; ") // the count: what the cache did varies
			return l
		}
	}
	return ""
}

// TestSeveralFormats checks --format NAME:FILE: one run with several
// formats writes what separate runs print, its exit status is theirs, and
// the combinations that make no sense are usage errors.
func TestSeveralFormats(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	root := outputsRepo(t)
	t.Chdir(root)
	out := t.TempDir()
	alone := map[string]string{}
	for _, f := range []string{"text", "full", "json", "sarif", "github"} {
		s, _, code := run(t, "--quiet", "--format", f, ".")
		if code != ExitFindings {
			t.Fatalf("--format %s: exit %d", f, code)
		}
		alone[f] = s
	}
	sarif, jsonFile, text := filepath.Join(out, "gymlint.sarif"), filepath.Join(out, "x", "gymlint.json"), filepath.Join(out, "gymlint.txt")
	got, errOut, code := run(t, "--format", "github", "--format", "sarif:"+sarif, "--format", "json:"+jsonFile, "--format", "full:"+text, ".")
	if code != ExitFindings || got != alone["github"] {
		t.Errorf("github on stdout: exit %d, stdout\n%s\nwant\n%s", code, got, alone["github"])
	}
	for file, f := range map[string]string{sarif: "sarif", jsonFile: "json", text: "full"} {
		if b := readFile(t, file); b != alone[f] {
			t.Errorf("--format %s:%s holds\n%s\nwant\n%s", f, file, b, alone[f])
		}
	}
	if !strings.Contains(errOut, "gymlint: 1 finding;") { // full is one of them
		t.Errorf("stderr %q lacks the summary", errOut)
	}
	// Every format to a file: nothing on stdout; the one without a FILE
	// goes to --output-file.
	if got, errOut, code := run(t, "--quiet", "--format", "sarif:"+sarif, "."); code != ExitFindings || got != "" || errOut != "" || readFile(t, sarif) != alone["sarif"] {
		t.Errorf("only sarif:FILE: exit %d, stdout %q, stderr %q", code, got, errOut)
	}
	if got, _, code := run(t, "--quiet", "--format", "json:"+jsonFile, "--format", "text", "--output-file", text, "."); code != ExitFindings || got != "" ||
		readFile(t, text) != alone["text"] || readFile(t, jsonFile) != alone["json"] {
		t.Errorf("text to --output-file and json:FILE: exit %d, stdout %q", code, got)
	}
	// --exit-zero and a clean repository: the exit status is the findings'.
	if _, _, code := run(t, "--quiet", "--exit-zero", "--format", "text", "--format", "json:"+jsonFile, "."); code != ExitClean {
		t.Errorf("--exit-zero: exit %d", code)
	}
	clean := writeTree(t, map[string]string{"resources_servers/echo/app.py": cleanServer})
	if got, _, code := run(t, "--quiet", "--format", "json:"+jsonFile, "--format", "text", clean); code != ExitClean || got != "" || strings.TrimSpace(readFile(t, jsonFile)) != "[]" {
		t.Errorf("clean: exit %d, stdout %q, json %q", code, got, readFile(t, jsonFile))
	}
	// --statistics in several formats: each its own.
	statsText, _, _ := run(t, "--quiet", "--statistics", ".")
	statsJSON, _, _ := run(t, "--quiet", "--statistics", "--format", "json", ".")
	if got, _, code := run(t, "--quiet", "--statistics", "--format", "text", "--format", "json:"+jsonFile, "."); code != ExitFindings || got != statsText || readFile(t, jsonFile) != statsJSON {
		t.Errorf("--statistics text and json:FILE: exit %d, stdout %q, file %q", code, got, readFile(t, jsonFile))
	}
	// The step summary is appended once however many github outputs.
	summary := filepath.Join(out, "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	if _, _, code := run(t, "--quiet", "--format", "github", "--format", "github:"+filepath.Join(out, "gh.txt"), "."); code != ExitFindings || strings.Count(readFile(t, summary), "### gymlint") != 1 {
		t.Errorf("two github outputs: exit %d, step summary\n%s", code, readFile(t, summary))
	}
	t.Setenv("GITHUB_STEP_SUMMARY", "")

	link := filepath.Join(out, "link.sarif")
	if err := os.Symlink(sarif, link); err != nil {
		t.Fatal(err)
	}
	// A file that does not exist yet, named through a linked directory.
	linkDir := filepath.Join(out, "linkdir")
	if err := os.Symlink(out, linkDir); err != nil {
		t.Fatal(err)
	}
	fresh, freshByLink := filepath.Join(out, "fresh.out"), filepath.Join(linkDir, "fresh.out")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--format", "text", "--format", "json"}, "--format text and --format json both go to stdout: give all but one a FILE (NAME:FILE)"},
		{[]string{"--format", "json:" + sarif, "--format", "sarif:" + sarif}, "--format json:" + sarif + " and --format sarif:" + sarif + " both write " + sarif},
		{[]string{"--format", "json:" + sarif, "--format", "sarif:" + link}, "both write " + sarif},
		{[]string{"--format", "json:" + fresh, "--format", "sarif:" + freshByLink}, "both write"},
		{[]string{"--format", "text", "--format", "json:" + text, "--output-file", text}, "--format text and --format json:" + text + " both write " + text},
		{[]string{"--format", "json:" + text, "--format", "text", "--output-file", text}, "both write " + text},
		{[]string{"--format", "sarif:" + text, "--output-file", text}, "--format sarif:" + text + " and --output-file " + text + " both write " + text},
		{[]string{"--format", "sarif:" + sarif, "--output-file", text}, "--output-file " + text + " receives the --format given without a FILE, and every --format has one"},
		{[]string{"--format", "xml:" + sarif}, `unknown --format "xml"`},
		{[]string{"--format", "xml"}, `unknown --format "xml"`},
		{[]string{"--format", "json:"}, "--format json:: no FILE after the colon"},
		{[]string{"--diff", "--format", "json"}, "--diff prints one unified diff, on stdout or to --output-file; it cannot be combined with --format json"},
		{[]string{"--diff", "--format", "text", "--format", "json:" + jsonFile}, "cannot be combined with --format json:" + jsonFile},
		{[]string{"--diff", "--format", "text:" + text}, "cannot be combined with --format text:" + text},
		{[]string{"--statistics", "--format", "text", "--format", "sarif:" + sarif}, "--statistics prints text or JSON, not --format sarif"},
	} {
		before := readFile(t, sarif)
		got, errOut, code := run(t, append(tc.args, ".")...)
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		if code != ExitError || got != "" || len(lines) != 2 || !strings.HasPrefix(lines[0], "gymlint: ") || !strings.Contains(lines[0], tc.msg) ||
			lines[1] != "Run 'gymlint --help' for usage." {
			t.Errorf("%v: exit %d, stdout %q, stderr\n%s\nwant a usage error with %q", tc.args, code, got, errOut, tc.msg)
		}
		if readFile(t, sarif) != before {
			t.Errorf("%v: a usage error wrote %s", tc.args, sarif)
		}
	}
}
