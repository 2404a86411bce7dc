package engine

import (
	"flag"
	"io"
	"slices"
	"strconv"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/goanalysis"
)

// TestVetAnalyzersShape checks the analyzers that go vet runs: valid for
// unitchecker, one per registered Go analyzer and with its name (go vet's
// -NAME flags), each requiring only the one analyzer that runs the
// registered ones, which requires what they require. (That each reports
// only its own findings is TestGoVetSelectsAnalyzers in cmd/gymlint.)
func TestVetAnalyzersShape(t *testing.T) {
	vet := VetAnalyzers()
	if err := analysis.Validate(vet); err != nil {
		t.Fatal(err)
	}
	if len(vet) != len(goanalysis.Analyzers) {
		t.Fatalf("%d vet analyzers for %d registered ones", len(vet), len(goanalysis.Analyzers))
	}
	core := vet[0].Requires[0]
	for i, w := range vet {
		a := goanalysis.Analyzers[i]
		if w.Name != a.Name || w.URL != a.URL {
			t.Errorf("vet analyzer %d is %s (%s), want %s (%s)", i, w.Name, w.URL, a.Name, a.URL)
		}
		if len(w.Requires) != 1 || w.Requires[0] != core {
			t.Errorf("%s requires %v, want only %s", w.Name, w.Requires, core.Name)
		}
		for _, r := range a.Requires {
			if !slices.Contains(core.Requires, r) {
				t.Errorf("%s does not require %s, which %s needs", core.Name, r.Name, a.Name)
			}
		}
	}
	if slices.Contains(vet, core) || core.ResultType == nil {
		t.Errorf("the shared analyzer %s must be no vet analyzer and have a result", core.Name)
	}
}

// triState is a flag as analysisflags defines the -NAME flags: not given,
// it reads "true".
type triState int

func (ts *triState) String() string {
	if *ts == 2 {
		return "false"
	}
	return "true"
}

func (ts *triState) Set(v string) error {
	b, err := strconv.ParseBool(v)
	*ts = 1
	if !b {
		*ts = 2
	}
	return err
}

func (ts *triState) IsBoolFlag() bool { return true }

// TestFirstSelected checks which analyzer reports the findings that belong
// to none (the suppressions' own): the first one go vet's flags select.
func TestFirstSelected(t *testing.T) {
	names := []string{"goworkers", "gosessions", "goprotocol"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "goworkers"},
		{[]string{"-gosessions"}, "gosessions"},
		{[]string{"-goprotocol", "-gosessions"}, "gosessions"},
		{[]string{"-goprotocol"}, "goprotocol"},
		{[]string{"-goworkers=false"}, "gosessions"},
		{[]string{"-goworkers=false", "-gosessions=false"}, "goprotocol"},
		{[]string{"-goworkers=false", "-gosessions=false", "-goprotocol=false"}, ""},
		{[]string{"-goworkers=false", "-goprotocol"}, "goprotocol"},
		{[]string{"-json"}, "goworkers"},
	} {
		fs := flag.NewFlagSet("vet", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.Bool("json", false, "")
		for _, n := range names {
			fs.Var(new(triState), n, "")
		}
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if got := firstSelected(fs, names); got != tc.want {
			t.Errorf("firstSelected(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}
