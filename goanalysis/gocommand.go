package goanalysis

import (
	"context"
	"errors"
	"os"
	"slices"
	"sync"
	"time"
)

// hardenedEnv is the environment that gymlint gives every go command it runs
// (`go list`, through golang.org/x/tools/go/packages). It comes after the
// process environment and Config.Env, so it wins over the user's settings
// of the same variables. Each one closes a way for a scanned repository to
// make the go command build, run or download something:
//
//   - CGO_ENABLED=0: no cgo processing, so no C compiler, assembler, linker
//     or pkg-config runs on the repository's code (`#cgo pkg-config:`,
//     `#include "/any/file"`), and no compiler output quotes a file. Go
//     files that import "C" are left out by their build constraint and
//     reported as not analyzed.
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
//
// The -mod flag is given on go list's command line (see modFlag), where it
// overrides a -mod in the user's GOFLAGS; the rest of GOFLAGS applies.
var hardenedEnv = slices.Concat(buildEnv, offlineEnv)

// buildEnv is the part of hardenedEnv that Config.Network keeps: what
// stops the go command building or running anything.
var buildEnv = []string{
	"CGO_ENABLED=0",
	"GOTOOLCHAIN=local",
	"GOWORK=off",
	"GO111MODULE=on",
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

// goEnv is the environment of the go command for cfg.
func goEnv(cfg Config) []string {
	if cfg.Network {
		return slices.Concat(os.Environ(), cfg.Env, buildEnv)
	}
	return slices.Concat(os.Environ(), cfg.Env, hardenedEnv)
}

// modFlag is go list's -mod flag for a module: vendor when the module has a
// vendor/modules.txt (its dependencies are then read from the vendor
// directory, inside the root), readonly otherwise (go.mod and go.sum are
// never updated, and a missing requirement is an error). This is the go
// command's own default, made to win over a -mod=mod in GOFLAGS, which
// would let it write the repository's go.mod and go.sum.
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
