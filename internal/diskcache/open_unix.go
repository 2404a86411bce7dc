//go:build unix

package diskcache

import (
	"os"
	"syscall"
)

// openEntry opens p for reading without blocking (a named pipe at p would
// otherwise wait for a writer) and without following a link at p.
func openEntry(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
}

// openKey opens the key file p for reading without blocking; a link is
// followed (a configuration directory may be made of links).
func openKey(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// checkKeyMode refuses a key file that others may read or write.
func checkKeyMode(p string, st os.FileInfo) error {
	if m := st.Mode().Perm(); m&0o077 != 0 {
		return &keyModeError{p, m}
	}
	return nil
}
