//go:build !linux

package cli

import "os"

// isTTY reports whether f is a terminal, as a character device.
func isTTY(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
