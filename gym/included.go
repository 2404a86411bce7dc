package gym

import (
	"errors"
	"slices"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/internal/repofs"
)

// The configs a scan reads are the walk's YAML files and every file that
// their runs include through config_paths, wherever it lies: a config
// under a hidden directory, with a name the walk does not take (.YAML), in
// a directory the walk skips, gitignored or excluded. Gym composes an
// included file into the run and starts its servers whether or not the
// walk lists it, so its servers' entrypoints are found and analysed (GL101,
// GL005...) like those of any config: what a run composes is what gymlint
// checks. The configuration's exclude still drops every finding located in
// an excluded file (policy), the included config's own (GL005 on its
// entrypoint line) included; the entrypoint modules it names are
// analysed, and their findings reported unless they are excluded too.

// configsRead returns, sorted, the configs of the skeleton: the YAML files
// of the listing and every file their runs include (configscan.RunFiles,
// with its bounds), each parsed through the cache.
//
// A listing given by SetListing (a record's) may name included files
// already: those that the walk does not list (repofs.FS.Unwalked) are not
// taken as top-level configs, only as includes again, so that a file no
// longer included is no longer read.
func (c *Cache) configsRead(listing *repofs.Listing, given bool) []string {
	roots := listing.YAML
	if given {
		if out := c.fs.Unwalked(roots); len(out) > 0 {
			roots = slices.DeleteFunc(slices.Clone(roots), func(p string) bool { return out[p] })
		}
	}
	entries := make([]*configEntry, len(roots))
	parallel(len(roots), c.jobs, func(i int) { entries[i] = c.config(roots[i]) })
	read := make(map[string]bool, len(roots))
	for _, p := range roots {
		read[p] = true
	}
	opts := configscan.ComposeOptions{ServerTypes: c.options.ServerTypes, Load: func(p string) (*configscan.File, error) {
		if e := c.config(p); e.file != nil {
			return e.file, nil
		}
		// An include that names no file, or one that cannot be read: the
		// map depends on its not being there (SkeletonInputs' looked).
		c.mu.Lock()
		if c.skelDeps == nil {
			c.skelDeps = map[string]bool{}
		}
		c.skelDeps[p] = true
		c.mu.Unlock()
		return nil, errNotConfig
	}}
	out := slices.Clone(roots)
	var queue []*configscan.File
	for _, e := range entries {
		if e.file != nil {
			queue = append(queue, e.file)
		}
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if !IsRunConfig(f) || f.Docs[0].GetPair("config_paths") == nil {
			continue
		}
		for _, inc := range configscan.RunFiles(f.Path, opts) {
			if !read[inc.Path] {
				read[inc.Path] = true
				out = append(out, inc.Path)
				queue = append(queue, inc)
			}
		}
	}
	slices.Sort(out)
	return out
}

// errNotConfig is the loader's error for a file that could not be read or
// parsed: RunFiles leaves it out.
var errNotConfig = errors.New("not a config")
