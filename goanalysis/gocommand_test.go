package goanalysis

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// markerScript writes an executable shell script that appends its
// arguments to the file marker and then runs them (a -toolexec wrapper
// that lets the build go on; as GOCACHEPROG it answers nothing).
func markerScript(t *testing.T, dir, marker string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("a shell script")
	}
	script := filepath.Join(dir, "prog.sh")
	body := "#!/bin/sh\necho \"ran $*\" >> '" + marker + "'\nif [ $# -gt 0 ]; then exec \"$@\"; fi\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

// TestGoCommandRunsNoProgram checks that no setting of the user's makes the
// go list that gymlint runs start a program: GOFLAGS=-toolexec=PROG and
// GOCACHEPROG=PROG, each from the environment, from Config.Env and from a
// go env file (GOENV, as `go env -w` writes it). A scan of a module that
// imports fmt (whose load makes go list ask compile, asm and link for
// their versions, through -toolexec when it is set) leaves no marker.
func TestGoCommandRunsNoProgram(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.26\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(1) }\n\nfunc badMain() {}\n",
	})
	for _, tc := range []struct {
		name string
		env  func(t *testing.T, prog, dir string) (process, config []string)
	}{
		{"GOFLAGS -toolexec in the environment", func(_ *testing.T, prog, _ string) ([]string, []string) {
			return []string{"GOFLAGS=-toolexec=" + prog}, nil
		}},
		{"GOFLAGS -toolexec among other flags", func(_ *testing.T, prog, _ string) ([]string, []string) {
			return []string{"GOFLAGS=-tags=x '-toolexec=" + prog + "' -mod=mod"}, nil
		}},
		{"GOFLAGS -toolexec in Config.Env", func(_ *testing.T, prog, _ string) ([]string, []string) {
			return nil, []string{"GOFLAGS=--toolexec=" + prog}
		}},
		{"GOCACHEPROG in the environment", func(_ *testing.T, prog, _ string) ([]string, []string) {
			return []string{"GOCACHEPROG=" + prog}, nil
		}},
		{"GOFLAGS -toolexec in a go env file", func(t *testing.T, prog, dir string) ([]string, []string) {
			return []string{"GOENV=" + goEnvFileWith(t, dir, "GOFLAGS=-toolexec="+prog)}, nil
		}},
		{"GOCACHEPROG in a go env file", func(t *testing.T, prog, dir string) ([]string, []string) {
			return []string{"GOENV=" + goEnvFileWith(t, dir, "GOCACHEPROG="+prog)}, nil
		}},
		{"go env file in the user's configuration directory", func(t *testing.T, prog, dir string) ([]string, []string) {
			if runtime.GOOS != "linux" {
				t.Skip("XDG_CONFIG_HOME")
			}
			writeFiles(t, dir, map[string]string{"cfg/go/env": "GOFLAGS=-toolexec=" + prog + "\n"})
			return []string{"XDG_CONFIG_HOME=" + filepath.Join(dir, "cfg"), "GOENV="}, nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			marker := filepath.Join(dir, "marker")
			prog := markerScript(t, dir, marker)
			process, config := tc.env(t, prog, dir)
			for _, kv := range process {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Lookup: testLookup, Env: append(withoutGoFlags(testEnv), config...)})
			if err != nil {
				t.Fatal(err)
			}
			if data, err := os.ReadFile(marker); err == nil {
				t.Errorf("the go command ran %s:\n%s", prog, data)
			}
			if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != testRule.Code {
				t.Errorf("diagnostics = %+v, want the analyzer's one", res.Diagnostics)
			}
		})
	}
}

// withoutGoFlags is env without its GOFLAGS, so that the process
// environment's (or the go env file's) applies.
func withoutGoFlags(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, "GOFLAGS=") })
}

// goEnvFileWith writes a go env file with the given lines in dir.
func goEnvFileWith(t *testing.T, dir string, lines ...string) string {
	t.Helper()
	p := filepath.Join(dir, "goenv")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGoFlagsReadNothingOutside checks that GOFLAGS cannot make go list
// read files outside the root: -modfile (here a go.mod that asks for a Go
// newer than any, which would fail the load) and -overlay (here a file
// added to the package, which go list would list and the load then fail to
// read) are dropped, so the module loads from its own files.
func TestGoFlagsReadNothingOutside(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"m.go":   "package m\n\nfunc badM() {}\n",
	})
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{
		"alt.mod":      "module example.com/m\n\ngo 1.99\n",
		"extra.go":     "package m\n\nfunc badExtra() {}\n",
		"overlay.json": `{"Replace": {"` + filepath.ToSlash(filepath.Join(root, "extra.go")) + `": "` + filepath.ToSlash(filepath.Join(outside, "extra.go")) + `"}}`,
	})
	for _, flag := range []string{"-modfile=" + filepath.Join(outside, "alt.mod"), "-overlay=" + filepath.Join(outside, "overlay.json")} {
		t.Run(strings.SplitN(flag, "=", 2)[0], func(t *testing.T) {
			t.Setenv("GOFLAGS", flag)
			res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Lookup: testLookup, Env: withoutGoFlags(testEnv)})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != testRule.Code || res.Diagnostics[0].Path != "m.go" {
				t.Errorf("diagnostics = %+v, want the analyzer's one at m.go", res.Diagnostics)
			}
		})
	}
}

// TestGoEnvSettingsApply checks that what the filter keeps still applies:
// build tags from GOFLAGS, in the environment or in the go env file, choose
// the files that are analyzed, as they do for go list.
func TestGoEnvSettingsApply(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.26\n",
		"m.go":       "package m\n",
		"special.go": "//go:build special\n\npackage m\n\nfunc badSpecial() {}\n",
	})
	for _, tc := range []struct {
		name string
		env  func(t *testing.T, dir string) []string
	}{
		{"environment", func(*testing.T, string) []string { return []string{"GOFLAGS=-toolexec=/nonexistent -tags=special"} }},
		{"go env file", func(t *testing.T, dir string) []string {
			return []string{"GOFLAGS=", "GOENV=" + goEnvFileWith(t, dir, "# a comment", "GOFLAGS=-tags=special -overlay=/nonexistent.json")}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, kv := range tc.env(t, t.TempDir()) {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Lookup: testLookup, Env: withoutGoFlags(testEnv)})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Diagnostics) != 1 || res.Diagnostics[0].Path != "special.go" {
				t.Errorf("diagnostics = %+v, want the analyzer's one at special.go", res.Diagnostics)
			}
		})
	}
}

// TestGoEnv checks the environment goEnv makes: the filtered GOFLAGS with
// the module's -mod flag, GOENV=off, no GOCACHEPROG, the hardened
// variables over the user's, and the go env file's settings where the
// environment has none.
func TestGoEnv(t *testing.T) {
	dir := t.TempDir()
	file := goEnvFileWith(t, dir, "GOPRIVATE=corp.example", "GOMODCACHE=/from/file", "GOFLAGS=-toolexec=x", "lower=1", "GOEXPERIMENT=", "no equals sign")
	t.Setenv("GOENV", file)
	t.Setenv("GOFLAGS", "-tags=a,b -mod=mod -modfile=/x/go.mod -overlay=/x.json -pgo=/x.pgo -compiler=gccgo -C=/ -x '-tags=c d' \"-tags=e\"")
	t.Setenv("GOMODCACHE", "")
	t.Setenv("GOTOOLCHAIN", "auto")
	value := func(env []string, k string) (string, int) {
		v, n := "", 0
		for _, kv := range env {
			if name, val, _ := strings.Cut(kv, "="); name == k {
				v, n = val, n+1
			}
		}
		return v, n
	}
	for _, network := range []bool{false, true} {
		env := goEnv(Config{Network: network, Env: []string{"GOCACHEPROG=/prog"}}, "-mod=vendor")
		for k, want := range map[string]string{
			"GOFLAGS":     "-tags=a,b -tags=e -mod=vendor",
			"GOENV":       "off",
			"GOCACHEPROG": "",
			"GOTOOLCHAIN": "local",
			"CGO_ENABLED": "0",
			"GOWORK":      "off",
			"GOMODCACHE":  "/from/file",
		} {
			if got, n := value(env, k); got != want || n != 1 {
				t.Errorf("network=%v: %s=%q (%d times), want %q once", network, k, got, n, want)
			}
		}
		private, _ := value(env, "GOPRIVATE")
		proxy, _ := value(env, "GOPROXY")
		if network && private != "corp.example" || !network && (private != "" || proxy != "off") {
			t.Errorf("network=%v: GOPRIVATE=%q GOPROXY=%q", network, private, proxy)
		}
		if _, n := value(env, "lower"); n != 0 {
			t.Errorf("a go env file line that the go command ignores is passed on")
		}
	}
}

func TestSafeGoFlags(t *testing.T) {
	for in, want := range map[string][]string{
		"":                                  nil,
		"-tags=x":                           {"-tags=x"},
		"--tags=x,y -trimpath":              {"-tags=x,y"},
		"-tags":                             nil,
		"-toolexec=/bin/sh -tags=ok":        {"-tags=ok"},
		"'-toolexec=/a b' -tags=ok":         {"-tags=ok"},
		"-tags=ok '-unterminated":           nil,
		"-tags=a\t-exec=x\n-overlay=o.json": {"-tags=a"},
		"tags=x -tags=y":                    {"-tags=y"},
		"'-tags=a b'":                       nil,
	} {
		if got := safeGoFlags(in); !slices.Equal(got, want) {
			t.Errorf("safeGoFlags(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGoEnvFileNotRegular checks that a go env file that is a named pipe
// is not read (opening it without O_NONBLOCK would block the scan).
func TestGoEnvFileNotRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "env")
	mkfifo(t, fifo)
	if got := goEnvFile(fifo); got != nil {
		t.Errorf("goEnvFile of a named pipe = %q", got)
	}
	if got := goEnvFile(goEnvFileWith(t, t.TempDir(), "GOFLAGS=-tags=x", "#GOPROXY=y", "bad")); !slices.Equal(got, []string{"GOFLAGS=-tags=x"}) {
		t.Errorf("goEnvFile = %q", got)
	}
}
