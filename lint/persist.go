package lint

import (
	"maps"
	"slices"

	"github.com/gymlint/gymlint/diag"
)

// State is what a Session knows after an Update, in a form that can be
// saved between runs (package engine keeps it in gymlint's disk cache):
// the entrypoints with their signatures, and each group of entrypoints
// with its dependencies, diagnostics and families. Restore makes a new
// session know it, so that its next Update analyses only the groups that
// a change reaches.
type State struct {
	// Infos are the entrypoints, each with the signature of what the
	// configs and the listing say of it.
	Infos map[string]string
	// Groups are the groups of entrypoints, sorted by first entrypoint.
	Groups []GroupState
	// Repo are the repository diagnostics (configs, the entrypoint map).
	Repo []diag.Diagnostic
	// Configs are the config files, sorted.
	Configs []string
}

// GroupState is one group of a State.
type GroupState struct {
	Entrypoints []string // sorted
	Deps        []string // sorted
	Diags       []diag.Diagnostic
	Families    map[string][]string
}

// State returns what the session knows; nil before the first Update.
func (s *Session) State() *State {
	if !s.done {
		return nil
	}
	st := &State{Infos: maps.Clone(s.infos), Repo: slices.Clone(s.repo), Configs: slices.Sorted(maps.Keys(s.configs))}
	seen := map[*group]bool{}
	for _, ep := range slices.Sorted(maps.Keys(s.infos)) {
		g := s.groups[ep]
		if g == nil || seen[g] {
			continue
		}
		seen[g] = true
		st.Groups = append(st.Groups, GroupState{
			Entrypoints: slices.Clone(g.entrypoints),
			Deps:        slices.Clone(g.deps),
			Diags:       slices.Clone(g.diags),
			Families:    maps.Clone(g.families),
		})
	}
	return st
}

// Restore makes a session that has not been updated know st, as if its
// first Update had found it. Its next Update(changed) analyses again the
// groups that depend on a changed path, and those of the entrypoints that
// the configs or the listing now give differently from st.Infos (the
// configs and the listing are read again by that Update).
func (s *Session) Restore(st *State) {
	if s.done || st == nil {
		return
	}
	s.infos = maps.Clone(st.Infos)
	if s.infos == nil {
		s.infos = map[string]string{}
	}
	var groups []*group
	for _, gs := range st.Groups {
		g := &group{entrypoints: slices.Clone(gs.Entrypoints), deps: slices.Clone(gs.Deps), diags: slices.Clone(gs.Diags), families: maps.Clone(gs.Families)}
		if !slices.IsSorted(g.deps) {
			slices.Sort(g.deps)
		}
		g.deps = slices.Compact(g.deps)
		groups = append(groups, g)
	}
	s.commit(groups, map[string]bool{})
	s.repo = slices.Clone(st.Repo)
	s.configs = map[string]bool{}
	for _, f := range st.Configs {
		s.configs[f] = true
	}
	// The entrypoint map is compared with the cache's own at the next
	// Update: no generation of the cache is this one.
	s.generation = ^uint64(0)
	s.configsGen = s.generation
	s.done = true
}
