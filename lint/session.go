package lint

import (
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// Session keeps the diagnostics of a repository up to date as its files
// change, re-analysing only what depends on a change. A language server
// holds one per workspace.
//
// The unit of work is a group of entrypoints: entrypoints whose server
// classes share a class of the repository (gym.View.Family) are analysed
// together in one focused view, because rules may report on the shared
// class once for all of them; every other entrypoint is a group of its
// own. A group remembers its diagnostics and its dependencies (every file
// its analysis read or looked for). After a change, the groups that depend
// on a changed path, and those whose entrypoints the configs or the file
// listing changed, are analysed again; the others keep their diagnostics.
// Analysing every group of a fresh session finds exactly what Run finds.
//
// A Session is not safe for concurrent use.
type Session struct {
	cache *gym.Cache
	jobs  int

	infos  map[string]string   // entrypoint → signature of its gym.EntrypointInfo
	family map[string][]string // entrypoint → its family
	groups map[string]*group   // entrypoint → its group
	repo   []diag.Diagnostic   // the cache's repository diagnostics
	byPath map[string]int      // path → number of diagnostics on it (for Touched)
	done   bool
}

// group is a set of entrypoints analysed together.
type group struct {
	entrypoints []string
	deps        map[string]bool
	diags       []diag.Diagnostic
}

// NewSession opens the repository at root. Nothing is analysed until the
// first Update.
func NewSession(root string, opts gym.Options) (*Session, error) {
	c, err := gym.NewCache(root, opts)
	if err != nil {
		return nil, err
	}
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	return &Session{cache: c, jobs: jobs, infos: map[string]string{}, family: map[string][]string{}, groups: map[string]*group{}}, nil
}

// Cache returns the session's cache: tell it what changed (SetOverlay,
// ClearOverlay, Changed, Created, Deleted) before calling Update.
func (s *Session) Cache() *gym.Cache { return s.cache }

// Close releases the cache's parsers.
func (s *Session) Close() { s.cache.Close() }

// Update brings the diagnostics up to date after changes to the given
// root-relative paths (content or existence; the cache must already know).
// The first call analyses everything. It returns, sorted, the paths whose
// diagnostics may have changed: those of every group analysed again, before
// and after, and those of the repository diagnostics when they changed.
func (s *Session) Update(changed []string) (touched []string, stats UpdateStats) {
	touchedSet := map[string]bool{}
	oldRepo := s.repo
	infos := s.cache.Entrypoints()
	newInfos := make(map[string]string, len(infos))
	affected := map[string]bool{}
	for _, e := range infos {
		sig := signature(e)
		newInfos[e.Path] = sig
		if !s.done || s.infos[e.Path] != sig {
			affected[e.Path] = true
		}
	}
	changedSet := map[string]bool{}
	for _, p := range changed {
		changedSet[p] = true
	}
	seenGroup := map[*group]bool{}
	for _, g := range s.groups {
		if seenGroup[g] {
			continue
		}
		seenGroup[g] = true
		hit := false
		for _, m := range g.entrypoints {
			if _, ok := newInfos[m]; !ok || affected[m] {
				hit = true // removed or changed by the configs or the listing
			}
		}
		if !hit {
			for p := range changedSet {
				if g.deps[p] {
					hit = true
					break
				}
			}
		}
		if hit {
			s.dropGroup(g, touchedSet)
			for _, m := range g.entrypoints {
				if _, ok := newInfos[m]; ok {
					affected[m] = true
				}
			}
		}
	}
	for p := range s.infos {
		if _, ok := newInfos[p]; !ok {
			delete(s.family, p)
		}
	}
	s.infos = newInfos

	// Families of the affected entrypoints, then the groups they fall in.
	if len(affected) > 0 {
		focus := sortedKeys(affected)
		v := s.cache.View(focus)
		for _, e := range v.Entrypoints {
			s.family[e.Path] = v.Family(e)
		}
		stats.Analysed = len(focus)
	}
	groups := s.regroup(affected, touchedSet)
	stats.Groups = len(groups)
	s.analyse(groups, touchedSet)
	stats.Analysed = 0
	for _, g := range groups {
		stats.Analysed += len(g.entrypoints)
	}

	// The repository diagnostics come with every view of the cache.
	s.repo = s.cache.View([]string{}).RepositoryDiagnostics()
	if !sameDiags(oldRepo, s.repo) {
		for _, d := range oldRepo {
			touchedSet[d.Path] = true
		}
		for _, d := range s.repo {
			touchedSet[d.Path] = true
		}
	}
	s.done = true
	return sortedKeys(touchedSet), stats
}

// UpdateStats says how much an Update did.
type UpdateStats struct {
	Groups   int // groups analysed
	Analysed int // entrypoints analysed
}

func signature(e gym.EntrypointInfo) string {
	var b strings.Builder
	if e.ServerDirApp {
		b.WriteString("app;")
	}
	if e.Exempt {
		b.WriteString("exempt;")
	}
	b.WriteString(strings.Join(e.Configs, ","))
	b.WriteByte(';')
	b.WriteString(strings.Join(e.Overrides, ","))
	return b.String()
}

func (s *Session) dropGroup(g *group, touched map[string]bool) {
	for _, m := range g.entrypoints {
		if s.groups[m] == g {
			delete(s.groups, m)
		}
	}
	for _, d := range g.diags {
		touched[d.Path] = true
	}
}

// regroup makes the groups that the affected entrypoints belong to, by
// union of families over every entrypoint. A group that an affected
// entrypoint joins is dropped and made again with it.
func (s *Session) regroup(affected map[string]bool, touched map[string]bool) []*group {
	if len(affected) == 0 {
		return nil
	}
	// Union-find over entrypoints, joined through the classes of their
	// families.
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	union := func(a, b string) {
		ra, rb := find(a), find(b)
		if ra != rb {
			if ra < rb {
				parent[rb] = ra
			} else {
				parent[ra] = rb
			}
		}
	}
	byClass := map[string]string{}
	for ep := range s.infos {
		parent[ep] = ep
	}
	for _, ep := range sortedKeys(s.infosSet()) {
		for _, cls := range s.family[ep] {
			if other, ok := byClass[cls]; ok {
				union(ep, other)
			} else {
				byClass[cls] = ep
			}
		}
	}
	members := map[string][]string{}
	for ep := range s.infos {
		r := find(ep)
		members[r] = append(members[r], ep)
	}
	var out []*group
	made := map[string]bool{}
	for _, ep := range sortedKeys(affected) {
		r := find(ep)
		if made[r] {
			continue
		}
		made[r] = true
		ms := members[r]
		sort.Strings(ms)
		for _, m := range ms {
			if old := s.groups[m]; old != nil {
				s.dropGroup(old, touched)
			}
		}
		out = append(out, &group{entrypoints: ms})
	}
	return out
}

func (s *Session) infosSet() map[string]bool {
	m := make(map[string]bool, len(s.infos))
	for k := range s.infos {
		m[k] = true
	}
	return m
}

// analyse runs the rules on each group in a focused view of its own,
// several groups at once.
func (s *Session) analyse(groups []*group, touched map[string]bool) {
	var wg sync.WaitGroup
	next := make(chan *group)
	for range min(s.jobs, len(groups)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				v := s.cache.View(g.entrypoints)
				g.diags = Analyse(v)
				g.deps = map[string]bool{}
				for _, p := range v.Dependencies() {
					g.deps[p] = true
				}
			}
		}()
	}
	for _, g := range groups {
		next <- g
	}
	close(next)
	wg.Wait()
	for _, g := range groups {
		for _, m := range g.entrypoints {
			s.groups[m] = g
		}
		for _, d := range g.diags {
			touched[d.Path] = true
		}
	}
}

// Diagnostics returns every diagnostic of the repository, each once,
// sorted.
func (s *Session) Diagnostics() []diag.Diagnostic {
	return s.collect(func(string) bool { return true })
}

// DiagnosticsOf returns the diagnostics of the file at path, each once,
// sorted.
func (s *Session) DiagnosticsOf(path string) []diag.Diagnostic {
	return s.collect(func(p string) bool { return p == path })
}

func (s *Session) collect(want func(string) bool) []diag.Diagnostic {
	var out []diag.Diagnostic
	seen := map[string]bool{}
	add := func(d diag.Diagnostic) {
		if !want(d.Path) {
			return
		}
		k := identity(d)
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	for _, d := range s.repo {
		add(d)
	}
	done := map[*group]bool{}
	for _, ep := range sortedKeys(s.infosSet()) {
		g := s.groups[ep]
		if g == nil || done[g] {
			continue
		}
		done[g] = true
		for _, d := range g.diags {
			add(d)
		}
	}
	diag.Sort(out)
	return out
}

// identity tells two reports of one finding (by two groups that read the
// same module) from two findings.
func identity(d diag.Diagnostic) string {
	var b strings.Builder
	b.WriteString(d.Path)
	b.WriteByte(0)
	b.WriteString(d.Code)
	b.WriteByte(0)
	b.WriteString(strconv.Itoa(d.Start.Offset))
	b.WriteByte(0)
	b.WriteString(strconv.Itoa(d.End.Offset))
	b.WriteByte(0)
	b.WriteString(d.Message)
	return b.String()
}

func sameDiags(a, b []diag.Diagnostic) bool {
	if len(a) != len(b) {
		return false
	}
	ka := make([]string, len(a))
	kb := make([]string, len(b))
	for i := range a {
		ka[i], kb[i] = identity(a[i]), identity(b[i])
	}
	slices.Sort(ka)
	slices.Sort(kb)
	return slices.Equal(ka, kb)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// DependenciesOf returns, sorted, the dependencies of the group that the
// entrypoint belongs to (nil for an unknown entrypoint).
func (s *Session) DependenciesOf(entrypoint string) []string {
	g := s.groups[entrypoint]
	if g == nil {
		return nil
	}
	return sortedKeys(g.deps)
}

// GroupOf returns the entrypoints analysed together with the given one.
func (s *Session) GroupOf(entrypoint string) []string {
	if g := s.groups[entrypoint]; g != nil {
		return append([]string(nil), g.entrypoints...)
	}
	return nil
}
