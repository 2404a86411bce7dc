package engine

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gymlint/gymlint/internal/diskcache"
)

// The fixture repositories the cache is checked on.
var cacheFixtures = []string{"gymrepo", "refusalrepo", "rayrepo", "sessionsrepo_a", "sessionsrepo_b", "staterepo", "extframework", "frontendsrepo"}

// copyFixture copies testdata/NAME to a temporary directory and dates
// every file and directory an hour back, so that stamps are not racy.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("..", "testdata", name)
	if filepath.IsAbs(name) {
		src = name
	}
	dst := filepath.Join(t.TempDir(), filepath.Base(name))
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	past(t, dst)
	return dst
}

// past dates every file and directory under dir an hour back.
func past(t *testing.T, dir string) {
	t.Helper()
	then := time.Now().Add(-time.Hour)
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		return os.Chtimes(p, then, then)
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(dirs) // a directory after what it holds
	for _, d := range dirs {
		if err := os.Chtimes(d, then, then); err != nil {
			t.Fatal(err)
		}
	}
}

// scanJSON scans root and returns its findings as JSON, with what the cache
// did.
func scanJSON(t *testing.T, root string, cache *diskcache.Cache, jobs int) (string, *Result) {
	t.Helper()
	e, err := New(Options{Root: root, NoGo: true, Cache: cache, Jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Scan(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(res.Diagnostics, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b), res
}

// sameAsUncached scans root with the cache and without it, with --jobs 1
// and the default, and fails unless the four agree byte for byte. It
// returns the cached scan's result.
func sameAsUncached(t *testing.T, root string, cache *diskcache.Cache, step string) *Result {
	t.Helper()
	want, plain := scanJSON(t, root, nil, 0)
	one, _ := scanJSON(t, root, nil, 1)
	if one != want {
		t.Fatalf("%s: --jobs 1 finds otherwise than the default:\n%s\nwant\n%s", step, one, want)
	}
	got, res := scanJSON(t, root, cache, 0)
	if got != want {
		t.Fatalf("%s: the cached scan (%+v) finds otherwise than the uncached one:\n%s\nwant\n%s", step, res.Cache, got, want)
	}
	if res.Entrypoints != plain.Entrypoints || res.Configs != plain.Configs {
		t.Fatalf("%s: cached scan counts %d entrypoints and %d configs, uncached %d and %d", step, res.Entrypoints, res.Configs, plain.Entrypoints, plain.Configs)
	}
	t.Logf("%s: %+v", step, res.Cache)
	again, res1 := scanJSON(t, root, cache, 1)
	if again != want {
		t.Fatalf("%s: the cached scan with --jobs 1 (%+v) finds otherwise", step, res1.Cache)
	}
	if res1.Cache.Analysed != 0 || res1.Modules != 0 {
		t.Fatalf("%s: a second scan of unchanged files analysed %d groups and parsed %d modules", step, res1.Cache.Analysed, res1.Modules)
	}
	return res
}

// record reads the root's cached record.
func record(t *testing.T, root string, cache *diskcache.Cache) *pyRecord {
	t.Helper()
	e, err := New(Options{Root: root, NoGo: true, Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	ctx, _ := e.contextKey()
	rec := e.loadRecord(pyKey(ctx), ctx)
	if rec == nil {
		t.Fatal("no record in the cache")
	}
	return rec
}

// groupsWith counts the record's groups that depend on p.
func groupsWith(rec *pyRecord, p string) int {
	n := 0
	for _, g := range rec.Groups {
		for _, i := range g.Deps {
			if rec.Paths[i] == p {
				n++
				break
			}
		}
	}
	return n
}

func appendTo(t *testing.T, root, p, text string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(p)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func writeFile(t *testing.T, root, p, text string) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCacheFindsWhatAScanFinds: on every fixture, and after each of a
// series of edits, a scan that reads the cache finds byte for byte what
// a scan without it finds, with --jobs 1 and the default; an edit of one
// file re-analyses only the groups that read it.
//
// GYMLINT_CACHE_TEST_REPO=DIR runs the same on a copy of another
// repository too (the real NeMo Gym, by hand: it is not part of this one).
func TestCacheFindsWhatAScanFinds(t *testing.T) {
	names := slices.Clone(cacheFixtures)
	if extra := os.Getenv("GYMLINT_CACHE_TEST_REPO"); extra != "" {
		names = append(names, extra)
	}
	for _, name := range names {
		t.Run(filepath.Base(name), func(t *testing.T) {
			root := copyFixture(t, name)
			cache, err := diskcache.Open(t.TempDir(), diskcache.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res := sameAsUncached(t, root, cache, "cold")
			if res.Cache.Reason != "no entry" || res.Cache.Analysed != res.Cache.Groups {
				t.Fatalf("the first scan: %+v, want every group analysed", res.Cache)
			}
			rec := record(t, root, cache)
			eps := slices.Sorted(func(yield func(string) bool) {
				for ep := range rec.Infos {
					if !yield(ep) {
						return
					}
				}
			})
			if len(eps) == 0 {
				t.Skip("no entrypoints")
			}

			// One entrypoint edited: only the groups that read it.
			ep := eps[0]
			want := groupsWith(rec, ep)
			appendTo(t, root, ep, "\n# edited\n")
			res = sameAsUncached(t, root, cache, "entrypoint edited")
			if res.Cache.Analysed != want || want == 0 {
				t.Errorf("after editing %s: %d groups analysed, %d read it", ep, res.Cache.Analysed, want)
			}

			// A parent class module (the framework's, read by many groups).
			rec = record(t, root, cache)
			for _, p := range []string{"nemo_gym/base_resources_server.py", "nemo_gym/server_utils.py"} {
				if _, err := os.Stat(filepath.Join(root, p)); err != nil {
					continue
				}
				if want := groupsWith(rec, p); want > 0 {
					appendTo(t, root, p, "\n# edited\n")
					res = sameAsUncached(t, root, cache, "framework module edited")
					if res.Cache.Analysed != want {
						t.Errorf("after editing %s: %d groups analysed, %d read it", p, res.Cache.Analysed, want)
					}
					break
				}
			}

			// A module an import looked for and did not find appears.
			rec = record(t, root, cache)
			for i, p := range rec.Paths {
				st := rec.Stamps[i]
				if st.Hash != absent || st.Anchor == 0 || !strings.HasSuffix(p, ".py") || path.Dir(p) != rec.Dirs[st.Anchor-1].Path {
					continue
				}
				want := groupsWith(rec, p)
				writeFile(t, root, p, "from nemo_gym.base_resources_server import SimpleResourcesServer\n")
				res = sameAsUncached(t, root, cache, "looked-for module created: "+p)
				if want > 0 && res.Cache.Analysed < want {
					t.Errorf("after creating %s: %d groups analysed, %d looked for it", p, res.Cache.Analysed, want)
				}
				break
			}

			// A syntax error, then its repair.
			appendTo(t, root, ep, "\ndef broken(:\n")
			sameAsUncached(t, root, cache, "syntax error")
			writeFile(t, root, ep, "")
			sameAsUncached(t, root, cache, "entrypoint emptied")

			// A config edited: everything again.
			rec = record(t, root, cache)
			if len(rec.Configs) > 0 {
				appendTo(t, root, rec.Configs[0], "\n# edited\n")
				res = sameAsUncached(t, root, cache, "config edited")
				if res.Cache.Analysed != res.Cache.Groups {
					t.Errorf("after a config edit: %+v, want every group analysed", res.Cache)
				}
			}

			// A server removed: its files go, the listing changes.
			if err := os.Remove(filepath.Join(root, filepath.FromSlash(eps[len(eps)-1]))); err != nil {
				t.Fatal(err)
			}
			sameAsUncached(t, root, cache, "entrypoint removed")
		})
	}
}

// TestCorruptCacheIsIgnored: a record that was damaged on disk is not
// trusted: the scan computes everything and finds the same.
func TestCorruptCacheIsIgnored(t *testing.T) {
	root := copyFixture(t, "gymrepo")
	dir := t.TempDir()
	cache, err := diskcache.Open(dir, diskcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := scanJSON(t, root, nil, 0)
	scanJSON(t, root, cache, 0)
	var entries []string
	filepath.WalkDir(filepath.Join(dir, pyKind), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			entries = append(entries, p)
		}
		return nil
	})
	if len(entries) != 1 {
		t.Fatalf("%d python records, want 1", len(entries))
	}
	data, err := os.ReadFile(entries[0])
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x55
	if err := os.WriteFile(entries[0], data, 0o600); err != nil {
		t.Fatal(err)
	}
	got, res := scanJSON(t, root, cache, 0)
	if got != want || res.Cache.Reason != "no entry" || res.Cache.Analysed != res.Cache.Groups {
		t.Fatalf("after corrupting the record: %+v; same findings: %v", res.Cache, got == want)
	}
}

// TestConcurrentScansShareTheCache: scans that run at once on one cache
// (pre-commit runs hooks in parallel) all find what a scan finds.
func TestConcurrentScansShareTheCache(t *testing.T) {
	root := copyFixture(t, "refusalrepo")
	cache, err := diskcache.Open(t.TempDir(), diskcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := scanJSON(t, root, nil, 0)
	var wg sync.WaitGroup
	got := make([]string, 4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e, err := New(Options{Root: root, NoGo: true, Cache: cache})
			if err != nil {
				t.Error(err)
				return
			}
			res, err := e.Scan(nil)
			if err != nil {
				t.Error(err)
				return
			}
			b, _ := json.MarshalIndent(res.Diagnostics, "", " ")
			got[i] = string(b)
		}()
	}
	wg.Wait()
	for i, g := range got {
		if g != want {
			t.Errorf("scan %d of 4 found otherwise", i)
		}
	}
	if g, _ := scanJSON(t, root, cache, 0); g != want {
		t.Error("the scan after them found otherwise")
	}
}
