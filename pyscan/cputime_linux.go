package pyscan

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's usage.
const rusageThread = 1

// threadCPU returns the processor time the calling thread has used. The
// parse's meter reads it from tree-sitter's callbacks, which run on the
// thread that runs the parse, so the time another process or goroutine
// takes from the machine is not counted.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0 // never on Linux; the processor-time limit then never applies
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
