package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The hostile Go modules: loading a Go module must not hang on a file, run
// a C toolchain, quote a file from outside the root, download anything or
// leave a go command running.

// goRun is a run of the gymlint binary for these tests: the harness's
// bounds (a wall-clock limit, a peak-memory bound asserted from rusage,
// the process group killed at the deadline), with env after the harness's
// offline settings (so that a test can make the user's environment
// hostile-friendly), and a check that no process of the run's group is
// left when gymlint has ended.
type goRun struct {
	env    []string
	limit  time.Duration
	maxMB  int64
	signal func(pid int) // when not nil, called in a goroutine once gymlint started
}

func (r goRun) run(t *testing.T, dir string, args ...string) outcome {
	t.Helper()
	bin := gymlintBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), r.limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = slices.Concat(os.Environ(), offline, r.env)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	var wg sync.WaitGroup
	if r.signal != nil {
		wg.Go(func() { r.signal(pgid) })
	}
	err := cmd.Wait()
	wg.Wait()
	res := outcome{stdout: o.String(), stderr: e.String(), took: time.Since(start)}
	left := groupMembers(t, pgid)
	if len(left) > 0 {
		syscall.Kill(-pgid, syscall.SIGKILL)
		t.Errorf("gymlint %s left processes of its group running: %s", strings.Join(args, " "), strings.Join(left, "; "))
	}
	if ctx.Err() != nil {
		t.Fatalf("gymlint %s did not finish within %s\nstderr:\n%s", strings.Join(args, " "), r.limit, e.String())
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.code = 128 + int(ws.Signal())
		}
	case err != nil:
		t.Fatalf("gymlint %s: %v", strings.Join(args, " "), err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.peakMB = ru.Maxrss / 1024
	}
	if res.peakMB > r.maxMB {
		t.Errorf("gymlint %s: peak memory %d MB, over the bound of %d MB", strings.Join(args, " "), res.peakMB, r.maxMB)
	}
	t.Logf("gymlint %s: exit %d in %s, peak %d MB", strings.Join(args, " "), res.code, res.took.Round(time.Millisecond), res.peakMB)
	return res
}

// groupMembers lists the live processes (not zombies) of process group
// pgid, as "pid command line", from /proc.
func groupMembers(t *testing.T, pgid int) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc to look for processes left behind")
	}
	var out []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(data)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // state ppid pgrp ...
		if len(f) < 3 || f[0] == "Z" || f[2] != strconv.Itoa(pgid) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out = append(out, e.Name()+" "+strings.TrimSpace(strings.ReplaceAll(string(cmdline), "\x00", " ")))
	}
	return out
}

const hostileGoMod = "module example.com/native\n\ngo 1.26\n"

// TestHostileGoFIFO: a named pipe called fifo.go beside a valid Go file.
// go list opens every .go file of a package directory, and blocked on the
// pipe forever (the old gymlint never finished: the harness's limit killed
// it). Now the module is reported at the pipe and not loaded, another
// module still is, the good server is analysed, and no go command is left.
func TestHostileGoFIFO(t *testing.T) {
	dir := hostileRepo(t, map[string]string{
		"native/go.mod":        hostileGoMod,
		"native/srv/srv.go":    "package srv\n\nfunc Serve() {}\n",
		"clean/go.mod":         "module example.com/clean\n\ngo 1.26\n",
		"clean/clean.go":       "package clean\n",
		"native/srv/README.md": "a server\n",
	})
	if err := syscall.Mkfifo(filepath.Join(dir, "native/srv/fifo.go"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	o := goRun{limit: time.Minute, maxMB: 400}.run(t, dir, ".")
	if o.code != 1 {
		t.Errorf("exit %d, want 1", o.code)
	}
	wantGood(t, o)
	want := "native/srv/fifo.go:1:1: GL008 Go module native is not loaded: native/srv/fifo.go is a named pipe (FIFO), not a regular file"
	if !strings.Contains(o.stdout, want) {
		t.Errorf("no %q in\n%s", want, o.stdout)
	}
	if !strings.Contains(o.stderr, "1 Go package in 2 modules") {
		t.Errorf("the other module was not loaded: %s", o.stderr)
	}
}

// TestHostileGoSignal: gymlint is sent SIGTERM while go list runs. The
// old gymlint died at once and left the go command running (reparented,
// forever when it was blocked on a file). Now it interrupts the go
// command, kills it when it ignores the interrupt, and exits with 143.
// The go command here is a stand-in on PATH that ignores SIGINT and
// sleeps.
func TestHostileGoSignal(t *testing.T) {
	dir := hostileRepo(t, map[string]string{
		"native/go.mod":     hostileGoMod,
		"native/srv/srv.go": "package srv\n",
	})
	fake := t.TempDir()
	started := filepath.Join(fake, "started")
	script := "#!/bin/sh\necho $$ >> " + started + "\ntrap '' INT\nexec sleep 300\n"
	if err := os.WriteFile(filepath.Join(fake, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var sentAt time.Time
	r := goRun{
		env:   []string{"PATH=" + fake + string(os.PathListSeparator) + os.Getenv("PATH")},
		limit: time.Minute, maxMB: 400,
		signal: func(pid int) {
			deadline := time.Now().Add(30 * time.Second)
			for {
				if data, err := os.ReadFile(started); err == nil && len(data) > 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Error("the go command never started")
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
			sentAt = time.Now()
			syscall.Kill(pid, syscall.SIGTERM) // gymlint alone, as a service manager would
		},
	}
	o := r.run(t, dir, ".")
	if o.code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit %d, want %d\nstderr:\n%s", o.code, 128+int(syscall.SIGTERM), o.stderr)
	}
	if !sentAt.IsZero() {
		t.Logf("gymlint ended %s after SIGTERM", time.Since(sentAt).Round(time.Millisecond))
	}
	data, _ := os.ReadFile(started)
	for _, f := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(f)
		if st, err := os.ReadFile(filepath.Join("/proc", f, "stat")); err == nil {
			s := string(st)
			if fs := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(fs) > 0 && fs[0] != "Z" {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("the go command %d is still running after gymlint ended", pid)
			}
		}
	}
}

// TestHostileGoCgo: a module with cgo, an #include of a file outside the
// root holding a marker, and a `#cgo pkg-config:` line, scanned with a
// trap directory first on PATH whose gcc, cc, clang, pkg-config, as and ld
// record that they ran, and CGO_ENABLED=1 in the environment. The old
// gymlint ran gcc on the repository's C code (cc1, as, ld) and put the
// included file's lines in the GL008 message, which every output format
// then published. Now no tool runs, the marker is in no output, and the
// cgo file is reported as not analyzed.
func TestHostileGoCgo(t *testing.T) {
	outside := t.TempDir()
	const marker = "GYMLINT_CGO_MARKER_e41d_not_for_ci_logs"
	secret := filepath.Join(outside, "passwd")
	if err := os.WriteFile(secret, []byte(marker+":x:0:0:"+marker+":/root:/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// (pkg-config and the #include are in two packages: a pkg-config that
	// fails stops cgo before the preprocessor.)
	cgoFile := "package native\n\n// #include \"" + secret + "\"\nimport \"C\"\n\nfunc FromC() {}\n"
	dir := hostileRepo(t, map[string]string{
		"native/go.mod":     hostileGoMod,
		"native/cgo.go":     cgoFile,
		"native/pc/pc.go":   "package pc\n\n// #cgo pkg-config: gymlint-trap-package\nimport \"C\"\n",
		"native/native.go":  "package native\n\nfunc Plain() {}\n",
		"native/helper.c":   "#include \"" + secret + "\"\n",
		"native/sub/sub.go": "package sub\n",
	})
	// Each trap records its call, then runs the real tool when there is
	// one, so that a gymlint that runs them fails the marker check too.
	trap := t.TempDir()
	ran := filepath.Join(trap, "ran")
	for _, tool := range []string{"gcc", "cc", "clang", "pkg-config", "as", "ld", "cc1"} {
		then := "exit 1"
		if real, err := exec.LookPath(tool); err == nil {
			then = "exec " + real + " \"$@\""
		}
		script := "#!/bin/sh\necho \"" + tool + " $*\" >> " + ran + "\n" + then + "\n"
		if err := os.WriteFile(filepath.Join(trap, tool), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PATH=" + trap + string(os.PathListSeparator) + os.Getenv("PATH"), "CGO_ENABLED=1", "CC=", "CXX=", "PKG_CONFIG="}
	for _, format := range []string{"text", "json", "sarif", "github"} {
		t.Run(format, func(t *testing.T) {
			o := goRun{env: env, limit: time.Minute, maxMB: 400}.run(t, dir, "--format", format, ".")
			if o.code != 1 {
				t.Errorf("exit %d, want 1\nstderr:\n%s", o.code, o.stderr)
			}
			if strings.Contains(o.stdout, marker) || strings.Contains(o.stderr, marker) {
				t.Errorf("the output quotes the file included from outside the root:\n%s\n%s", o.stdout, o.stderr)
			}
			if !strings.Contains(o.stdout, "resources_servers/good/app.py") || !strings.Contains(o.stdout, "GL101") {
				t.Errorf("the good server was not analysed:\n%s", o.stdout)
			}
			if !strings.Contains(o.stdout, `cgo.go is not analyzed: it uses cgo (import \"C\")`) && !strings.Contains(o.stdout, `cgo.go is not analyzed: it uses cgo (import "C")`) {
				t.Errorf("the cgo file is not reported as not analyzed:\n%s", o.stdout)
			}
			if format == "text" {
				wantGood(t, o)
				for _, want := range []string{"native/cgo.go:4:8: GL008", "native/pc/pc.go:4:8: GL008"} {
					if !strings.Contains(o.stdout, want) {
						t.Errorf("no %s (at the import of C) in\n%s", want, o.stdout)
					}
				}
			}
		})
	}
	if data, err := os.ReadFile(ran); err == nil {
		t.Errorf("C tools ran on the repository:\n%s", data)
	}
}

// recordingProxy is a module proxy that knows no module and records the
// paths it is asked for; asked returns them so far.
func recordingProxy(t *testing.T) (proxy *httptest.Server, asked func() []string) {
	var mu sync.Mutex
	var requests []string
	proxy = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests = append(requests, r.URL.Path)
		mu.Unlock()
		http.NotFound(w, r)
	}))
	t.Cleanup(proxy.Close)
	return proxy, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(requests)
	}
}

// TestHostileGoToolchain: go.mod files that ask for a toolchain or a Go
// newer than the installed one, and a requirement missing from the module
// cache, scanned with GOTOOLCHAIN=auto and GOPROXY pointing at a local
// server that records requests (the user's environment lets the go command
// download; the harness's offline settings are undone). The old gymlint's
// go list asked that proxy for golang.org/toolchain (and would have
// downloaded and run the toolchain) and for the missing module. Now nothing
// is asked, the module that needs Go 1.99 and the missing dependency are
// GL008, and the module with only a toolchain line loads with the
// installed Go.
func TestHostileGoToolchain(t *testing.T) {
	proxy, asked := recordingProxy(t)
	dir := hostileRepo(t, map[string]string{
		"toolchain/go.mod": "module example.com/toolchain\n\ngo 1.26\n\ntoolchain go1.99.0\n",
		"toolchain/t.go":   "package toolchain\n",
		"newgo/go.mod":     "module example.com/newgo\n\ngo 1.99\n\ntoolchain go1.99.0\n",
		"newgo/n.go":       "package newgo\n",
		"deps/go.mod":      "module example.com/deps\n\ngo 1.26\n\nrequire example.com/gymlint-absent v1.0.0\n",
		"deps/d.go":        "package deps\n\nimport \"example.com/gymlint-absent\"\n\nvar _ = absent.X\n",
	})
	env := []string{"GOTOOLCHAIN=auto", "GOPROXY=" + proxy.URL, "GOFLAGS=-mod=mod", "GOSUMDB=sum.golang.org", "GONOSUMDB=", "GOPRIVATE="}
	o := goRun{env: env, limit: 2 * time.Minute, maxMB: 400}.run(t, dir, ".")
	if requests := asked(); len(requests) > 0 {
		t.Errorf("the go command asked the proxy for %q", requests)
	}
	if o.code != 1 {
		t.Errorf("exit %d, want 1", o.code)
	}
	wantGood(t, o)
	for _, want := range []string{
		"newgo/go.mod:1:1: GL008 Go module newgo does not load: go: go.mod requires go >= 1.99 (running go ",
		"deps/d.go:3:8: GL008 Go package example.com/deps is not analyzed: it imports example.com/gymlint-absent, which does not load: ",
	} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("no %q in\n%s", want, o.stdout)
		}
	}
	if strings.Contains(o.stdout, "toolchain/") {
		t.Errorf("the module with a toolchain line is reported:\n%s", o.stdout)
	}
	if !strings.Contains(o.stderr, "2 Go packages in 3 modules") {
		t.Errorf("summary: %s", o.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "deps", "go.sum")); err == nil {
		t.Error("the go command wrote go.sum into the repository")
	}
}

// TestHostileGoNetworkOptIn: with --go-network the go command may look a
// missing dependency up through the user's GOPROXY, but still never asks
// for a toolchain (GOTOOLCHAIN=local stays) and never writes go.sum.
func TestHostileGoNetworkOptIn(t *testing.T) {
	proxy, asked := recordingProxy(t)
	dir := hostileRepo(t, map[string]string{
		"deps/go.mod": "module example.com/deps\n\ngo 1.26\n\ntoolchain go1.99.0\n\nrequire example.com/gymlint-absent v1.0.0\n",
		"deps/d.go":   "package deps\n\nimport \"example.com/gymlint-absent\"\n\nvar _ = absent.X\n",
		// -mod=readonly downloads only what go.sum vouches for.
		"deps/go.sum": "example.com/gymlint-absent v1.0.0 h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n" +
			"example.com/gymlint-absent v1.0.0/go.mod h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n",
	})
	sum, err := os.ReadFile(filepath.Join(dir, "deps", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"GOTOOLCHAIN=auto", "GOPROXY=" + proxy.URL, "GOSUMDB=off", "GONOSUMDB=", "GOPRIVATE=",
		"GOMODCACHE=" + t.TempDir(), "GOFLAGS=-modcacherw"}
	o := goRun{env: env, limit: 2 * time.Minute, maxMB: 400}.run(t, dir, "--go-network", ".")
	wantGood(t, o)
	requests := asked()
	seen := strings.Join(requests, " ")
	if !strings.Contains(seen, "/example.com/gymlint-absent/") {
		t.Errorf("with --go-network the proxy was not asked for the missing module; it was asked for %q\n%s\n%s", requests, o.stdout, o.stderr)
	}
	if strings.Contains(seen, "toolchain") {
		t.Errorf("with --go-network the go command asked for a toolchain: %q", requests)
	}
	if want := "deps/d.go:3:8: GL008 Go package example.com/deps is not analyzed: it imports example.com/gymlint-absent, which does not load: "; !strings.Contains(o.stdout, want) {
		t.Errorf("no %q in\n%s", want, o.stdout)
	}
	if after, err := os.ReadFile(filepath.Join(dir, "deps", "go.sum")); err != nil || !bytes.Equal(after, sum) {
		t.Errorf("the go command changed go.sum in the repository (%v)", err)
	}
}
