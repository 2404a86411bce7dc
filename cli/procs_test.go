package cli

import (
	"runtime"
	"testing"
)

func TestSpareProc(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	n := runtime.GOMAXPROCS(0)
	procs, restore := spareProc()
	if procs != n {
		t.Errorf("spareProc says the process may use %d CPUs, want GOMAXPROCS's %d", procs, n)
	}
	if got := runtime.GOMAXPROCS(0); got != n+1 {
		t.Errorf("during a check GOMAXPROCS is %d, want %d", got, n+1)
	}
	restore()
	if got := runtime.GOMAXPROCS(0); got != n {
		t.Errorf("after the check GOMAXPROCS is %d, want %d again", got, n)
	}
}

func TestSpareProcLeavesTheUsersCount(t *testing.T) {
	n := runtime.GOMAXPROCS(0)
	t.Setenv("GOMAXPROCS", "1")
	procs, restore := spareProc()
	if procs != n {
		t.Errorf("with GOMAXPROCS set, spareProc says %d CPUs, want %d", procs, n)
	}
	if got := runtime.GOMAXPROCS(0); got != n {
		t.Errorf("with GOMAXPROCS set, a check changed the count from %d to %d", n, got)
	}
	restore()
	if got := runtime.GOMAXPROCS(0); got != n {
		t.Errorf("with GOMAXPROCS set, the count is %d after the check, want %d", got, n)
	}
}

func TestSpareProcOverlappingChecks(t *testing.T) {
	t.Setenv("GOMAXPROCS", "")
	n := runtime.GOMAXPROCS(0)
	_, first := spareProc()
	procs, second := spareProc()
	if procs != n {
		t.Errorf("the second of two checks says %d CPUs, want %d, not the first's spare P", procs, n)
	}
	if got := runtime.GOMAXPROCS(0); got != n+1 {
		t.Errorf("two checks at once: GOMAXPROCS is %d, want %d", got, n+1)
	}
	first()
	first() // a second call restores nothing more
	if got := runtime.GOMAXPROCS(0); got != n+1 {
		t.Errorf("one of two checks ended: GOMAXPROCS is %d, want %d", got, n+1)
	}
	second()
	if got := runtime.GOMAXPROCS(0); got != n {
		t.Errorf("both checks ended: GOMAXPROCS is %d, want %d", got, n)
	}
}
