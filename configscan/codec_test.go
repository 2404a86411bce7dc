package configscan

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// yamlCorpus is every YAML file of the repository's test data: configs of
// every shape the tests know (anchors, merges, duplicates, bad documents).
func yamlCorpus(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, dir := range []string{"testdata", filepath.Join("..", "testdata")} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
				return nil
			}
			if data, err := os.ReadFile(p); err == nil {
				out[p] = data
			}
			return nil
		})
	}
	out["aliases.yaml"] = []byte("base: &b {entrypoint: app.py, num_workers: 2}\nx:\n  resources_servers:\n    x:\n      <<: *b\ny:\n  resources_servers:\n    y: *b\nz: {}\nw: []\n")
	out["two-docs.yaml"] = []byte("a: 1\n---\nb: 2\n")
	out["duplicates.yaml"] = []byte("a:\n  x: 1\n  x: 1\n  y: 1\n  y: 2\nb: {z: 1, z: 1}\n") // with and without fixes
	out["broken.yaml"] = []byte("a: [1, 2\n")
	out["empty.yaml"] = nil
	return out
}

// distinct counts the distinct nodes reachable from f.
func distinct(f *File) int {
	seen := map[*Node]bool{}
	var visit func(n *Node)
	visit = func(n *Node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		for _, p := range n.Pairs {
			visit(p.Value)
		}
		for _, it := range n.Items {
			visit(it)
		}
	}
	for _, d := range f.Docs {
		visit(d)
	}
	for _, in := range append(append([]Instance(nil), f.Servers...), f.Overrides...) {
		visit(in.Settings)
	}
	return len(seen)
}

func TestCodecRoundTrip(t *testing.T) {
	corpus := yamlCorpus(t)
	if len(corpus) < 50 {
		t.Fatalf("only %d YAML files found", len(corpus))
	}
	for p, data := range corpus {
		f := Parse(p, data, Options{})
		b, err := Encode(f)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		g, err := Decode(b)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !reflect.DeepEqual(f, g) {
			t.Fatalf("%s: the decoded File differs from the parsed one", p)
		}
		if distinct(f) != distinct(g) {
			t.Errorf("%s: %d distinct nodes parsed, %d decoded: sharing lost", p, distinct(f), distinct(g))
		}
		for i := range g.Servers {
			// An instance's settings stay the node of its document.
			if f.Servers[i].Settings != nil && g.Servers[i].Settings == nil {
				t.Errorf("%s: server %d lost its settings", p, i)
			}
		}
	}
}

// Damaged bytes give an error, never a different File or a panic.
func TestCodecRejectsDamage(t *testing.T) {
	f := Parse("c.yaml", []byte("x:\n  resources_servers:\n    x:\n      entrypoint: app.py\n      num_workers: 4\n"), Options{})
	b, err := Encode(f)
	if err != nil {
		t.Fatal(err)
	}
	for i := range len(b) {
		if _, err := Decode(b[:i]); err == nil {
			t.Fatalf("a truncation to %d of %d bytes decoded", i, len(b))
		}
	}
	for i := range b {
		for _, bit := range []byte{1, 0x80} {
			c := bytes.Clone(b)
			c[i] ^= bit
			g, err := Decode(c)
			if err == nil && reflect.DeepEqual(f, g) {
				t.Fatalf("flipping byte %d decoded the same File", i)
			}
		}
	}
	if _, err := Encode(&File{Docs: []*Node{{Origin: &Origin{}}}}); err == nil {
		t.Error("a composed tree was encoded")
	}
}

func FuzzDecode(f *testing.F) {
	for _, data := range yamlCorpus(&testing.T{}) {
		if b, err := Encode(Parse("f.yaml", data, Options{})); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		Decode(b) // must not panic
	})
}

// BenchmarkDecode decodes every config of the test data, against parsing
// them (a warm scan decodes the configs the cache keeps instead of parsing
// them again).
func BenchmarkDecode(b *testing.B) {
	corpus := yamlCorpus(b)
	var encs [][]byte
	var size int64
	for p, data := range corpus {
		enc, err := Encode(Parse(p, data, Options{}))
		if err != nil {
			b.Fatal(err)
		}
		encs = append(encs, enc)
		size += int64(len(data))
	}
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(size)
		for range b.N {
			for _, enc := range encs {
				if _, err := Decode(enc); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(size)
		for range b.N {
			for p, data := range corpus {
				Parse(p, data, Options{})
			}
		}
	})
}
