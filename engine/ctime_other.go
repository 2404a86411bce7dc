//go:build !(linux || openbsd || dragonfly || solaris || darwin || freebsd || netbsd)

package engine

import "io/fs"

// inodeAndCTime: this system's stat has no inode or change time that the
// stamps use (stamps.go): they compare the size and the modification time
// only.
func inodeAndCTime(fs.FileInfo) (ino uint64, ctime int64) { return 0, 0 }
