package configs

import "testing"

// The port cases (testdata/src/port-*) run through gymtest with the
// analyzer's other cases (TestCases).

func TestFixedPort(t *testing.T) {
	// The values themselves, as the cases cannot show every form.
	for _, tc := range []struct {
		yaml string
		want int64
		ok   bool
	}{
		{"8000", 8000, true}, {`"8000"`, 8000, true}, {"0", 0, false}, {`"0"`, 0, false}, {"", 0, false},
		{"~", 0, false}, {"${oc.env:P}", 0, false}, {"80.5", 0, false}, {"true", 0, false}, {"[1]", 0, false}, {`"80a"`, 0, false},
	} {
		f := parseSnippet(t, "port: "+tc.yaml+"\n")
		got, ok := fixedPort(f)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: %d %v", tc.yaml, got, ok)
		}
	}
}
