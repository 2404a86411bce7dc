package inventory

import (
	"fmt"
	"path"
	"sort"

	"github.com/gymlint/gymlint/analyzers/configs"
	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/gym"
)

// Reference is a server reference that a config gives a server: a setting
// {type, name} of its instance (GL408's reading, configs.ServerRefs) that
// names another server instance, resolved to that instance's entrypoint.
type Reference struct {
	Field string `json:"field"` // the setting, e.g. resources_server
	Type  string `json:"type"`  // the referenced instance's server type
	Name  string `json:"name"`  // the referenced instance
	Path  string `json:"path"`  // the entrypoint the instance starts, relative to the root
	// Config is where the reference's name is written, as path:line.
	Config string `json:"config"`
}

// references reads the server references of e's instances in the composed
// runs that start it (View.RunServersOf), each resolved first in its run,
// else among the instances the repository's configs define (a run may be
// given together with a config that defines it). A reference that
// resolves to nothing, or to an instance of another type, is GL408's
// business and is left out; so are runs Gym stops. Each reference once,
// sorted by field, type, name and path.
func references(v *gym.View, e *gym.Entrypoint, refTypes []string, repo func() map[[2]string]string) []Reference {
	out := []Reference{}
	if len(refTypes) == 0 {
		return out
	}
	seen := map[Reference]bool{}
	for _, rs := range v.RunServersOf(e.Path) {
		if rs.Run == nil || rs.Run.Fatal || rs.Instance == nil {
			continue
		}
		for _, ref := range configs.ServerRefs(rs.Instance.Settings, refTypes) {
			target := ""
			for i := range rs.Run.Servers {
				if in := &rs.Run.Servers[i]; in.Name == ref.Name && in.Type == ref.Type {
					target = entrypointOf(in)
					break
				}
			}
			if target == "" {
				target = repo()[[2]string{ref.Type, ref.Name}]
			}
			if target == "" {
				continue
			}
			file := rs.Run.File
			if ref.Value.Origin != nil {
				file = ref.Value.Origin.File
			}
			r := Reference{Field: ref.Field, Type: ref.Type, Name: ref.Name, Path: target,
				Config: fmt.Sprintf("%s:%d", file, ref.Value.Pos.Line)}
			key := r
			key.Config = "" // one reference, wherever it is written
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Path < b.Path
	})
	return out
}

// entrypointOf is the root-relative path of the entrypoint an instance
// starts.
func entrypointOf(in *configscan.Instance) string {
	return path.Clean(in.Type + "/" + in.Dir + "/" + in.Entrypoint)
}

// repoInstances maps every server instance the view's config files
// define, by type and name, to the entrypoint it starts (the first file's,
// in the order of Configs).
func repoInstances(v *gym.View) map[[2]string]string {
	out := map[[2]string]string{}
	for _, f := range v.Configs {
		for i := range f.Servers {
			in := &f.Servers[i]
			k := [2]string{in.Type, in.Name}
			if _, ok := out[k]; !ok {
				out[k] = entrypointOf(in)
			}
		}
	}
	return out
}
