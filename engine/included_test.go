package engine

import (
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gymlint/gymlint/internal/diskcache"
	"github.com/gymlint/gymlint/internal/testtree"
)

// includedExtra is a config that starts two servers.
const includedExtra = "hidden:\n  resources_servers:\n    hidden:\n      entrypoint: srv.py\n" +
	"gone:\n  resources_servers:\n    gone:\n      entrypoint: nothere.py\n"

// includedRepo is a repository whose walked config includes extra, a
// config outside the walk that starts two servers: one whose module
// defines a server class without a module-level app (GL101), one whose
// entrypoint does not exist (GL005).
func includedRepo(t *testing.T, extra string, more map[string]string) string {
	files := map[string]string{
		"configs/top.yaml": "config_paths:\n  - " + extra + "\n",
		extra:              includedExtra,
		"resources_servers/hidden/srv.py": "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\n" +
			"class HiddenServer(SimpleResourcesServer):\n    pass\n\n\nif __name__ == \"__main__\":\n    HiddenServer.run_webserver()\n",
	}
	for k, v := range more {
		files[k] = v
	}
	root := t.TempDir()
	testtree.Write(t, root, files)
	past(t, root)
	return root
}

// What a run composes is what gymlint checks: a config that the walk does
// not read but that a walked config includes has its entrypoints analysed
// (GL101) and a missing one reported (GL005). An excluded one is analysed
// too, since the run starts its servers; the findings located in it (its
// GL005) are dropped like every finding in an excluded file.
func TestIncludedConfigIsChecked(t *testing.T) {
	for _, c := range []struct {
		name, extra string
		more        map[string]string
		excluded    bool
	}{
		{"hidden directory", ".private/extra.yaml", nil, false},
		{"name the walk does not take", "configs/extra.YAML", nil, false},
		{"gitignored", "local/extra.yaml", map[string]string{".gitignore": "local/\n"}, false},
		{"skipped directory", "venv/extra.yaml", nil, false},
		{"excluded", "private/extra.yaml", map[string]string{".gymlint.yaml": "exclude:\n  - private\n"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := includedRepo(t, c.extra, c.more)
			res := scan(t, Options{Root: root, NoGo: true})
			var got []string
			for _, d := range res.Diagnostics {
				if d.Code == "GL101" || d.Code == "GL005" {
					got = append(got, d.Path+" "+d.Code)
				}
			}
			want := []string{"resources_servers/hidden/srv.py GL101"}
			if !c.excluded {
				want = append(want, c.extra+" GL005")
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("findings %q, want %q\n%s", got, want, strings.Join(keys(res.Diagnostics), "\n"))
			}
			configs := 2 // top.yaml and the included file
			if c.more[".gymlint.yaml"] != "" {
				configs++
			}
			if res.Entrypoints != 1 || res.Configs != configs {
				t.Errorf("%d entrypoints, %d configs; want 1 and %d", res.Entrypoints, res.Configs, configs)
			}
		})
	}
}

// The cache keeps up with an included config outside the walk: an edit of
// it, the include dropped and back, and an included file that appears
// each give what a scan without the cache gives. The files are rewritten
// in place, so the directories do not change and the cache's listing is
// the record's, which names the included configs too.
func TestCacheFollowsIncludedConfig(t *testing.T) {
	for _, c := range []struct {
		name, extra string
		more        map[string]string
	}{
		{"hidden directory", ".private/extra.yaml", map[string]string{".private/other.yaml": "o: 1\n"}},
		{"gitignored", "local/extra.yaml", map[string]string{".gitignore": "local/\n", "local/other.yaml": "o: 1\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := includedRepo(t, c.extra, c.more)
			// Past the racy second of the directories' change time (which
			// no one can set back): a record's directory stamps hold.
			time.Sleep(1100 * time.Millisecond)
			cache, err := diskcache.Open(t.TempDir(), diskcache.Options{})
			if err != nil {
				t.Fatal(err)
			}
			step := func(what string, gl101, gl005, gl015 int) *Result {
				t.Helper()
				want, plain := scanJSON(t, root, nil, 0)
				got, res := scanJSON(t, root, cache, 0)
				if got != want {
					t.Fatalf("%s: the cached scan (%+v) finds otherwise than the uncached one:\n%s\nwant\n%s", what, res.Cache, got, want)
				}
				if res.Entrypoints != plain.Entrypoints || res.Configs != plain.Configs {
					t.Fatalf("%s: cached scan counts %d entrypoints and %d configs, uncached %d and %d", what, res.Entrypoints, res.Configs, plain.Entrypoints, plain.Configs)
				}
				n := map[string]int{}
				for _, d := range res.Diagnostics {
					n[d.Code]++
				}
				if n["GL101"] != gl101 || n["GL005"] != gl005 || n["GL015"] != gl015 {
					t.Fatalf("%s: GL101 %d, GL005 %d, GL015 %d; want %d, %d, %d\n%s", what, n["GL101"], n["GL005"], n["GL015"], gl101, gl005, gl015, strings.Join(keys(res.Diagnostics), "\n"))
				}
				t.Logf("%s: %+v", what, res.Cache)
				return res
			}
			step("cold", 1, 1, 0)
			if res := step("unchanged", 1, 1, 0); res.Cache.Analysed != 0 || res.Modules != 0 {
				t.Errorf("unchanged: %d groups analysed, %d modules parsed", res.Cache.Analysed, res.Modules)
			}
			writeFile(t, root, c.extra, "gone:\n  resources_servers:\n    gone:\n      entrypoint: nothere.py\n")
			step("included config edited", 0, 1, 0)
			writeFile(t, root, "configs/top.yaml", "config_paths: []\n")
			if res := step("include dropped", 0, 0, 0); res.Configs != 1 {
				t.Errorf("include dropped: %d configs", res.Configs)
			}
			writeFile(t, root, "configs/top.yaml", "config_paths:\n  - "+c.extra+"\n")
			step("include back", 0, 1, 0)
			// An include of a file not there yet (GL015), in a directory the
			// walk does not stamp: the file appears.
			later := path.Dir(c.extra) + "/later.yaml"
			writeFile(t, root, "configs/top.yaml", "config_paths:\n  - "+c.extra+"\n  - "+later+"\n")
			writeFile(t, root, c.extra, includedExtra)
			step("include of a missing file", 1, 1, 1)
			writeFile(t, root, later, "x: 1\n")
			step("the missing file appears", 1, 1, 0)
		})
	}
}
