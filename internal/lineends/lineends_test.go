package lineends

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		in     string
		loneCR bool
		want   []Line
	}{
		{"a\nb", true, []Line{{0, "a"}, {2, "b"}}},
		{"a\r\nb\r\n", true, []Line{{0, "a"}, {3, "b"}, {6, ""}}},
		{"a\rb\r\nc\rd", true, []Line{{0, "a"}, {2, "b"}, {5, "c"}, {7, "d"}}},
		{"a\rb\r\nc", false, []Line{{0, "a\rb"}, {5, "c"}}},
		{"\r\r", true, []Line{{0, ""}, {1, ""}, {2, ""}}},
		{"", true, []Line{{0, ""}}},
	} {
		if got := Split(tc.in, tc.loneCR); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Split(%q, %v) = %v, want %v", tc.in, tc.loneCR, got, tc.want)
		}
	}
}

// A long text without "\r": one pass (this was quadratic), measured by
// the benchmark; here, that every line is found.
func TestSplitLong(t *testing.T) {
	s := strings.Repeat("x = 1\n", 100000)
	if n := len(Split(s, true)); n != 100001 {
		t.Errorf("%d lines", n)
	}
}

func BenchmarkSplit(b *testing.B) {
	s := strings.Repeat("x = 1  # a line of code\n", 200000)
	for b.Loop() {
		Split(s, true)
	}
}
