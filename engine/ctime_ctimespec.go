//go:build darwin || freebsd || netbsd

package engine

import (
	"io/fs"
	"syscall"
)

// inodeAndCTime returns a file's inode and change time (Unix
// nanoseconds), 0 for what the stat does not say.
func inodeAndCTime(fi fs.FileInfo) (ino uint64, ctime int64) {
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(sys.Ino), sys.Ctimespec.Nano()
	}
	return 0, 0
}
