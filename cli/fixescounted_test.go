package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/output"
)

// countedScan scans root under the contract, with or without
// engine.Options.FixesCounted, and no cache.
func countedScan(t *testing.T, root, mode string, counted bool) []diag.Diagnostic {
	t.Helper()
	m, ok := contract.ParseMode(mode)
	if !ok {
		t.Fatalf("contract %q", mode)
	}
	e, err := engine.New(engine.Options{Root: root, Contract: m, NoGo: true, FixesCounted: counted})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Scan(nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Diagnostics
}

// fixCounts is a diagnostic as an output that counts fixes sees it: its
// fixes reduced to whether it has one and whether a safe one.
type fixCounts struct {
	d             diag.Diagnostic
	fixable, safe bool
}

func countsOf(ds []diag.Diagnostic) []fixCounts {
	out := make([]fixCounts, len(ds))
	for i, d := range ds {
		out[i] = fixCounts{fixable: len(d.Fixes) > 0, safe: slices.ContainsFunc(d.Fixes, diag.Fix.IsSafe)}
		d.Fixes = nil
		out[i].d = d
	}
	return out
}

// compareCounted checks that a scan with FixesCounted gives the findings of
// one without, with the same counts of fixes, and the same text, SARIF and
// GitHub output; it returns how many findings' fixes differ.
func compareCounted(t *testing.T, root, mode string) int {
	t.Helper()
	full := countedScan(t, root, mode, false)
	counted := countedScan(t, root, mode, true)
	if a, b := countsOf(full), countsOf(counted); !reflect.DeepEqual(a, b) {
		for i := range min(len(a), len(b)) {
			if !reflect.DeepEqual(a[i], b[i]) {
				t.Fatalf("%s: finding %d differs with FixesCounted:\nwithout: %+v\nwith:    %+v", mode, i, a[i], b[i])
			}
		}
		t.Fatalf("%s: %d findings without FixesCounted, %d with", mode, len(a), len(b))
	}
	for _, format := range []string{"text", "sarif", "github"} {
		var a, b bytes.Buffer
		opts := output.Options{Root: root, Rules: ruleLookup, Version: "test"}
		if err := output.Write(&a, format, full, opts); err != nil {
			t.Fatal(err)
		}
		if err := output.Write(&b, format, counted, opts); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s: the %s output differs with FixesCounted", mode, format)
		}
	}
	differ := 0
	for i := range full {
		if !reflect.DeepEqual(full[i].Fixes, counted[i].Fixes) {
			differ++
		}
	}
	return differ
}

// TestFixesCounted checks, on every fixture repository under both
// contracts, that what FixesCounted leaves out changes no output that only
// counts fixes, and that it leaves out something somewhere: a finding's
// fixes come in another order, or borrow other edits.
func TestFixesCounted(t *testing.T) {
	differ := 0
	for _, name := range fixRepos {
		for _, mode := range []string{"auto", "latest"} {
			t.Run(name+"/"+mode, func(t *testing.T) {
				differ += compareCounted(t, filepath.Join("..", "testdata", filepath.FromSlash(name)), mode)
			})
		}
	}
	if differ == 0 {
		t.Error("FixesCounted changed the fixes of no finding in any fixture: the test no longer covers it")
	}
}

// TestFixesCountedSnapshot does what TestFixesCounted does on the NeMo Gym
// checkout GYMLINT_SNAPSHOT names.
func TestFixesCountedSnapshot(t *testing.T) {
	root := os.Getenv("GYMLINT_SNAPSHOT")
	if root == "" {
		t.Skip("GYMLINT_SNAPSHOT names no NeMo Gym checkout")
	}
	for _, mode := range []string{"auto", "latest"} {
		n := compareCounted(t, root, mode)
		t.Logf("%s: %d findings have other fixes with FixesCounted", mode, n)
	}
}

// TestFixesOnlyCounted checks which command lines count fixes only.
func TestFixesOnlyCounted(t *testing.T) {
	spec := func(fs ...string) []outputSpec {
		var out []outputSpec
		for _, f := range fs {
			out = append(out, outputSpec{format: f, given: f})
		}
		return out
	}
	for _, c := range []struct {
		specs              []outputSpec
		fix, diff, addNoqa bool
		want               bool
	}{
		{specs: spec("text"), want: true},
		{specs: spec("text", "sarif", "github"), want: true},
		{specs: spec("text", "json"), want: false},
		{specs: spec("full"), want: false},
		{specs: spec("text"), fix: true, want: false},
		{specs: spec("text"), diff: true, want: false},
		{specs: spec("text"), addNoqa: true, want: false},
	} {
		if got := fixesOnlyCounted(c.specs, c.fix, c.diff, c.addNoqa); got != c.want {
			t.Errorf("fixesOnlyCounted(%+v, fix %v, diff %v, add-noqa %v) = %v, want %v", c.specs, c.fix, c.diff, c.addNoqa, got, c.want)
		}
	}
}
