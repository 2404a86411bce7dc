//go:build !unix

package diskcache

import "os"

// openEntry opens p for reading. (Named pipes of the unix kind do not
// exist here; the caller checks that p is a regular file.)
func openEntry(p string) (*os.File, error) { return os.Open(p) }

// openKey opens the key file p for reading.
func openKey(p string) (*os.File, error) { return os.Open(p) }

// checkKeyMode: the permission bits say nothing here.
func checkKeyMode(string, os.FileInfo) error { return nil }
