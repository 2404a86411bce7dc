package engine

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gymlint/gymlint/internal/diskcache"
)

// TestContractCache: the framework's contract comes from the cache while
// its modules are unchanged, also when a module was touched (its stamp
// changed, its content did not: the stamps are made again, and the next
// scan uses them); a new module or a changed one has it read again.
func TestContractCache(t *testing.T) {
	root := copyFixture(t, "gymrepo")
	// Past the racy second of the copy's change times (which no one can
	// set back, as copyFixture sets back the modification times).
	time.Sleep(1100 * time.Millisecond)
	cache, err := diskcache.Open(t.TempDir(), diskcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var detected any
	step := func(name, want string) {
		t.Helper()
		e, err := New(Options{Root: root, NoGo: true, Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		if e.contractFrom != want {
			t.Fatalf("%s: the contract was %q, want %q", name, e.contractFrom, want)
		}
		fw, _ := e.Framework()
		if !fw.Found {
			t.Fatalf("%s: no framework found", name)
		}
		if want == "detected" {
			detected = fw
		} else if !reflect.DeepEqual(fw, detected) {
			t.Fatalf("%s: the cached contract\n%+v\nis not the detected one\n%+v", name, fw, detected)
		}
	}
	step("first scan", "detected")
	step("nothing changed", "cache")

	// Touched: the stamp no longer matches, the content does.
	server := filepath.Join(root, "nemo_gym", "server_utils.py")
	earlier := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(server, earlier, earlier); err != nil {
		t.Fatal(err)
	}
	// The touch set the change time to now: past its racy second, the
	// stamps made again hold.
	time.Sleep(1100 * time.Millisecond)
	step("a module touched", "restamped")
	step("after the restamp", "cache")

	// Rewritten as it was, just now: racy, read again, still the same.
	data, err := os.ReadFile(server)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(server, data, 0o644); err != nil {
		t.Fatal(err)
	}
	step("a module rewritten as it was", "restamped")

	writeFile(t, root, "nemo_gym/extra.py", "class Extra:\n    pass\n")
	step("a module added", "detected")
	step("after the addition", "restamped") // the directory's stamp was racy

	appendTo(t, root, "nemo_gym/server_utils.py", "\n# changed\n")
	step("a module changed", "detected")
}
