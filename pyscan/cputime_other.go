//go:build !linux

package pyscan

import "time"

var clockStart = time.Now()

// threadCPU stands in for the calling thread's processor time where
// gymlint does not read it (other systems than Linux): the time elapsed,
// which also counts what the machine's other work takes.
func threadCPU() time.Duration { return time.Since(clockStart) }
