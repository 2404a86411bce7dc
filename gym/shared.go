package gym

import "sync"

// sharedEntry is one value of View.Shared.
type sharedEntry struct {
	once sync.Once
	val  any
}

// Shared returns the value kept under key for this view, computing it with
// compute the first time any caller asks (concurrent callers wait for that
// one computation). An analyzer uses it to run one analysis that its rules,
// and reports such as the server inventory, share for the life of the view.
// Use an unexported key type per analyzer, as context.Context keys do.
func (v *View) Shared(key any, compute func() any) any {
	v.sharedMu.Lock()
	if v.shared == nil {
		v.shared = map[any]*sharedEntry{}
	}
	e := v.shared[key]
	if e == nil {
		e = &sharedEntry{}
		v.shared[key] = e
	}
	v.sharedMu.Unlock()
	e.once.Do(func() { e.val = compute() })
	return e.val
}

// SharedByConfigs is Shared for a value that only the configs and their
// composed runs (Configs, Runs, ConfigFile, OverridesOf, RunServersOf)
// decide: it is computed once for every view of the same entrypoint map
// (the views of a session's groups, made from the same configs), not once
// per view. compute must not read the view's entrypoints, modules or
// files. A repository-wide rule, such as the fixed ports of every run,
// uses it (Check.ConfigsOnly) so that each group's view does not judge
// every run again.
func (v *View) SharedByConfigs(key any, compute func() any) any {
	if v.skel == nil {
		return v.Shared(key, compute)
	}
	s := v.skel
	s.runsMu.Lock()
	if s.shared == nil {
		s.shared = map[any]*sharedEntry{}
	}
	e := s.shared[key]
	if e == nil {
		e = &sharedEntry{}
		s.shared[key] = e
	}
	s.runsMu.Unlock()
	e.once.Do(func() { e.val = compute() })
	return e.val
}

// SetSharedByConfigs makes val the value of SharedByConfigs(key) for the
// views of the cache's configs as they are now, unless it has one: the
// value that an earlier analysis of the same configs computed. It reports
// whether val was taken.
func (c *Cache) SetSharedByConfigs(key, val any) bool {
	s := c.skeletonOf()
	s.runsMu.Lock()
	defer s.runsMu.Unlock()
	if s.shared == nil {
		s.shared = map[any]*sharedEntry{}
	}
	if _, has := s.shared[key]; has {
		return false
	}
	e := &sharedEntry{val: val}
	e.once.Do(func() {})
	s.shared[key] = e
	return true
}

// Source returns the content of a root-relative file, read once per view
// and shared by every caller: rules that look at source text beside the
// model must use it rather than read the file again. The returned slice
// must not be modified.
func (v *View) Source(p string) ([]byte, error) {
	v.mu.Lock()
	v.deps[p] = true
	first := !v.sourced[p]
	if first {
		if v.sourced == nil {
			v.sourced = map[string]bool{}
		}
		v.sourced[p] = true
	}
	me := v.mods[p]
	v.mu.Unlock()
	if first {
		v.cache.noteRead(p)
	}
	if me != nil && me.mod != nil {
		// A module the view parsed: its text, even if the cache evicted it.
		if src := me.mod.Source(); src != nil || me.mod.Size == 0 {
			return src, nil
		}
	}
	e := v.cache.source(p, v.budget)
	return e.data, e.err
}
