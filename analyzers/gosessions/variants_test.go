package gosessions_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The broken variants of the example server (closenofence, unlocked,
// seed500, verifyunmasked, toolstatus) are not kept as copies of its 450
// lines: testdata/variants.txt holds, for each, its package header and the
// edits that break the example (with their // want comments), and for a
// variant with suggested fixes the edits that fix it (its .golden file).
// testData builds the GOPATH-shaped tree analysistest reads: the fixtures
// of testdata/src, and the variants made from examples/nativeserver.
//
// variants.txt: a line "=== variant NAME" starts a variant, "--- header"
// its text up to the package clause, each "--- old" and "--- new" pair one
// edit (old must occur exactly once when the edit applies; edits apply in
// order), and "=== golden" starts the edits that make the .golden file
// from the variant.

type edit struct{ old, new string }

type variant struct {
	name, header  string
	edits, golden []edit
}

func readVariants(t *testing.T) []*variant {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "variants.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []*variant
	var cur *variant
	var target *[]edit
	var text *string
	var pending *edit
	for _, line := range strings.SplitAfter(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "=== variant "):
			cur = &variant{name: strings.TrimSpace(strings.TrimPrefix(line, "=== variant "))}
			out = append(out, cur)
			target, text = &cur.edits, nil
		case line == "=== golden\n":
			target, text = &cur.golden, nil
		case line == "--- header\n":
			text = &cur.header
		case line == "--- old\n":
			*target = append(*target, edit{})
			pending = &(*target)[len(*target)-1]
			text = &pending.old
		case line == "--- new\n":
			text = &pending.new
		default:
			if text == nil {
				t.Fatalf("variants.txt: %q outside a section", line)
			}
			*text += line
		}
	}
	return out
}

func apply(t *testing.T, name, src string, edits []edit) string {
	t.Helper()
	for i, e := range edits {
		if n := strings.Count(src, e.old); n != 1 {
			t.Fatalf("variant %s, edit %d: its old text occurs %d times, want once:\n%s", name, i+1, n, e.old)
		}
		src = strings.Replace(src, e.old, e.new, 1)
	}
	return src
}

// testData returns the root of the fixtures for analysistest, built in a
// temporary directory.
func testData(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	write := func(rel string, data []byte) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The fixtures (nativeserver is a link to the example: ReadFile
	// follows it).
	err := filepath.WalkDir(filepath.Join("testdata", "src"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata", p)
		write(rel, data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile(filepath.Join("..", "..", "examples", "nativeserver", "server.go"))
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(example), "\npackage ")
	body := string(example)[i+1:]
	body = body[strings.Index(body, "\n")+1:]
	for _, v := range readVariants(t) {
		src := v.header + apply(t, v.name, body, v.edits)
		write(filepath.Join("src", v.name, "server.go"), []byte(src))
		if v.golden != nil {
			write(filepath.Join("src", v.name, "server.go.golden"), []byte(apply(t, v.name+" (golden)", src, v.golden)))
		}
	}
	return root
}

// TestVariantsBuilt checks the builder against what the variants must be:
// each is the example's code under its own package clause, broken where
// its // want comments say.
func TestVariantsBuilt(t *testing.T) {
	root := testData(t)
	for _, v := range readVariants(t) {
		data, err := os.ReadFile(filepath.Join(root, "src", v.name, "server.go"))
		if err != nil {
			t.Fatal(err)
		}
		src := string(data)
		if !strings.Contains(src, "\npackage "+v.name+"\n") || !strings.Contains(src, "// want `") {
			t.Errorf("variant %s: no package clause of its own or no expectation", v.name)
		}
		if v.golden != nil {
			g, err := os.ReadFile(filepath.Join(root, "src", v.name, "server.go.golden"))
			if err != nil || string(g) == src {
				t.Errorf("variant %s: the golden file is missing or the same as the variant", v.name)
			}
		}
	}
}
