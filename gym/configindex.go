package gym

import (
	"path"
	"slices"

	"github.com/gymlint/gymlint/configscan"
)

// The rules of every view ask the same questions of the configs: which
// file is at a path, and which override instances there are for a server
// type and directory. The answers are indexed once per entrypoint map
// (skeleton.findOverrides), not looked for in every config by every view:
// on the generated 2,000-server repository that search made 1.3 GB of
// maps per scan.

// serverDir is a server type and a cleaned server directory.
type serverDir struct{ typ, dir string }

// OverrideRef is an override instance of a config (an instance with a
// server type and directory but no entrypoint).
type OverrideRef struct {
	File     *configscan.File
	Instance *configscan.Instance
	// Order is the instance's place among the overrides of every config,
	// in the order of View.Configs.
	Order int
}

type configIndexKey struct{}

type configIndex struct {
	byPath    map[string]*configscan.File
	overrides map[serverDir][]OverrideRef
}

// configIndex returns the view's index of its configs: its skeleton's, or one
// of its own for a view without one.
func (v *View) configIndex() configIndex {
	if v.skel != nil {
		return configIndex{v.skel.byPath, v.skel.overrideRefs}
	}
	return v.Shared(configIndexKey{}, func() any {
		s := &skeleton{configs: v.Configs}
		s.findOverrides()
		return configIndex{s.byPath, s.overrideRefs}
	}).(configIndex)
}

// ConfigFile returns the config of Configs at the root-relative path p,
// nil if there is none.
func (v *View) ConfigFile(p string) *configscan.File { return v.configIndex().byPath[p] }

// OverridesOf returns the override instances of Configs whose server type
// is typ and whose directory is dir once both are cleaned, in the order of
// Configs. The slice is shared: callers must not modify it.
func (v *View) OverridesOf(typ, dir string) []OverrideRef {
	return v.configIndex().overrides[serverDir{typ, path.Clean(dir)}]
}

// EntrypointOverrides returns the override instances of the config
// instances that start e: those of the same instance name, server type
// and directory (as written), in any config, each once, in the order of
// Configs. The instances' own settings come first in Gym's merge; these
// are what other config files add to them.
func (v *View) EntrypointOverrides(e *Entrypoint) []OverrideRef {
	type inst struct{ name, typ, dir string }
	named := map[inst]bool{}
	var out []OverrideRef
	for _, c := range e.Configs {
		in := c.Instance
		k := inst{in.Name, in.Type, in.Dir}
		if named[k] {
			continue
		}
		named[k] = true
		for _, o := range v.OverridesOf(in.Type, in.Dir) {
			if o.Instance.Name == in.Name && o.Instance.Dir == in.Dir {
				out = append(out, o)
			}
		}
	}
	slices.SortFunc(out, func(a, b OverrideRef) int { return a.Order - b.Order })
	return out
}
