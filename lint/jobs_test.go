package lint

import (
	"runtime"
	"testing"

	"github.com/gymlint/gymlint/gym"
)

// TestDefaultJobsFollowGOMAXPROCS checks that a session without a count of
// jobs takes its cache's: one a CPU the process may use (GOMAXPROCS, which
// Go lowers to a cgroup's CPU quota), not one a CPU of the machine.
func TestDefaultJobsFollowGOMAXPROCS(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: GOMAXPROCS and NumCPU cannot differ")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	s, err := NewSession("../testdata/gymrepo", gym.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.jobs != 1 || s.cache.Jobs() != 1 {
		t.Errorf("with GOMAXPROCS 1 on %d CPUs, the session has %d jobs and its cache %d, want 1", runtime.NumCPU(), s.jobs, s.cache.Jobs())
	}
}
