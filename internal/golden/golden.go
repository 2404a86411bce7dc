// Package golden compares a test's output with a golden file under
// testdata/, and rewrites the file when the test runs with its update flag
// (make golden runs them all).
package golden

import (
	"os"
	"testing"
)

// Check fails t when got differs from the file at path. With update set
// it first writes got there. flag is the name of the update flag, for the
// message.
func Check(t testing.TB, path string, got []byte, update bool, flag string) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("output differs from %s (run with -%s to accept):\n--- got\n%s\n--- want\n%s", path, flag, got, want)
	}
}
