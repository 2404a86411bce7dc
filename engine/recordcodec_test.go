package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/gymlint/gymlint/internal/diskcache"
)

func TestStampTablesRoundTrip(t *testing.T) {
	paths := pathList{"", "a", "a/b.py", "a/b.pyc", "a/c/__init__.py", "b", "résumé/ü.py"}
	stamps := stampList{
		{Hash: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", Size: 12, MTime: 1 << 60, Ino: 1 << 63},
		{Hash: absent, Anchor: 3},
		{Hash: "dir:abc"},
		{Hash: "?modified during the scan", Size: -1, MTime: -5},
		{Hash: "0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef"}, // not lower-case: kept as text
		{},
		{Hash: "!outside the root"},
	}
	pb, _ := paths.GobEncode()
	sb, _ := stamps.GobEncode()
	var p2 pathList
	var s2 stampList
	if err := p2.GobDecode(pb); err != nil || !reflect.DeepEqual(p2, paths) {
		t.Fatalf("paths: %q, %v", p2, err)
	}
	if err := s2.GobDecode(sb); err != nil || !reflect.DeepEqual(s2, stamps) {
		t.Fatalf("stamps: %+v, %v", s2, err)
	}
	for i := range pb {
		if (&p2).GobDecode(pb[:i]) == nil {
			t.Fatalf("paths truncated to %d of %d bytes decoded", i, len(pb))
		}
	}
	for i := range sb {
		if (&s2).GobDecode(sb[:i]) == nil {
			t.Fatalf("stamps truncated to %d of %d bytes decoded", i, len(sb))
		}
	}
}

// A record reads back as it was written, in its four messages; a record
// cut short, with bytes after it, or of another format, does not.
func TestRecordRoundTrip(t *testing.T) {
	rec := &pyRecord{
		Format: pyFormat, Context: "ctx", Written: 42,
		Paths:    pathList{"a.py", "b/c.py", "b/d.py"},
		Stamps:   stampList{{Hash: absent, Anchor: 1}, {Hash: "dir:x"}, {Size: 3, MTime: 4, Ino: 5, Hash: "h"}},
		Dirs:     []dirStamp{{Path: "b", MTime: 7, Ino: 8}},
		Listing:  &savedListing{YAML: []string{"c.yaml"}},
		Skeleton: "skel", Looked: []int32{2},
		Infos:   map[string]string{"b/c.py": "sig"},
		Groups:  []groupRecord{{Entrypoints: []string{"b/c.py"}, Deps: []int32{0, 2}, Families: map[string][]string{"b/c.py": {"X"}}}},
		Configs: []string{"c.yaml"},
		PreSums: map[string]string{"b/c.py": "sum"},
	}
	var buf bytes.Buffer
	if err := writeRecord(&buf, rec); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	got, err := readRecord(data)
	if err != nil || !reflect.DeepEqual(got, rec) {
		t.Fatalf("readRecord = %+v, %v\nwant %+v", got, err, rec)
	}
	for _, n := range []int{0, 1, len(data) / 2, len(data) - 1} {
		if _, err := readRecord(data[:n]); err == nil {
			t.Errorf("a record cut to %d of %d bytes was read", n, len(data))
		}
	}
	if _, err := readRecord(append(slices.Clone(data), 0)); err == nil {
		t.Error("a record with a byte after it was read")
	}
	old := *rec
	old.Format = pyFormat - 1
	buf.Reset()
	writeRecord(&buf, &old)
	if _, err := readRecord(buf.Bytes()); err == nil {
		t.Error("a record of another format was read")
	}
}

// Every content hash a record keeps is the hash of the file as it is: the
// stamps that come from the analysis's reads (repofs.FS.KeepSums) and
// those made by reading are alike, on the first scan and after an edit.
func TestRecordHashesAreTheFiles(t *testing.T) {
	root := copyFixture(t, "gymrepo")
	cache, err := diskcache.Open(t.TempDir(), diskcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(step string) {
		t.Helper()
		scanJSON(t, root, cache, 0)
		rec := record(t, root, cache)
		hashed := 0
		for i, p := range rec.Paths {
			sp := rec.Stamps[i]
			if len(sp.Hash) != 64 {
				continue
			}
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
			if err != nil {
				t.Fatalf("%s: %s has a content hash but cannot be read: %v", step, p, err)
			}
			if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != sp.Hash {
				t.Fatalf("%s: the record's hash of %s is not its content's", step, p)
			}
			hashed++
		}
		if hashed < 20 {
			t.Fatalf("%s: only %d content hashes in the record", step, hashed)
		}
	}
	check("first scan")
	appendTo(t, root, "resources_servers/maze_walk/app.py", "\n# edited\n")
	check("after an edit")
}
