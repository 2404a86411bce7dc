package lint

import (
	"cmp"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/internal/workers"
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
// When the analysis shows that an entrypoint's family changed (its server
// now derives from another class), the groups are made again around it.
// Analysing every group of a fresh session finds exactly what Run finds.
//
// A Session is not safe for concurrent use.
type Session struct {
	cache  *gym.Cache
	jobs   int
	checks []gym.Check

	generation uint64
	infos      map[string]string          // entrypoint → signature of its gym.EntrypointInfo
	family     map[string][]string        // entrypoint → its family
	groups     map[string]*group          // entrypoint → its group
	byDep      map[string]*groupSet       // dependency → the groups that have it
	byPath     map[string]map[*group]bool // path → the groups with diagnostics on it
	repo       []diag.Diagnostic          // the cache's repository diagnostics
	configs    map[string]bool            // the config files
	configsGen uint64                     // the generation configs was made at
	done       bool
	progress   progress
	options    SessionOptions
	waiting    int64 // maxWaitingSource, but for tests
}

// SessionOptions configure a session (NewSessionWith).
type SessionOptions struct {
	// OneShot is for a session that is updated once (a batch scan): it
	// keeps no parsed module for later edits once an Update is done.
	// Diagnostics, dependencies (unless NoDependencies) and families are
	// kept as in any session.
	OneShot bool
	// NoDependencies, with OneShot, is for a batch scan whose state is
	// not kept either (no cache of results): its groups record no
	// dependencies (gym.Cache.ForgoDependencies), DependenciesOf and
	// State give none, and an Update after the first analyses every
	// group again.
	NoDependencies bool
}

// group is a set of entrypoints analysed together.
type group struct {
	entrypoints []string
	deps        []string // sorted
	diags       []diag.Diagnostic
	families    map[string][]string // of its entrypoints, from its analysis
	pins        []string            // what the cache keeps for its analysis (gym.Cache.Pin)
}

// NewSession opens the repository at root, to run the given checks (nil:
// every check, see AnalyseWith). Nothing is analysed until the first
// Update.
func NewSession(root string, opts gym.Options, checks []gym.Check) (*Session, error) {
	return NewSessionWith(root, opts, checks, SessionOptions{})
}

// NewSessionWith is NewSession with session options.
func NewSessionWith(root string, opts gym.Options, checks []gym.Check, so SessionOptions) (*Session, error) {
	c, err := gym.NewCache(root, opts)
	if err != nil {
		return nil, err
	}
	if so.OneShot && so.NoDependencies {
		c.ForgoDependencies()
	}
	if checks == nil {
		checks = Checks()
	}
	return &Session{cache: c, jobs: c.Jobs(), checks: checks, infos: map[string]string{}, family: map[string][]string{},
		groups: map[string]*group{}, byDep: map[string]*groupSet{}, byPath: map[string]map[*group]bool{},
		options: so, waiting: maxWaitingSource}, nil
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
	if !s.done {
		s.infos = s.signatures()
		s.generation = s.cache.Generation()
		all := map[string]bool{}
		for ep := range s.infos {
			all[ep] = true
		}
		s.regroupAndAnalyse(all, touchedSet, &stats)
	} else {
		s.update(changed, touchedSet, &stats)
		if !pythonOnly(changed) {
			s.refreshConfigsOnly(touchedSet)
		}
	}
	// The repository diagnostics come with every view of the cache.
	repoView := s.cache.View([]string{})
	s.repo = repoView.RepositoryDiagnostics()
	if len(s.groups) == 0 {
		// Every group holds the findings of the repository-wide config
		// rules; with no entrypoint there is none, and they come with
		// the repository's.
		s.repo = append(s.repo, AnalyseWith(repoView, s.configsOnlyChecks())...)
	}
	if s.configs == nil || s.configsGen != s.generation {
		s.configs, s.configsGen = map[string]bool{}, s.generation
		for _, f := range repoView.Configs {
			s.configs[f.Path] = true
		}
	}
	if !sameDiags(oldRepo, s.repo) {
		for _, d := range oldRepo {
			touchedSet[d.Path] = true
		}
		for _, d := range s.repo {
			touchedSet[d.Path] = true
		}
	}
	s.done = true
	s.cache.DropPreparsed()
	if s.options.OneShot {
		s.cache.DropParsed()
	}
	return slices.Sorted(maps.Keys(touchedSet)), stats
}

// configsOnlyChecks are the session's ConfigsOnly checks.
func (s *Session) configsOnlyChecks() []gym.Check {
	var out []gym.Check
	for _, c := range s.checks {
		if c.ConfigsOnly {
			out = append(out, c)
		}
	}
	return out
}

func (s *Session) signatures() map[string]string {
	infos := s.cache.Entrypoints()
	out := make(map[string]string, len(infos))
	for _, e := range infos {
		out[e.Path] = signature(e)
	}
	return out
}

func (s *Session) update(changed []string, touched map[string]bool, stats *UpdateStats) {
	// Entrypoints that the configs or the listing added, changed or
	// removed: only when the entrypoint map was made again.
	moved := map[string]bool{}
	if gen := s.cache.Generation(); gen != s.generation {
		s.generation = gen
		infos := s.signatures()
		for ep, sig := range infos {
			if old, ok := s.infos[ep]; !ok || old != sig {
				moved[ep] = true
			}
		}
		for ep := range s.infos {
			if _, ok := infos[ep]; !ok {
				moved[ep] = true
				delete(s.family, ep)
			}
		}
		s.infos = infos
	}
	hit := map[*group]bool{}
	if s.options.OneShot {
		// A one-shot session has no index of dependencies (its one update
		// after a Restore need not build one to find a few groups).
		for _, g := range s.groups {
			if !hit[g] && dependsOn(g, changed) {
				hit[g] = true
			}
		}
	} else {
		for _, p := range changed {
			s.byDep[p].each(func(g *group) { hit[g] = true })
		}
	}
	for ep := range moved {
		if g := s.groups[ep]; g != nil {
			hit[g] = true
		}
	}
	if len(moved) == 0 {
		// The common case, an edit: analyse the groups again as they are,
		// and keep the result unless a family changed.
		if pythonOnly(changed) {
			s.keepConfigsOnly(hit)
		}
		var again []*group
		for g := range hit {
			again = append(again, &group{entrypoints: g.entrypoints})
		}
		s.analyse(again)
		same := true
		for _, g := range again {
			for _, ep := range g.entrypoints {
				if !slices.Equal(g.families[ep], s.family[ep]) {
					same = false
				}
			}
		}
		if same {
			for g := range hit {
				s.dropGroup(g, touched)
			}
			s.commit(again, touched)
			stats.Groups = len(again)
			for _, g := range again {
				stats.Analysed += len(g.entrypoints)
			}
			return
		}
	}
	// Groups change: every member of a hit group, and every moved
	// entrypoint, is placed again.
	affected := map[string]bool{}
	for g := range hit {
		s.dropGroup(g, touched)
		for _, ep := range g.entrypoints {
			if _, ok := s.infos[ep]; ok {
				affected[ep] = true
			}
		}
	}
	for ep := range moved {
		if _, ok := s.infos[ep]; ok {
			affected[ep] = true
		}
	}
	s.regroupAndAnalyse(affected, touched, stats)
}

// pythonOnly reports whether every changed path is a Python file: the
// configs, and so the findings of the ConfigsOnly checks, are as they were.
func pythonOnly(changed []string) bool {
	for _, p := range changed {
		if !strings.HasSuffix(p, ".py") {
			return false
		}
	}
	return len(changed) > 0
}

// keepConfigsOnly gives the views of the cache's configs the findings of
// the ConfigsOnly checks that a hit group's last analysis made (every
// group has them all), so that analysing the groups again does not
// compose every run. A group whose analysis had an internal error gives
// none: the check is run again.
func (s *Session) keepConfigsOnly(hit map[*group]bool) {
	var from *group
	for g := range hit {
		from = g
		break
	}
	if from == nil || slices.ContainsFunc(from.diags, func(d diag.Diagnostic) bool { return d.Code == core.InternalError.Code }) {
		return
	}
	for _, c := range s.checks {
		if !c.ConfigsOnly {
			continue
		}
		var ds []diag.Diagnostic
		for _, d := range from.diags {
			if d.Code == c.Rule.Code {
				ds = append(ds, d)
			}
		}
		s.cache.SetSharedByConfigs(configsOnlyKey{c.Rule.Code}, configsOnlyResult{ds: ds})
	}
}

// refreshConfigsOnly gives every group the findings of the ConfigsOnly
// checks as the configs are now. A change the groups do not depend on (a
// benchmark config that composes two servers' configs, deleted) can change
// them, and every group holds them all: the groups that the change did not
// hit would keep the old ones. The findings are those the analysed groups'
// views computed (View.SharedByConfigs), or are computed once here. A
// check that fails is left as the groups have it.
func (s *Session) refreshConfigsOnly(touched map[string]bool) {
	v := s.cache.View([]string{})
	fresh := map[string][]diag.Diagnostic{}
	for _, c := range s.checks {
		if !c.ConfigsOnly {
			continue
		}
		if ds, failed := runCheck(v, c); failed == nil {
			fresh[c.Rule.Code] = ds
		}
	}
	s.cache.Evict(v)
	done := map[*group]bool{}
	for _, ep := range slices.Sorted(maps.Keys(s.groups)) {
		g := s.groups[ep]
		if done[g] {
			continue
		}
		done[g] = true
		var kept, old []diag.Diagnostic
		for _, d := range g.diags {
			if _, ok := fresh[d.Code]; ok {
				old = append(old, d)
			} else {
				kept = append(kept, d)
			}
		}
		var now []diag.Diagnostic
		for _, c := range s.checks {
			now = append(now, fresh[c.Rule.Code]...)
		}
		if sameDiags(old, now) {
			continue
		}
		for _, d := range old {
			touched[d.Path] = true
		}
		g.diags = append(kept, now...)
		for p, set := range s.byPath {
			if set[g] && !slices.ContainsFunc(g.diags, func(d diag.Diagnostic) bool { return d.Path == p }) {
				delete(set, g)
				if len(set) == 0 {
					delete(s.byPath, p)
				}
			}
		}
		for _, d := range now {
			touched[d.Path] = true
			if s.byPath[d.Path] == nil {
				s.byPath[d.Path] = map[*group]bool{}
			}
			s.byPath[d.Path][g] = true
		}
	}
}

// regroupAndAnalyse computes the families of the affected entrypoints,
// makes the groups they fall in (dropping the groups those replace) and
// analyses them.
//
// Each affected entrypoint's family is computed in a view of its own. An
// entrypoint whose family has no class of another module is most likely
// a group of its own: it is analysed in that view at once, and the
// modules that only it read are evicted from the cache, so that a first
// analysis never holds every module of the repository. The others are
// analysed by groups once every family is known, the modules their
// families come from pinned until then (not their own, which are the
// bulk: those are parsed again). The result is the same as analysing every group in a view
// of its own: a singleton group is analysed in a view of its entrypoint
// alone, and an entrypoint analysed at once that turns out to share a
// class with others is analysed again with its group.
func (s *Session) regroupAndAnalyse(affected map[string]bool, touched map[string]bool, stats *UpdateStats) {
	if len(affected) == 0 {
		return
	}
	// Smallest first, as a view parses its entrypoints: under the scan's
	// parse budget a few huge files spend what is left of it, not the
	// ordinary servers.
	eps := slices.Sorted(maps.Keys(affected))
	sizes := make(map[string]int64, len(eps))
	for _, ep := range eps {
		sizes[ep] = s.cache.SizeOf(ep)
	}
	slices.SortStableFunc(eps, func(a, b string) int { return cmp.Compare(sizes[a], sizes[b]) })
	families := make([][]string, len(eps))
	early := make([]*group, len(eps))
	pins := make([][]string, len(eps))
	var waiting atomic.Int64 // source bytes of the waiting entrypoints pinned
	s.each(len(eps), func(i int) {
		v := s.cache.View(eps[i : i+1])
		for _, e := range v.Entrypoints {
			families[i] = v.Family(e)
		}
		// An entrypoint that another view read (an entrypoint whose
		// server derives from one of its classes, most likely) waits for
		// its group too.
		if ownOnly(eps[i], families[i]) && s.cache.Readers(eps[i]) <= 1 {
			g := &group{entrypoints: eps[i : i+1 : i+1]}
			s.progress.total.Add(1)
			s.fill(g, v)
			early[i] = g
			s.cache.Evict(v)
			s.progress.done.Add(1)
		} else {
			// The entrypoint's own module is pinned too while the
			// waiting ones take little room, else parsed again.
			size := 0
			for _, e := range v.Entrypoints {
				if e.Module != nil {
					size += e.Module.Size
				}
			}
			if waiting.Add(int64(size)) <= s.waiting {
				pins[i] = s.cache.PinAll(v)
			} else {
				waiting.Add(-int64(size))
				pins[i] = s.cache.Pin(v)
			}
		}
	})
	index := make(map[string]int, len(eps))
	for i, ep := range eps {
		s.family[ep] = families[i]
		index[ep] = i
	}
	groups := s.regroup(affected, touched)
	var later []*group
	for _, g := range groups {
		if len(g.entrypoints) == 1 {
			if i, ok := index[g.entrypoints[0]]; ok && early[i] != nil {
				*g = *early[i]
				continue
			}
		}
		for _, ep := range g.entrypoints {
			if i, ok := index[ep]; ok && pins[i] != nil {
				g.pins = append(g.pins, pins[i]...)
			}
		}
		later = append(later, g)
	}
	s.analyse(later)
	s.commit(groups, touched)
	stats.Groups += len(groups)
	for _, g := range groups {
		stats.Analysed += len(g.entrypoints)
	}
}

// maxWaitingSource bounds the source bytes of the entrypoints waiting for
// their group whose modules stay parsed (their models take some six times
// as much): beyond it, a waiting entrypoint is parsed again for its group.
// On a generated repository of 2,000 servers (bench/genrepo), 4 MB left 56
// of them parsed twice and 8 MB none, for 11 MB more peak memory (258 to
// 269 MB); NeMo Gym's waiting entrypoints take a few hundred kilobytes.
const maxWaitingSource = 8 << 20

// ownOnly reports whether every class of an entrypoint's family is
// defined in the entrypoint itself.
func ownOnly(ep string, family []string) bool {
	for _, cls := range family {
		if !strings.HasPrefix(cls, ep+"#") {
			return false
		}
	}
	return true
}

// commit makes analysed groups current.
func (s *Session) commit(groups []*group, touched map[string]bool) {
	for _, g := range groups {
		for _, m := range g.entrypoints {
			s.groups[m] = g
			if f, ok := g.families[m]; ok {
				s.family[m] = f
			}
		}
		if !s.options.OneShot {
			s.indexDeps(g)
		}
		for _, d := range g.diags {
			touched[d.Path] = true
			if s.byPath[d.Path] == nil {
				s.byPath[d.Path] = map[*group]bool{}
			}
			s.byPath[d.Path][g] = true
		}
	}
}

// indexDeps enters a group's dependencies in byDep. A one-shot session
// has no index.
func (s *Session) indexDeps(g *group) {
	// Each view made its own strings of its dependencies' paths: the group
	// keeps the session's, which every group shares.
	for i, p := range g.deps {
		set := s.byDep[p]
		if set == nil {
			set = &groupSet{name: p}
			s.byDep[p] = set
		}
		g.deps[i] = set.name
		set.add(g)
	}
}

// dependsOn reports whether the group depends on one of the paths.
func dependsOn(g *group, paths []string) bool {
	if g.deps == nil { // a session that records none (NoDependencies)
		return len(paths) > 0
	}
	for _, p := range paths {
		if _, ok := slices.BinarySearch(g.deps, p); ok {
			return true
		}
	}
	return false
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
	for _, p := range g.deps {
		if set := s.byDep[p]; set != nil {
			if set.remove(g) {
				delete(s.byDep, p)
			}
		}
	}
	for _, d := range g.diags {
		touched[d.Path] = true
		if set := s.byPath[d.Path]; set != nil {
			delete(set, g)
			if len(set) == 0 {
				delete(s.byPath, d.Path)
			}
		}
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
	find := func(x string) string {
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
	for _, ep := range slices.Sorted(maps.Keys(s.infos)) {
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
	for _, ep := range slices.Sorted(maps.Keys(affected)) {
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

// analyse runs the rules on each group in a focused view of its own,
// several groups at once, and notes its members' families. The modules
// that only a group's view read are evicted from the cache once it is
// done.
func (s *Session) analyse(groups []*group) {
	for _, g := range groups {
		s.progress.total.Add(int64(len(g.entrypoints)))
	}
	s.each(len(groups), func(i int) {
		g := groups[i]
		v := s.cache.View(g.entrypoints)
		s.fill(g, v)
		s.cache.Unpin(g.pins)
		g.pins = nil
		s.cache.Evict(v)
		s.progress.done.Add(int64(len(g.entrypoints)))
	})
}

// fill analyses a group in its view.
func (s *Session) fill(g *group, v *gym.View) {
	g.diags = AnalyseWith(v, s.checks)
	g.deps = v.Dependencies()
	g.families = map[string][]string{}
	for _, e := range v.Entrypoints {
		g.families[e.Path] = v.Family(e)
	}
}

// each runs fn(i) for i in [0, n) on the session's jobs.
func (s *Session) each(n int, fn func(i int)) {
	workers.Each(n, s.jobs, func(_, i int) { fn(i) })
}

// Diagnostics returns every diagnostic of the repository, each once,
// sorted.
func (s *Session) Diagnostics() []diag.Diagnostic {
	var groups []*group
	done := map[*group]bool{}
	for _, ep := range slices.Sorted(maps.Keys(s.infos)) {
		if g := s.groups[ep]; g != nil && !done[g] {
			done[g] = true
			groups = append(groups, g)
		}
	}
	return collect(s.repo, groups, func(string) bool { return true })
}

// DiagnosticsOf returns the diagnostics of the file at path, each once,
// sorted.
func (s *Session) DiagnosticsOf(path string) []diag.Diagnostic {
	var groups []*group
	for g := range s.byPath[path] {
		groups = append(groups, g)
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].entrypoints[0] < groups[j].entrypoints[0] })
	return collect(s.repo, groups, func(p string) bool { return p == path })
}

// Paths returns, sorted, every path that has diagnostics.
func (s *Session) Paths() []string {
	set := map[string]bool{}
	for p := range s.byPath {
		set[p] = true
	}
	for _, d := range s.repo {
		set[d.Path] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// Scanned reports whether gymlint checks the file's suppressions for use,
// as a scan does: every entrypoint and every config.
func (s *Session) Scanned(path string) bool {
	_, ep := s.infos[path]
	return ep || s.configs[path]
}

func collect(repo []diag.Diagnostic, groups []*group, want func(string) bool) []diag.Diagnostic {
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
	for _, d := range repo {
		add(d)
	}
	for _, g := range groups {
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

// DependenciesOf returns, sorted, the dependencies of the group that the
// entrypoint belongs to (nil for an unknown entrypoint).
func (s *Session) DependenciesOf(entrypoint string) []string {
	g := s.groups[entrypoint]
	if g == nil {
		return nil
	}
	return slices.Clone(g.deps)
}

// GroupOf returns the entrypoints analysed together with the given one.
func (s *Session) GroupOf(entrypoint string) []string {
	if g := s.groups[entrypoint]; g != nil {
		return append([]string(nil), g.entrypoints...)
	}
	return nil
}

// groupSet is the set of groups that have a dependency: most
// dependencies (paths that import resolution looked for) are one group's,
// and a few small slices cost less than a map each.
type groupSet struct {
	name string // the dependency's path, shared by the groups' deps
	few  []*group
	many map[*group]bool // instead of few, past maxFew groups
}

const maxFew = 8

func (s *groupSet) add(g *group) {
	if s.many != nil {
		s.many[g] = true
		return
	}
	if slices.Contains(s.few, g) {
		return
	}
	if len(s.few) < maxFew {
		s.few = append(s.few, g)
		return
	}
	s.many = make(map[*group]bool, 2*maxFew)
	for _, x := range s.few {
		s.many[x] = true
	}
	s.many[g] = true
	s.few = nil
}

// remove reports whether the set is empty after.
func (s *groupSet) remove(g *group) bool {
	if s.many != nil {
		delete(s.many, g)
		return len(s.many) == 0
	}
	if i := slices.Index(s.few, g); i >= 0 {
		s.few = slices.Delete(s.few, i, i+1)
	}
	return len(s.few) == 0
}

func (s *groupSet) each(fn func(*group)) {
	if s == nil {
		return
	}
	for _, g := range s.few {
		fn(g)
	}
	for g := range s.many {
		fn(g)
	}
}
