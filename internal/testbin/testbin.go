// Package testbin builds the gymlint binary once for the tests of a
// package that run it as a program (offline: GOPROXY=off).
package testbin

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

var (
	once sync.Once
	bin  string
	err  error
)

// Gymlint builds the main package in dir (cmd/gymlint) on the first call
// of the test binary and returns the binary's path; the test is skipped
// in -short mode or without a go command, and fails when the build does.
func Gymlint(t testing.TB, dir string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds gymlint; skipped in -short mode")
	}
	gocmd, lookErr := exec.LookPath("go")
	if lookErr != nil {
		t.Skip("no go command")
	}
	once.Do(func() {
		var tmp string
		if tmp, err = os.MkdirTemp("", "gymlint-testbin-"); err != nil {
			return
		}
		out := filepath.Join(tmp, "gymlint")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, gocmd, "build", "-o", out, ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
		if b, buildErr := cmd.CombinedOutput(); buildErr != nil {
			err = errors.New("go build: " + buildErr.Error() + "\n" + string(b))
			return
		}
		bin = out
	})
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// Cleanup removes the binary Gymlint built, if any: for TestMain, after
// the package's tests.
func Cleanup() {
	if bin != "" {
		os.RemoveAll(filepath.Dir(bin))
	}
}
