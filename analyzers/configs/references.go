package configs

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// UnresolvedServerReference is rule GL408.
var UnresolvedServerReference = &diag.Rule{
	Code: "GL408", Name: "unresolved-server-reference", Analyzer: "configs", Severity: diag.Error,
	Summary: "A server reference ({type, name}) names an instance of another type in its composed config, or one that no config defines.",
	Doc:     ruleDoc("GL408"),
}

// ServerRef is a server reference of an instance's settings: a top-level
// key whose value is a mapping {type: T, name: N} that the framework's
// reference models accept, with T a reference type and N a string known
// before the run (no ${...}, not "???").
type ServerRef struct {
	Field string
	Type  string
	Name  string
	// Value is the name's node, where the reference is reported.
	Value *configscan.Node
}

// ServerRefs is GL408's reading of a server directory's settings mapping:
// its server references, in key order. A mapping of that shape whose type
// is not one of refTypes, or whose name is not a string (pydantic's str
// takes no number), is no reference; its other keys are allowed (the
// models ignore extra keys).
func ServerRefs(settings *configscan.Node, refTypes []string) []ServerRef {
	if settings == nil || settings.Kind != configscan.MappingNode {
		return nil
	}
	var out []ServerRef
	for _, p := range settings.Pairs {
		m := p.Value
		if m == nil || m.Kind != configscan.MappingNode {
			continue
		}
		t, n := m.Get(contract.RefTypeField), m.Get(contract.RefNameField)
		if !knownString(t) || !knownString(n) || !slices.Contains(refTypes, t.Value) {
			continue
		}
		out = append(out, ServerRef{Field: p.Key, Type: t.Value, Name: n.Value, Value: n})
	}
	return out
}

// knownString reports whether n is a string whose value is known at lint
// time: not an interpolation, not OmegaConf's "???".
func knownString(n *configscan.Node) bool {
	return n != nil && n.Kind == configscan.ScalarNode && n.Tag == "!!str" && !isInterpolation(n)
}

// site is where an instance is defined: its name key in a file.
type site struct {
	typ  string
	file string
	pos  configscan.Pos
}

// runDefines returns the instances of a run by name, where their keys are
// written.
func runDefines(r *configscan.Run) map[string][]site {
	out := map[string][]site{}
	for i := range r.Servers {
		in := &r.Servers[i]
		file := r.File
		if p := r.Root.GetPair(in.Name); p != nil && p.KeyOrigin != nil {
			file = p.KeyOrigin.File
		}
		out[in.Name] = append(out[in.Name], site{in.Type, file, in.NamePos})
	}
	return out
}

// repoDefines returns every instance (server or override) that a config
// file or a composed run of the repository defines, by type and name: the
// first place each is written.
func repoDefines(v *gym.View, runs []*configscan.Run) map[[2]string]site {
	out := map[[2]string]site{}
	add := func(typ, name, file string, pos configscan.Pos) {
		k := [2]string{typ, name}
		if _, ok := out[k]; !ok {
			out[k] = site{typ, file, pos}
		}
	}
	for _, f := range v.Configs {
		for _, list := range [][]configscan.Instance{f.Servers, f.Overrides} {
			for _, in := range list {
				add(in.Type, in.Name, f.Path, in.NamePos)
			}
		}
	}
	for _, r := range runs {
		if r.Root == nil {
			continue
		}
		for name, sites := range runDefines(r) {
			for _, s := range sites {
				add(s.typ, name, s.file, s.pos)
			}
		}
	}
	return out
}

// RefTypes are the server types a reference of v's configs can name: the
// framework's reference types (Framework.ServerRefTypes) that the scan
// takes for server types. A type the scan does not take for a server type
// has no instances to resolve to: its references are not judged.
func RefTypes(v *gym.View) []string {
	serverTypes := v.Options.ServerTypes
	if serverTypes == nil {
		serverTypes = configscan.DefaultServerTypes
	}
	var refTypes []string
	for _, t := range v.Options.Framework.ServerRefTypes() {
		if slices.Contains(serverTypes, t) {
			refTypes = append(refTypes, t)
		}
	}
	return refTypes
}

// runUnresolvedServerReference judges every run, not only those of the
// view's entrypoints (a ConfigsOnly check).
func runUnresolvedServerReference(v *gym.View) []diag.Diagnostic {
	refTypes := RefTypes(v)
	runs := v.Runs()
	var repo map[[2]string]site // made when a reference is not in its run
	type key struct {
		file   string
		offset int
	}
	seen := map[key]bool{}
	var out []diag.Diagnostic
	for _, r := range runs {
		if r.Fatal || r.Root == nil {
			continue
		}
		defs := runDefines(r)
		for i := range r.Servers {
			for _, ref := range ServerRefs(r.Servers[i].Settings, refTypes) {
				sites := defs[ref.Name]
				if slices.ContainsFunc(sites, func(s site) bool { return s.typ == ref.Type }) {
					continue
				}
				if len(sites) == 0 {
					if repo == nil {
						repo = repoDefines(v, runs)
					}
					if _, ok := repo[[2]string{ref.Type, ref.Name}]; ok {
						continue // given with this config, as a model config is
					}
					if ref.Type == modelServerType {
						// A deployment brings its model server's config,
						// often from outside the repository ("compose with a
						// model-server configuration named policy"): a name
						// no config here defines is not decided.
						continue
					}
				}
				file := r.File
				if ref.Value.Origin != nil {
					file = ref.Value.Origin.File
				}
				k := key{file, ref.Value.Pos.Offset}
				if seen[k] {
					continue
				}
				seen[k] = true
				if repo == nil {
					repo = repoDefines(v, runs)
				}
				out = append(out, refDiag(r, file, ref, sites, defs, repo))
			}
		}
	}
	return out
}

// refDiag is the diagnostic of a reference of run r, written in file,
// that r defines with another type (sites) or not at all.
func refDiag(r *configscan.Run, file string, ref ServerRef, sites []site, defs map[string][]site, repo map[[2]string]site) diag.Diagnostic {
	where := "in this config"
	if file != r.File {
		where = "when Gym composes " + r.File
	}
	// The instances of the reference's type in the run, sorted.
	var available []string
	for name, ss := range defs {
		if slices.ContainsFunc(ss, func(s site) bool { return s.typ == ref.Type }) {
			available = append(available, name)
		}
	}
	sort.Strings(available)
	listed := "defines none"
	if len(available) > 0 {
		listed = "defines " + quotedList(available)
	}
	var msg, help string
	var related []diag.Related
	if len(sites) > 0 {
		s := sites[0]
		msg = fmt.Sprintf("%s references %s/'%s', but %s is a %s instance %s: Gym stops at startup with ServerRefNotFoundError",
			shown(ref.Field), ref.Type, shown(ref.Name), shown(ref.Name), s.typ, where)
		help = fmt.Sprintf("name a %s instance (the composed config %s); %s can only be referenced with type: %s", ref.Type, listed, shown(ref.Name), s.typ)
		related = append(related, diag.Related{Path: s.file, Start: dpos(s.pos), End: dpos(s.pos),
			Message: fmt.Sprintf("%s is a %s instance here", shown(ref.Name), s.typ)})
	} else {
		msg = fmt.Sprintf("%s references %s/'%s', which no config of the repository defines: Gym stops at startup with ServerRefNotFoundError",
			shown(ref.Field), ref.Type, shown(ref.Name))
		// The names it may stand for: the run's, then the repository's.
		candidates := slices.Clone(available)
		for k := range repo {
			if k[0] == ref.Type && !slices.Contains(candidates, k[1]) {
				candidates = append(candidates, k[1])
			}
		}
		sort.Strings(candidates)
		if close := closeMatches(ref.Name, candidates, 3, 0.6); len(close) > 0 {
			help = "did you mean " + quotedList(close) + "?"
			s, ok := firstSite(defs[close[0]], ref.Type)
			if !ok {
				s = repo[[2]string{ref.Type, close[0]}]
			}
			related = append(related, diag.Related{Path: s.file, Start: dpos(s.pos), End: dpos(s.pos),
				Message: fmt.Sprintf("%s instance %s is defined here", ref.Type, shown(close[0]))})
		} else {
			help = fmt.Sprintf("name a %s instance that a config defines (the composed config %s)", ref.Type, listed)
		}
	}
	d := UnresolvedServerReference.New(file, dpos(ref.Value.Pos), dpos(ref.Value.End), msg)
	d.Help = help
	d.Related = append(related, gym.IncludeChain(r.OriginOf(file))...)
	return d
}

func firstSite(ss []site, typ string) (site, bool) {
	for _, s := range ss {
		if s.typ == typ {
			return s, true
		}
	}
	return site{}, false
}

// quotedList writes names as 'a', 'b', 'c' (the first ten, then how many
// more).
func quotedList(names []string) string {
	const max = 10
	var parts []string
	for i, n := range names {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(names)-max))
			break
		}
		parts = append(parts, "'"+shown(n)+"'")
	}
	return strings.Join(parts, ", ")
}

// closeMatches is Python's difflib.get_close_matches(word, possibilities,
// n, cutoff), which Gym's error uses for its "Did you mean": the
// possibilities whose SequenceMatcher ratio with word is at least cutoff,
// best first (ties: the greater string first, as its heap orders them), at
// most n.
func closeMatches(word string, possibilities []string, n int, cutoff float64) []string {
	type scored struct {
		score float64
		s     string
	}
	var hits []scored
	w := []rune(word)
	for _, p := range possibilities {
		if r := ratio([]rune(p), w); r >= cutoff {
			hits = append(hits, scored{r, p})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return hits[i].s > hits[j].s
	})
	var out []string
	for i := 0; i < len(hits) && i < n; i++ {
		out = append(out, hits[i].s)
	}
	return out
}

// ratio is difflib.SequenceMatcher(None, a, b).ratio(): 2*M/T, where M
// counts the elements of the matching blocks that the longest-match
// recursion finds and T is len(a)+len(b). Like difflib, an element of b
// that occurs more than 1+len(b)/100 times in a b of 200 or more elements
// is popular: no match starts on it, though matches extend over it.
func ratio(a, b []rune) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	b2j := map[rune][]int{}
	for j, c := range b {
		b2j[c] = append(b2j[c], j)
	}
	if len(b) >= 200 {
		for c, js := range b2j {
			if len(js) > 1+len(b)/100 {
				delete(b2j, c)
			}
		}
	}
	longest := func(alo, ahi, blo, bhi int) (int, int, int) {
		besti, bestj, bestsize := alo, blo, 0
		j2len := map[int]int{}
		for i := alo; i < ahi; i++ {
			next := map[int]int{}
			for _, j := range b2j[a[i]] {
				if j < blo {
					continue
				}
				if j >= bhi {
					break
				}
				k := j2len[j-1] + 1
				next[j] = k
				if k > bestsize {
					besti, bestj, bestsize = i-k+1, j-k+1, k
				}
			}
			j2len = next
		}
		for besti > alo && bestj > blo && a[besti-1] == b[bestj-1] {
			besti, bestj, bestsize = besti-1, bestj-1, bestsize+1
		}
		for besti+bestsize < ahi && bestj+bestsize < bhi && a[besti+bestsize] == b[bestj+bestsize] {
			bestsize++
		}
		return besti, bestj, bestsize
	}
	matched := 0
	queue := [][4]int{{0, len(a), 0, len(b)}}
	for len(queue) > 0 {
		q := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		i, j, k := longest(q[0], q[1], q[2], q[3])
		if k == 0 {
			continue
		}
		matched += k
		if q[0] < i && q[2] < j {
			queue = append(queue, [4]int{q[0], i, q[2], j})
		}
		if i+k < q[1] && j+k < q[3] {
			queue = append(queue, [4]int{i + k, q[1], j + k, q[3]})
		}
	}
	return 2 * float64(matched) / float64(len(a)+len(b))
}
