package goanalysis

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
)

const okMod = "module example.com/ok\n\ngo 1.26\n"

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// loadErrorsByPath is the GL008 messages of a result by path.
func loadErrorsByPath(res *Result) map[string][]string {
	out := map[string][]string{}
	for _, d := range res.Diagnostics {
		if d.Code == core.GoLoadError.Code {
			out[d.Path] = append(out[d.Path], d.Message)
		}
	}
	return out
}

// TestUnsafeFilesStopTheModule checks each kind of file that stops a module
// from loading, beside a module that loads: the unsafe module is reported
// at the file and not loaded (no package of it counted), within a bound
// (a named pipe that go list opened would block it forever).
func TestUnsafeFilesStopTheModule(t *testing.T) {
	outside := t.TempDir()
	const marker = "GYMLINT_OUTSIDE_MARKER_51c2"
	writeFiles(t, outside, map[string]string{
		"secret.go":    "package secret\n\nvar x = " + marker + "\n",
		"dir/d.go":     "package d\n\nvar x = " + marker + "\n",
		"other/go.mod": "module example.com/other\n\ngo 1.26\n",
		"other/o.go":   "package other\n\nvar x = " + marker + "\n",
	})
	big := "package big\n\n// " + strings.Repeat("x", 600) + "\n"
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, root string)
		path  string // where the finding is
		what  string // in its message
	}{
		{"fifo go file", func(t *testing.T, root string) { mkfifo(t, filepath.Join(root, "bad/p/fifo.go")) },
			"bad/p/fifo.go", "is a named pipe (FIFO), not a regular file"},
		{"fifo assembly file", func(t *testing.T, root string) { mkfifo(t, filepath.Join(root, "bad/p/asm_amd64.s")) },
			"bad/p/asm_amd64.s", "is a named pipe (FIFO)"},
		{"fifo go.sum", func(t *testing.T, root string) { mkfifo(t, filepath.Join(root, "bad/go.sum")) },
			"bad/go.sum", "is a named pipe (FIFO)"},
		{"fifo in testdata", func(t *testing.T, root string) { mkfifo(t, filepath.Join(root, "bad/p/testdata/x.go")) },
			"bad/p/testdata/x.go", "is a named pipe (FIFO)"},
		{"socket go file", func(t *testing.T, root string) {
			dir := filepath.Join(root, "bad/p")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			// A socket path must be short: listen from inside the directory.
			wd, _ := os.Getwd()
			if err := os.Chdir(dir); err != nil {
				t.Fatal(err)
			}
			defer os.Chdir(wd)
			l, err := net.Listen("unix", "s.go")
			if err != nil {
				t.Skipf("unix socket: %v", err)
			}
			t.Cleanup(func() { l.Close() })
		}, "bad/p/s.go", "is a socket, not a regular file"},
		{"link to a file outside", func(t *testing.T, root string) {
			symlink(t, filepath.Join(outside, "secret.go"), filepath.Join(root, "bad/p/secret.go"))
		}, "bad/p/secret.go", "is a symbolic link that leads out of the repository root"},
		{"link to a directory outside", func(t *testing.T, root string) {
			symlink(t, filepath.Join(outside, "dir"), filepath.Join(root, "bad/linked"))
		}, "bad/linked", "is a symbolic link that leads out of the repository root"},
		// What is outside is never looked at: a link to nothing there is
		// refused with the same message as one to a file or a directory,
		// so the finding tells nothing of the disk outside the root.
		{"link to nothing outside", func(t *testing.T, root string) {
			symlink(t, filepath.Join(outside, "no-such-file.go"), filepath.Join(root, "bad/p/gone.go"))
		}, "bad/p/gone.go", "is a symbolic link that leads out of the repository root"},
		{"link to nothing outside, no extension", func(t *testing.T, root string) {
			symlink(t, filepath.Join(outside, "no-such-dir", "deeper"), filepath.Join(root, "bad/maybe"))
		}, "bad/maybe", "is a symbolic link that leads out of the repository root"},
		{"fifo behind a link inside", func(t *testing.T, root string) {
			mkfifo(t, filepath.Join(root, "elsewhere/fifo.go"))
			symlink(t, "../../elsewhere", filepath.Join(root, "bad/p/in"))
		}, "elsewhere/fifo.go", "is a named pipe (FIFO)"},
		{"go file over the size cap", func(t *testing.T, root string) { writeFiles(t, root, map[string]string{"bad/p/big.go": big}) },
			"bad/p/big.go", "is larger than the size limit (512 bytes)"},
		{"go.mod over the size cap", func(t *testing.T, root string) {
			writeFiles(t, root, map[string]string{"bad/go.mod": okMod + "\n// " + strings.Repeat("y", 600) + "\n"})
		}, "bad/go.mod", "is larger than the size limit (512 bytes)"},
		{"replace outside, relative", func(t *testing.T, root string) {
			rel, err := filepath.Rel(filepath.Join(root, "bad"), filepath.Join(outside, "other"))
			if err != nil {
				t.Fatal(err)
			}
			writeFiles(t, root, map[string]string{"bad/go.mod": "module example.com/bad\n\ngo 1.26\n\nrequire example.com/other v0.0.0\n\nreplace example.com/other => " + filepath.ToSlash(rel) + "\n"})
		}, "bad/go.mod", "replaces example.com/other with ../"},
		{"replace outside, absolute", func(t *testing.T, root string) {
			writeFiles(t, root, map[string]string{"bad/go.mod": "module example.com/bad\n\ngo 1.26\n\nreplace example.com/other v1.0.0 => " + filepath.Join(outside, "other") + "\n"})
		}, "bad/go.mod", "a directory outside the repository root"},
		{"fifo in a replacement inside", func(t *testing.T, root string) {
			writeFiles(t, root, map[string]string{
				"bad/go.mod":       "module example.com/bad\n\ngo 1.26\n\nreplace example.com/lib => ../.lib\n",
				".lib/go.mod":      "module example.com/lib\n\ngo 1.26\n",
				".lib/lib/good.go": "package lib\n",
			})
			mkfifo(t, filepath.Join(root, ".lib/lib/fifo.go"))
		}, ".lib/lib/fifo.go", "is a named pipe (FIFO)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, map[string]string{
				"bad/go.mod": "module example.com/bad\n\ngo 1.26\n",
				"bad/p/p.go": "package p\n\nfunc badP() {}\n",
				"ok/go.mod":  okMod,
				"ok/ok.go":   "package ok\n\nfunc badOK() {}\n",
			})
			tc.setup(t, root)
			start := time.Now()
			res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Lookup: testLookup, Env: testEnv, MaxFileSize: 512})
			if err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); took > time.Minute {
				t.Errorf("Run took %s", took)
			}
			got := loadErrorsByPath(res)
			if len(got) != 1 || len(got[tc.path]) != 1 || !strings.Contains(got[tc.path][0], "Go module bad is not loaded: ") || !strings.Contains(got[tc.path][0], tc.what) {
				t.Errorf("GL008 = %q, want one at %s saying %q", got, tc.path, tc.what)
			}
			// Only the other module was loaded and analyzed.
			var found []string
			for _, d := range res.Diagnostics {
				if d.Code == testRule.Code {
					found = append(found, d.Path)
				}
			}
			if res.Packages != 1 || !slices.Equal(found, []string{"ok/ok.go"}) || !slices.Equal(res.Files, []string{"ok/ok.go"}) {
				t.Errorf("Packages = %d, findings in %q, files %q: want the ok module alone", res.Packages, found, res.Files)
			}
			for _, d := range res.Diagnostics {
				if strings.Contains(d.Message, marker) {
					t.Errorf("a message quotes a file outside the root: %s", d.Message)
				}
			}
		})
	}
}

// TestSafeFilesLoad checks what does not stop a module: a named pipe that
// the go command does not open (not a source file), one in a hidden
// directory or a nested module (which is reported for itself), a link to a
// file inside the root, and a replacement inside the root.
func TestSafeFilesLoad(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"m/go.mod":            "module example.com/m\n\ngo 1.26\n\nrequire example.com/lib v0.0.0\n\nreplace example.com/lib => ../lib\n",
		"m/p/p.go":            "package p\n\nimport \"example.com/lib\"\n\nvar _ = lib.X\n\nfunc badP() {}\n",
		"m/nested/go.mod":     "module example.com/nested\n\ngo 1.26\n",
		"m/nested/n.go":       "package nested\n",
		"shared/shared.go.in": "package p\n\nfunc badShared() {}\n",
		"lib/go.mod":          "module example.com/lib\n\ngo 1.26\n",
		"lib/lib.go":          "package lib\n\nvar X = 1\n",
	})
	mkfifo(t, filepath.Join(root, "m/p/README"))
	mkfifo(t, filepath.Join(root, "m/.cache/x.go"))
	mkfifo(t, filepath.Join(root, "m/nested/fifo.go"))
	symlink(t, "../../shared/shared.go.in", filepath.Join(root, "m/p/shared.go"))
	res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Lookup: testLookup, Env: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	got := loadErrorsByPath(res)
	if len(got) != 1 || len(got["m/nested/fifo.go"]) != 1 || !strings.Contains(got["m/nested/fifo.go"][0], "Go module m/nested is not loaded") {
		t.Errorf("GL008 = %q, want the nested module's named pipe alone", got)
	}
	var found []string
	for _, d := range res.Diagnostics {
		if d.Code == testRule.Code {
			found = append(found, d.Path)
		}
	}
	// The link is loaded under its own name.
	if want := []string{"m/p/p.go", "m/p/shared.go"}; !slices.Equal(found, want) {
		t.Errorf("findings in %q, want %q", found, want)
	}
}

// TestUnsafeFilesAreCounted checks that a module with many unsafe files
// gets a bounded number of findings, the last counting the rest.
func TestUnsafeFilesAreCounted(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"go.mod": okMod})
	for i := range maxProblems + 5 {
		mkfifo(t, filepath.Join(root, "p", "f"+strconv.Itoa(100+i)+".go"))
	}
	res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Env: testEnv})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Diagnostics) != maxProblems {
		t.Fatalf("%d findings, want %d", len(res.Diagnostics), maxProblems)
	}
	n := 0
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "(and 5 more files like it)") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d findings count the rest, want 1: %+v", n, res.Diagnostics)
	}
}

// TestCgoFilesLeftOut checks that the files of a package that import "C"
// are not loaded (no C compiler runs: an #include of a file outside the
// root would otherwise put its lines in the message) and are reported
// once per package, at the import, and that the package's other files and
// the packages that do not need the cgo ones are analyzed.
func TestCgoFilesLeftOut(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.h")
	if err := os.WriteFile(secret, []byte("GYMLINT_SECRET_MARKER_7f3a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cgoFile := "package mixed\n\n// #include \"" + secret + "\"\n// #cgo pkg-config: gymlint-no-such-package\nimport \"C\"\n\nfunc FromC() int { return 1 }\n"
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod":               okMod,
		"mixed/c.go":           cgoFile,
		"mixed/pure.go":        "package mixed\n\nfunc badPure() {}\n",
		"needs/needs.go":       "package needs\n\nimport \"example.com/ok/mixed\"\n\nvar _ = mixed.FromC\n",
		"onlyc/a.go":           "package onlyc\n\nimport \"C\"\n",
		"onlyc/b.go":           "package onlyc\n\nimport \"C\"\n",
		"standalone/s.go":      "package standalone\n\nimport \"C\"\n\nvar _ = 1\n",
		"standalone/plain.go":  "package standalone\n\nfunc badPlain() {}\n",
		"windows/w_windows.go": "package windows\n\nimport \"C\"\n", // excluded by its name, not by cgo
		"windows/w.go":         "package windows\n",
	})
	// Whatever C toolchain the machine has, none may run.
	trap := t.TempDir()
	log := filepath.Join(trap, "ran")
	for _, tool := range []string{"gcc", "cc", "clang", "pkg-config", "as", "ld"} {
		script := "#!/bin/sh\necho " + tool + " >> " + log + "\nexit 1\n"
		if err := os.WriteFile(filepath.Join(trap, tool), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", trap+string(os.PathListSeparator)+os.Getenv("PATH"))
	env := append(slices.Clone(testEnv), "CGO_ENABLED=1", "CC=gcc")
	res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Lookup: testLookup, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(log); err == nil {
		t.Errorf("C tools ran: %s", data)
	}
	byPath := map[string]diag.Diagnostic{}
	for _, d := range res.Diagnostics {
		t.Logf("%s:%d:%d: %s %s", d.Path, d.Start.Line, d.Start.Col, d.Code, d.Message)
		if strings.Contains(d.Message, "GYMLINT_SECRET_MARKER") {
			t.Errorf("a message quotes the included file: %s", d.Message)
		}
		byPath[d.Path+" "+d.Code] = d
	}
	want := map[string]string{
		"mixed/c.go GL008":          `Go package example.com/ok/mixed: c.go is not analyzed: it uses cgo (import "C"), and gymlint loads Go code with CGO_ENABLED=0 so that no C compiler or pkg-config runs on the repository; the package's other files are analyzed`,
		"mixed/pure.go GL999":       "function badPure is badly named",
		"needs/needs.go GL008":      `Go package example.com/ok/needs is not analyzed: it imports example.com/ok/mixed, whose files that use cgo are not loaded (CGO_ENABLED=0), so it does not type-check`,
		"onlyc/a.go GL008":          `Go package in onlyc: a.go, b.go are not analyzed: they use cgo (import "C"), and gymlint loads Go code with CGO_ENABLED=0 so that no C compiler or pkg-config runs on the repository; the package has no other file, so it is not analyzed`,
		"standalone/s.go GL008":     `Go package example.com/ok/standalone: s.go is not analyzed: it uses cgo (import "C"), and gymlint loads Go code with CGO_ENABLED=0 so that no C compiler or pkg-config runs on the repository; the package's other files are analyzed`,
		"standalone/plain.go GL999": "function badPlain is badly named",
	}
	for k, msg := range want {
		if d, ok := byPath[k]; !ok || d.Message != msg {
			t.Errorf("%s: %q, want %q", k, d.Message, msg)
		}
	}
	if len(res.Diagnostics) != len(want) {
		t.Errorf("%d findings, want %d", len(res.Diagnostics), len(want))
	}
	if d := byPath["mixed/c.go GL008"]; d.Start.Line != 5 || d.Start.Col != 8 || d.Start.Offset != strings.Index(cgoFile, `"C"`) {
		t.Errorf("the cgo finding is at %+v, want the import at 5:8", d.Start)
	}
}

// TestEnvironmentWins checks that gymlint's settings for the go command
// win over a hostile-friendly user environment: GOTOOLCHAIN=auto and a
// GOPROXY that records requests (a toolchain line, a go line above the
// installed Go, a missing requirement), GOFLAGS=-mod=mod (which would
// write go.sum into the repository), CGO_ENABLED=1, and a go.work above
// the root (which would apply to the modules).
func TestEnvironmentWins(t *testing.T) {
	var mu sync.Mutex
	var requests []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests = append(requests, r.URL.Path)
		mu.Unlock()
		http.NotFound(w, r)
	}))
	defer proxy.Close()
	parent := t.TempDir()
	root := filepath.Join(parent, "repo")
	writeFiles(t, parent, map[string]string{
		"go.work":               "go 1.99\n\nuse ./repo/toolchain\n",
		"repo/toolchain/go.mod": "module example.com/toolchain\n\ngo 1.26\n\ntoolchain go1.99.0\n",
		"repo/toolchain/t.go":   "package toolchain\n\nfunc badT() {}\n",
		"repo/newgo/go.mod":     "module example.com/newgo\n\ngo 1.99\n",
		"repo/newgo/n.go":       "package newgo\n",
		"repo/missing/go.mod":   "module example.com/missing\n\ngo 1.26\n\nrequire example.com/gone v1.0.0\n",
		"repo/missing/m.go":     "package missing\n\nimport \"example.com/gone\"\n\nvar _ = gone.X\n",
		"repo/nosum/go.mod":     "module example.com/nosum\n\ngo 1.26\n\nrequire golang.org/x/sync v0.24.0\n",
		"repo/nosum/s.go":       "package nosum\n\nimport _ \"golang.org/x/sync/errgroup\"\n",
	})
	env := []string{"GOTOOLCHAIN=auto", "GOPROXY=" + proxy.URL, "GOSUMDB=sum.golang.org", "GOFLAGS=-mod=mod", "CGO_ENABLED=1", "GOWORK=", "GONOSUMDB=", "GOPRIVATE="}
	start := time.Now()
	res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Lookup: testLookup, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Run took %s", time.Since(start))
	mu.Lock()
	if len(requests) > 0 {
		t.Errorf("the go command asked the proxy for %q", requests)
	}
	mu.Unlock()
	got := loadErrorsByPath(res)
	for path, want := range map[string]string{
		"newgo/go.mod": "Go module newgo does not load: go: go.mod requires go >= 1.99 (running go ",
		"missing/m.go": "Go package example.com/missing is not analyzed: it imports example.com/gone, which does not load: ",
		"nosum/s.go":   "Go package example.com/nosum is not analyzed: it imports golang.org/x/sync/errgroup, which does not load: missing go.sum entry",
	} {
		if len(got[path]) != 1 || !strings.Contains(got[path][0], want) {
			t.Errorf("%s: GL008 %q, want %q", path, got[path], want)
		}
	}
	if len(got) != 3 {
		t.Errorf("GL008 = %q", got)
	}
	// The toolchain line is a suggestion: the installed Go loads it.
	if !slices.Contains(res.Files, "toolchain/t.go") {
		t.Errorf("the module with a toolchain line is not analyzed: files %q", res.Files)
	}
	if _, err := os.Stat(filepath.Join(root, "nosum", "go.sum")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("go.sum was written into the repository (%v)", err)
	}
}

// TestVendorModule checks that a module with a vendor directory loads its
// dependencies from it, offline, even when GOFLAGS says -mod=mod.
func TestVendorModule(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod":                        "module example.com/v\n\ngo 1.26\n\nrequire example.com/dep v1.0.0\n",
		"v.go":                          "package v\n\nimport \"example.com/dep\"\n\nvar _ = dep.X\n\nfunc badV() {}\n",
		"vendor/modules.txt":            "# example.com/dep v1.0.0\n## explicit; go 1.26\nexample.com/dep\n",
		"vendor/example.com/dep/dep.go": "package dep\n\nvar X = 1\n",
	})
	res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Lookup: testLookup, Env: []string{"GOFLAGS=-mod=mod"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != testRule.Code {
		t.Errorf("diagnostics = %+v, want the analyzer's one", res.Diagnostics)
	}
}

// children are the processes whose parent is this one.
func children(t *testing.T) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc")
	}
	me := os.Getpid()
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces; split after ")".
		s := string(data)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 && fields[1] == strconv.Itoa(me) && fields[0] != "Z" {
			out = append(out, pid)
		}
	}
	return out
}

// TestLoadTimeout checks the bound on go list without the check of the
// files before it: a named pipe blocks go list, and the load is stopped at
// the timeout and reported, with no go command left running.
func TestLoadTimeout(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"go.mod": okMod, "p/p.go": "package p\n"})
	mkfifo(t, filepath.Join(root, "p/fifo.go"))
	start := time.Now()
	res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Env: testEnv, LoadTimeout: time.Second, noCheck: true})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("stopped after %s", took)
	if took > 30*time.Second {
		t.Errorf("Run took %s with a 1s load timeout", took)
	}
	want := "Go module . is not analyzed: loading it (go list, then type-checking its packages) did not finish within 1s, and gymlint stopped it"
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Path != "go.mod" || res.Diagnostics[0].Message != want {
		t.Errorf("diagnostics = %+v, want %q at go.mod", res.Diagnostics, want)
	}
	if c := children(t); len(c) > 0 {
		t.Errorf("processes left running: %v", c)
	}
}

// TestInterrupt checks that Interrupt stops a load under way (go list
// blocked on a named pipe), that Run then returns ErrInterrupted, that no
// go command is left running, and that later loads fail at once.
func TestInterrupt(t *testing.T) {
	t.Cleanup(resetInterrupt)
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"go.mod": okMod, "p/p.go": "package p\n"})
	mkfifo(t, filepath.Join(root, "p/fifo.go"))
	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := Run(root, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Env: testEnv, noCheck: true})
		done <- outcome{res, err}
	}()
	deadline := time.Now().Add(30 * time.Second)
	for len(children(t)) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("go list did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	Interrupt()
	select {
	case o := <-done:
		if !errors.Is(o.err, ErrInterrupted) {
			t.Errorf("Run = %+v, %v; want ErrInterrupted", o.res, o.err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return after Interrupt")
	}
	t.Logf("Interrupt returned, and Run with it, after %s", time.Since(start))
	if c := children(t); len(c) > 0 {
		t.Errorf("processes left running after Interrupt: %v", c)
	}
	if !Interrupted() {
		t.Error("Interrupted() = false")
	}
	other := t.TempDir()
	writeFiles(t, other, map[string]string{"go.mod": okMod, "p.go": "package p\n"})
	if _, err := Run(other, Config{Analyzers: []*analysis.Analyzer{testAnalyzer}, Env: testEnv}); !errors.Is(err, ErrInterrupted) {
		t.Errorf("Run after Interrupt: %v, want ErrInterrupted", err)
	}
}

func TestClean(t *testing.T) {
	c := &converter{root: rooted{abs: "/work/repo", real: "/real/repo"}}
	for _, tc := range []struct{ in, want string }{
		{"go: errors parsing go.mod:\n/work/repo/m/go.mod:5: syntax error", "go: errors parsing go.mod: m/go.mod:5: syntax error"},
		{"build constraints exclude all Go files in /real/repo/c", "build constraints exclude all Go files in c"},
		{"# example.com/m/c\nIn file included from c/c.go:3:\n/etc/passwd:1:1: error: unknown type name 'root'\n    1 | root:x:0:0:root:/root:/bin/bash\n",
			"a build step of the go command failed (its output is not shown: it can quote the files it read)"},
		{"go build example.com/m/c:\n# example.com/m/c\nsecret line", "a build step of the go command failed (its output is not shown: it can quote the files it read)"},
		// 8 + 146*2 = 300 bytes, then the cut falls inside the next letter.
		{"package " + strings.Repeat("é", 200) + " is not in std", "package " + strings.Repeat("é", 146) + "..."},
	} {
		if got := c.clean(tc.in); got != tc.want {
			t.Errorf("clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
