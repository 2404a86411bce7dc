package gym

import (
	"runtime"
	"testing"
)

// TestDefaultJobsFollowGOMAXPROCS checks that a cache without a count of
// jobs parses on one goroutine a CPU the process may use (GOMAXPROCS, which
// Go lowers to a cgroup's CPU quota), not one a CPU of the machine.
func TestDefaultJobsFollowGOMAXPROCS(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: GOMAXPROCS and NumCPU cannot differ")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	c, err := NewCache("../testdata/gymrepo", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.jobs != 1 {
		t.Errorf("with GOMAXPROCS 1 on %d CPUs, the cache has %d jobs, want 1", runtime.NumCPU(), c.jobs)
	}
}
