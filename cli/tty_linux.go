package cli

import (
	"os"
	"syscall"
	"unsafe"
)

// isTTY reports whether f is a terminal: it answers the terminal ioctl
// (a character device such as /dev/null does not).
func isTTY(f *os.File) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), uintptr(syscall.TCGETS), uintptr(unsafe.Pointer(&t)))
	return errno == 0
}
