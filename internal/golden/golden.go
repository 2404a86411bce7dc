// Package golden holds the checks the fixture tests share: output against
// a golden file under testdata/, rewritten when the test runs with its
// update flag (make golden runs them all), and findings against a
// hand-written oracle.
package golden

import (
	"maps"
	"os"
	"slices"
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

// Findings compares the findings a test expects (from a hand-written
// oracle) with those reported, as keys such as "path:line CODE", and fails
// t with each one missing and each one extra, in order.
func Findings[W, G any](t testing.TB, want map[string]W, got map[string]G) {
	t.Helper()
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if _, ok := got[k]; !ok {
			t.Errorf("expected but not reported: %s", k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			t.Errorf("reported but not expected: %s", k)
		}
	}
}
