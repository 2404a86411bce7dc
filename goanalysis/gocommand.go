package goanalysis

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// hardenedEnv is what gymlint sets in the environment of every go command
// it runs (`go list`, through golang.org/x/tools/go/packages), over the
// process environment, Config.Env and the user's go env file (see goEnv).
// Each one closes a way for a scanned repository, or a setting that was
// never meant for gymlint, to make the go command build, run, read or
// download something:
//
//   - CGO_ENABLED=0: no cgo processing, so no C compiler, assembler, linker
//     or pkg-config runs on the repository's code (`#cgo pkg-config:`,
//     `#include "/any/file"`), and no compiler output quotes a file. Go
//     files that import "C" are left out by their build constraint and
//     reported as not analyzed. (CC, CXX, CGO_CFLAGS, PKG_CONFIG and the
//     like are read only with cgo.)
//   - GOTOOLCHAIN=local: a `go` or `toolchain` line in go.mod never makes
//     the go command download and run another toolchain; a module that
//     needs a newer Go than the installed one is a GL008.
//   - GOPROXY=off, GOSUMDB=off, GONOPROXY, GONOSUMDB and GOPRIVATE empty,
//     GOVCS=*:off, GOAUTH=off: no module, checksum or version-control
//     lookup, no credential helper; a dependency missing from the module
//     cache is a GL008, not a download. (GOSUMDB only vouches for modules
//     being downloaded, and none is.)
//   - GOWORK=off: no go.work is used. The go command looks for one in the
//     module's directory and every parent, above the root too (a go.work in
//     the home directory would apply), and a go.work can `use` directories
//     outside the root. Each module is loaded on its own, as Modules lists
//     them.
//   - GO111MODULE=on: module mode, never GOPATH mode (which would resolve
//     imports in $GOPATH/src).
//   - GOCACHEPROG empty: the go command does not start a cache program
//     (it would run it on every go list).
//   - GOENV=off: the go command reads no go env file (`go env -w`); goEnv
//     has read the user's and passes its settings on as variables, so that
//     they go through the same filter as the environment's (a GOFLAGS or a
//     GOCACHEPROG set with `go env -w` is dropped too).
//   - GOFLAGS: only the flags safeGoFlags keeps, and the module's -mod
//     flag (modFlag).
var hardenedEnv = slices.Concat(buildEnv, offlineEnv)

// buildEnv is the part of hardenedEnv that Config.Network keeps: what
// stops the go command building or running anything. (GOFLAGS is set by
// goEnv.)
var buildEnv = []string{
	"CGO_ENABLED=0",
	"GOTOOLCHAIN=local",
	"GOWORK=off",
	"GO111MODULE=on",
	"GOCACHEPROG=",
	"GOENV=off",
}

// offlineEnv is the part of hardenedEnv that keeps the go command off the
// network; Config.Network (gymlint --go-network) leaves it out, so that
// the user's GOPROXY, GOSUMDB, GOPRIVATE, GOVCS and GOAUTH apply and a
// missing dependency is downloaded into the module cache.
var offlineEnv = []string{
	"GOPROXY=off",
	"GOSUMDB=off",
	"GONOPROXY=",
	"GONOSUMDB=",
	"GOPRIVATE=",
	"GOVCS=*:off",
	"GOAUTH=off",
}

// goEnv is the environment of the go command for cfg, loading a module
// whose -mod flag is mod (modFlag). It is the process environment, then
// Config.Env, then the settings of the user's go env file that neither
// sets (as the go command itself reads them: a variable set and not empty
// wins over the file), with GOFLAGS filtered by safeGoFlags and the
// module's -mod flag added, and hardenedEnv over all of it.
func goEnv(cfg Config, mod string) []string {
	var raw []string // entries without a name (Windows' "=C:=C:\\")
	var order []string
	vals := map[string]string{}
	set := func(kv string) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			raw = append(raw, kv)
			return
		}
		if _, seen := vals[k]; !seen {
			order = append(order, k)
		}
		vals[k] = v
	}
	for _, kv := range slices.Concat(os.Environ(), cfg.Env) {
		set(kv)
	}
	for _, kv := range goEnvFile(vals["GOENV"]) {
		if k, _, _ := strings.Cut(kv, "="); vals[k] == "" {
			set(kv)
		}
	}
	flags := safeGoFlags(vals["GOFLAGS"])
	set("GOFLAGS=" + strings.Join(append(flags, mod), " "))
	hardened := hardenedEnv
	if cfg.Network {
		hardened = buildEnv
	}
	for _, kv := range hardened {
		set(kv)
	}
	env := raw
	for _, k := range order {
		env = append(env, k+"="+vals[k])
	}
	return env
}

// maxGoEnvFile bounds the go env file that goEnv reads (`go env -w` writes
// a few lines).
const maxGoEnvFile = 1 << 20

// goEnvFile returns the settings of the user's go env file, as NAME=VALUE,
// read as the go command reads it: the file that GOENV names (none when it
// is "off"), or go/env in the user's configuration directory; lines that
// do not start with an upper-case letter or have no "=" are left out. A
// file that is not a regular file, is larger than maxGoEnvFile or cannot
// be read gives nothing.
func goEnvFile(goenv string) []string {
	file := goenv
	switch goenv {
	case "off":
		return nil
	case "":
		dir, err := os.UserConfigDir()
		if err != nil || dir == "" {
			return nil
		}
		file = filepath.Join(dir, "go", "env")
	}
	f, err := os.OpenFile(file, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() > maxGoEnvFile {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f, maxGoEnvFile))
	if err != nil {
		return nil
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || line[0] < 'A' || line[0] > 'Z' || !strings.Contains(line, "=") {
			continue
		}
		out = append(out, line)
	}
	return out
}

// safeFlags are the flags that GOFLAGS may pass on to go list: they only
// choose which files are in a package. Every other flag is dropped, among
// them those that make the go command run a program (-toolexec,
// -compiler=gccgo, -exec), read a file outside the repository (-overlay,
// -modfile, -pgo, -pkgdir), write go.mod or go.sum (-mod=mod, which modFlag
// replaces anyway), change the directory (-C) or change go list's output
// (-json, -x, -n).
var safeFlags = map[string]bool{"tags": true}

// safeGoFlags returns the flags of the GOFLAGS value s that safeFlags
// allows, each as -name=value. s is split as the go command splits it
// (fields separated by spaces, each one possibly quoted); a value that
// does not split gives none. A kept flag whose value holds a space or a
// quote is dropped too, so that the result splits back into the same
// flags.
func safeGoFlags(s string) []string {
	fields, ok := splitGoFlags(s)
	if !ok {
		return nil
	}
	var out []string
	for _, f := range fields {
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(f, "-"), "-"), "=")
		if !strings.HasPrefix(f, "-") || !hasValue || !safeFlags[name] || strings.ContainsAny(value, " \t\r\n'\"") {
			continue
		}
		out = append(out, "-"+name+"="+value)
	}
	return out
}

// splitGoFlags splits a GOFLAGS value into its fields as the go command
// does (cmd/internal/quoted.Split): fields are separated by spaces, tabs
// and line ends, and a field that starts with a single or double quote
// ends at the next one, taken verbatim. ok is false for an unterminated
// quote.
func splitGoFlags(s string) (fields []string, ok bool) {
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for len(s) > 0 {
		for len(s) > 0 && space(s[0]) {
			s = s[1:]
		}
		if len(s) == 0 {
			break
		}
		if q := s[0]; q == '"' || q == '\'' {
			i := strings.IndexByte(s[1:], q)
			if i < 0 {
				return nil, false
			}
			fields = append(fields, s[1:1+i])
			s = s[2+i:]
			continue
		}
		i := 0
		for i < len(s) && !space(s[i]) {
			i++
		}
		fields = append(fields, s[:i])
		s = s[i:]
	}
	return fields, true
}

// modFlag is go list's -mod flag for a module: vendor when the module has a
// vendor/modules.txt (its dependencies are then read from the vendor
// directory, inside the root), readonly otherwise (go.mod and go.sum are
// never updated, and a missing requirement is an error). This is the go
// command's own default, made to win over a -mod=mod in the user's
// GOFLAGS, which would let it write the repository's go.mod and go.sum.
// It is given both in GOFLAGS (for the go list calls with which
// golang.org/x/tools/go/packages asks the Go version and the compiler) and
// on the command line.
func modFlag(vendor bool) string {
	if vendor {
		return "-mod=vendor"
	}
	return "-mod=readonly"
}

// DefaultLoadTimeout bounds loading one module (go list and type-checking
// its packages and dependencies from source) when Config.LoadTimeout is 0.
const DefaultLoadTimeout = 3 * time.Minute

// ErrInterrupted is Run's error once Interrupt was called.
var ErrInterrupted = errors.New("interrupted")

// interruptGrace bounds how long Interrupt waits for the loads to end.
// packages interrupts the go command when its context is canceled and
// kills it 5 s later if it has not ended.
const interruptGrace = 10 * time.Second

// inflight tracks the loads that run, so that Interrupt can stop them.
var inflight = struct {
	sync.Mutex
	ctx         context.Context
	cancel      context.CancelFunc
	interrupted bool
	wg          sync.WaitGroup
}{}

func init() { resetInterrupt() }

// resetInterrupt makes loads possible again after Interrupt (for tests).
func resetInterrupt() {
	inflight.Lock()
	defer inflight.Unlock()
	inflight.ctx, inflight.cancel = context.WithCancel(context.Background())
	inflight.interrupted = false
}

// beginLoad registers a load. It returns the context the load must run
// under (canceled by Interrupt) and false once Interrupt was called.
func beginLoad() (context.Context, bool) {
	inflight.Lock()
	defer inflight.Unlock()
	if inflight.interrupted {
		return nil, false
	}
	inflight.wg.Add(1)
	return inflight.ctx, true
}

func endLoad() { inflight.wg.Done() }

// Interrupt stops every load that Run has under way in this process and
// waits for them to end (at most 10 s): their go commands are interrupted,
// and killed if they do not end within 5 s. Later calls of Run return
// ErrInterrupted. gymlint calls it when it receives SIGINT or SIGTERM, so
// that no go command it started outlives it.
func Interrupt() {
	inflight.Lock()
	inflight.interrupted = true
	inflight.cancel()
	inflight.Unlock()
	done := make(chan struct{})
	go func() {
		inflight.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(interruptGrace):
	}
}

// Interrupted reports whether Interrupt was called.
func Interrupted() bool {
	inflight.Lock()
	defer inflight.Unlock()
	return inflight.interrupted
}
