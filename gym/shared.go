package gym

import "sync"

// sharedEntry is one value of a sharedMap.
type sharedEntry struct {
	once sync.Once
	val  any
}

// sharedMap keeps values computed once each, by key (View.Shared,
// View.SharedByConfigs, the runs composed one by one).
type sharedMap struct {
	mu sync.Mutex
	m  map[any]*sharedEntry
}

// entry returns the entry of key, made if there is none.
func (sm *sharedMap) entry(key any) *sharedEntry {
	sm.mu.Lock()
	defer sm.mu.Unlock()
	if sm.m == nil {
		sm.m = map[any]*sharedEntry{}
	}
	e := sm.m[key]
	if e == nil {
		e = &sharedEntry{}
		sm.m[key] = e
	}
	return e
}

// get returns the value of key, computing it with compute the first time
// (concurrent callers wait for that one computation).
func (sm *sharedMap) get(key any, compute func() any) any {
	e := sm.entry(key)
	e.once.Do(func() { e.val = compute() })
	return e.val
}

// set makes val the value of key unless it has one, and reports whether
// it was taken.
func (sm *sharedMap) set(key, val any) bool {
	taken := false
	e := sm.entry(key)
	e.once.Do(func() { e.val, taken = val, true })
	return taken
}

// clear drops every value.
func (sm *sharedMap) clear() {
	sm.mu.Lock()
	sm.m = nil
	sm.mu.Unlock()
}

// Shared returns the value kept under key for this view, computing it with
// compute the first time any caller asks (concurrent callers wait for that
// one computation). An analyzer uses it to run one analysis that its rules,
// and reports such as the server inventory, share for the life of the view.
// Use an unexported key type per analyzer, as context.Context keys do.
func (v *View) Shared(key any, compute func() any) any { return v.shared.get(key, compute) }

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
	return v.skel.shared.get(key, compute)
}

// SetSharedByConfigs makes val the value of SharedByConfigs(key) for the
// views of the cache's configs as they are now, unless it has one: the
// value that an earlier analysis of the same configs computed. It reports
// whether val was taken.
func (c *Cache) SetSharedByConfigs(key, val any) bool { return c.skeletonOf().shared.set(key, val) }

// Source returns the content of a root-relative file, read once per view
// and shared by every caller: rules that look at source text beside the
// model must use it rather than read the file again. The returned slice
// must not be modified.
func (v *View) Source(p string) ([]byte, error) {
	v.mu.Lock()
	v.dependOn(p)
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
