package gym

import (
	"bytes"
	"path"
	"strings"
	"sync"

	"github.com/gymlint/gymlint/pyscan"
)

// A rule that looks through an import closure for one name (a class that
// declares reward_components) needs the closure's modules parsed only when
// one of them can hold the name. ClosureMayHold answers that from bytes,
// before anything is parsed, as semgrep skips the files that lack a rule's
// required text: it follows what the modules' text could import, a
// superset of what ImportClosure follows, and looks for the name's bytes
// in what it reaches.
//
// What a module can import is found from its words (the runs of bytes that
// can make an identifier: ASCII letters, digits, "_" and every byte of a
// multi-byte character). Each module that View.ImportFiles gives for one
// of m's import statements is, for some base directory B, the file
// B/c1/.../ck.py or B/c1/.../ck/__init__.py, where each ci is a word of
// m's text (import statements name each package on the way, whatever the
// spaces, line continuations and parentheses around the dots), and B is
// m's own folder or a search base (View.ModuleFile's order: the extra
// roots, the root), with k >= 1, or, for a relative import, a folder that m
// lies in, below the top of its root, with k >= 0 (`from .. import x`
// loads that folder's __init__.py). The search takes every such file that
// exists, not only the first that ModuleFile would take, in module-scope
// and function-scope imports alike, in comments and strings alike: it can
// only find more than ImportClosure does. Framework modules are left out
// and not followed, as ImportClosure leaves them.
//
// The files are read (through the view, so the cache stamps them) and the
// directories listed (each a dependency too, as "dir/": the warm cache
// looks again when a file appears in one), never parsed, one at a time.
// The search stops past maxMayHoldFiles files, maxMayHoldBytes bytes read,
// maxMayHoldDirs directories or maxMayHoldDepth directories down from a
// base, and at a file it cannot read (which ImportClosure would report):
// ok is then false, and the caller computes the closure, whose parses the
// view's parse budget bounds.

// The bounds of ClosureMayHold's search.
const (
	maxMayHoldFiles = 20000
	maxMayHoldBytes = 256 << 20
	maxMayHoldDirs  = 20000
	maxMayHoldDepth = 32
)

// ClosureMayHold returns the files, among those that ImportClosure(roots...)
// may reach (the roots included), whose text holds needle: a superset of
// the closure's modules that hold it, found without parsing (see above).
// ok is false when the search could not answer.
func (v *View) ClosureMayHold(roots []*pyscan.Module, needle string) (files []string, ok bool) {
	s := &mayHold{v: v, seen: map[string]bool{}, listed: map[string][]string{}}
	for _, r := range roots {
		if r != nil && !v.IsFrameworkModule(r.Name) {
			s.add(r.Path)
		}
	}
	want := []byte(needle)
	var ws wordSet
	read := 0
	for i := 0; i < len(s.queue); i++ {
		if len(s.queue) > maxMayHoldFiles || len(s.listed) > maxMayHoldDirs {
			return nil, false
		}
		p := s.queue[i]
		v.touch(p)
		data, err := v.cache.Source(p)
		if read += len(data); err != nil || read > maxMayHoldBytes {
			return nil, false
		}
		if bytes.Contains(data, want) {
			files = append(files, p)
		}
		ws.of(data)
		if !s.follow(p, &ws) {
			return nil, false
		}
	}
	return files, true
}

// MayReach is what ClosureMayHoldWords finds.
type MayReach struct {
	// Holding are the files other than the roots whose words may include
	// one of the words asked for (a superset: see wordSet).
	Holding []string
	// Reached are all the files the search reached, the roots first: a
	// superset of the modules that ImportClosure(roots...) reaches.
	Reached []string
	// Back is set when a file that is not a root may import a root.
	Back bool
}

// ClosureMayHoldWords is View.ClosureMayHold for whole words (runs of
// identifier bytes, see wordSet), asked of the modules beyond the roots: a
// rule that asks what they may bind or import (`import ray`, a name of
// the framework's package) asks for the words, not for bytes that "array"
// holds too. It also says which files the search reached and whether one
// of them, not a root, may import a root (so that what the roots hold may
// reach it).
//
// A root's words are not taken: its module is parsed, and the files its
// module-scope imports load are followed, as Closure follows them (and
// with the graph's memory of them); a root with a syntax error is
// followed by its words. So the search covers Closure(roots...), not what
// a root's functions import. What the search finds of each other file
// (the files it may import, whether it holds a word) is kept for the
// view's later searches with the same words, so that servers that share
// helpers read and hash each once.
func (g *ImportGraph) ClosureMayHoldWords(roots []*pyscan.Module, words []string) (r MayReach, ok bool) {
	v := g.v
	key := strings.Join(words, "\x00")
	isRoot := map[string]bool{}
	seen := map[string]bool{}
	var queue []string
	mods := map[string]*pyscan.Module{}
	for _, m := range roots {
		if m != nil && !v.IsFrameworkModule(m.Name) && !seen[m.Path] {
			isRoot[m.Path], seen[m.Path] = true, true
			queue = append(queue, m.Path)
			mods[m.Path] = m
		}
	}
	read := 0
	for i := 0; i < len(queue); i++ {
		if len(queue) > maxMayHoldFiles {
			return MayReach{}, false
		}
		p := queue[i]
		var edges []string
		if m := mods[p]; m != nil && m.SyntaxError == nil {
			for _, e := range g.edgesOf(m) {
				edges = append(edges, e.files...)
			}
		} else {
			f := v.mayFileOf(p, key, words)
			if read += f.size; !f.ok || read > maxMayHoldBytes {
				return MayReach{}, false
			}
			if f.holds && !isRoot[p] {
				r.Holding = append(r.Holding, p)
			}
			edges = f.edges
		}
		for _, e := range edges {
			if isRoot[e] && !isRoot[p] {
				r.Back = true
			}
			if !seen[e] {
				seen[e] = true
				queue = append(queue, e)
			}
		}
	}
	r.Reached = queue
	return r, true
}

// mayFile is what ClosureMayHoldWords finds of one file.
type mayFile struct {
	once  sync.Once
	edges []string // the files its text may import (mayHold.follow)
	holds bool     // its words may include one of the words
	size  int
	ok    bool // it was read, and the search stayed within its bounds
}

// mayFileOf returns what the file at p gives ClosureMayHoldWords for
// words (whose key is key), computing it once per view.
func (v *View) mayFileOf(p, key string, words []string) *mayFile {
	e, _ := v.mayFiles.LoadOrStore(p+"\x00"+key, &mayFile{})
	f := e.(*mayFile)
	f.once.Do(func() {
		v.touch(p)
		data, err := v.cache.Source(p)
		f.size = len(data)
		if err != nil {
			return
		}
		var ws wordSet
		ws.of(data)
		for _, w := range words {
			f.holds = f.holds || ws.has(w)
		}
		s := &mayHold{v: v, seen: map[string]bool{}, listed: map[string][]string{}}
		if !s.follow(p, &ws) {
			return
		}
		f.edges, f.ok = s.queue, true
	})
	return f
}

// mayHold is the state of one ClosureMayHold search.
type mayHold struct {
	v      *View
	queue  []string
	seen   map[string]bool
	listed map[string][]string
}

func (s *mayHold) add(p string) {
	if s.seen[p] {
		return
	}
	s.seen[p] = true
	if name, _ := pyscan.ModuleName(p); s.v.IsFrameworkModule(name) {
		return
	}
	s.queue = append(s.queue, p)
}

// list returns the names in dir (repofs.FS.Names, which reads a
// directory once for every view), recording the directory as a
// dependency the first time.
func (s *mayHold) list(dir string) []string {
	if l, ok := s.listed[dir]; ok {
		return l
	}
	s.v.touch(dir + "/")
	l := s.v.FS.Names(dir)
	s.listed[dir] = l
	return l
}

// file adds p when it is a file (FS.IsFile, remembered by the FS).
func (s *mayHold) file(p string) {
	if !s.seen[p] && s.v.FS.IsFile(p) {
		s.add(p)
	}
}

// follow adds the files that the module at p, whose words are ws, may
// import; false when the search went past its bounds.
func (s *mayHold) follow(p string, ws *wordSet) bool {
	dir := path.Dir(p)
	top := s.v.cache.baseOf(p).prefix
	bases := []string{dir}
	for _, b := range s.v.cache.importBases() {
		if b != dir {
			bases = append(bases, b)
		}
	}
	for _, b := range bases {
		if !s.below(b, ws, 0) {
			return false
		}
	}
	// Relative imports: the folders p lies in, below the top of its root,
	// and their __init__.py.
	for d := dir; d != top && d != "." && !strings.HasPrefix(d, "../"); d = path.Dir(d) {
		s.list(d)
		s.file(d + "/__init__.py")
		if d != dir && !s.below(d, ws, 0) {
			return false
		}
	}
	return len(s.listed) <= maxMayHoldDirs
}

// below adds the modules under directory d named by a chain of words:
// d/w.py, d/w/__init__.py and, further down, d/w/....
func (s *mayHold) below(d string, ws *wordSet, depth int) bool {
	if depth > maxMayHoldDepth || len(s.listed) > maxMayHoldDirs {
		return len(s.listed) <= maxMayHoldDirs && depth <= maxMayHoldDepth
	}
	for _, n := range s.list(d) {
		stem, isPy := strings.CutSuffix(n, ".py")
		isPy = isPy && ws.has(stem)
		pkg := ws.has(n)
		if !isPy && !pkg {
			continue // most names: not a word of the module, and no path made
		}
		sub := n
		if d != "." {
			sub = d + "/" + n
		}
		if isPy {
			s.file(sub)
		}
		if !pkg {
			continue
		}
		// A package (or a link that may be one, or a namespace
		// package): its __init__.py, and what is named below it.
		s.file(sub + "/__init__.py")
		if !s.below(sub, ws, depth+1) {
			return false
		}
	}
	return true
}

// wordSet holds the words of a text (the runs of identifier bytes: ASCII
// letters, digits and "_", and every byte of a multi-byte UTF-8
// character) in a Bloom filter: each word's 64-bit FNV-1a hash sets two
// bits of a bit array of four bits a byte of the text (at least 4,096),
// reused from one text to the next, so that taking a file's words
// allocates nothing and inserts no entry in a map. A word that is not in
// the text may test present (a hash collision, or both its bits set by
// others: with a word every six bytes or so, about one in 400), which
// only widens the search, as a collision did in the map it replaces; a
// word of the text always tests present.
type wordSet struct {
	bits []uint64
	mask uint64 // the number of bits less one (a power of two)
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
	// minWordBits is the smallest bit array.
	minWordBits = 1 << 12
)

// of makes ws the words of data.
func (ws *wordSet) of(data []byte) {
	n := uint64(minWordBits)
	for n < 4*uint64(len(data)) {
		n <<= 1
	}
	if w := int(n / 64); cap(ws.bits) < w {
		ws.bits = make([]uint64, w)
	} else {
		ws.bits = ws.bits[:w]
		clear(ws.bits)
	}
	ws.mask = n - 1
	h, in := uint64(fnvOffset), false
	for _, c := range data {
		if wordBytes[c] {
			h = (h ^ uint64(c)) * fnvPrime
			in = true
			continue
		}
		if in {
			ws.add(h)
			h, in = fnvOffset, false
		}
	}
	if in {
		ws.add(h)
	}
}

// add sets the two bits of the word whose hash is h: from its low and
// its high 32 bits.
func (ws *wordSet) add(h uint64) {
	a, b := h&ws.mask, (h>>32)&ws.mask
	ws.bits[a>>6] |= 1 << (a & 63)
	ws.bits[b>>6] |= 1 << (b & 63)
}

// has reports whether w may be one of the words.
func (ws *wordSet) has(w string) bool {
	if w == "" || len(ws.bits) == 0 {
		return false
	}
	h := uint64(fnvOffset)
	for i := 0; i < len(w); i++ {
		h = (h ^ uint64(w[i])) * fnvPrime
	}
	a, b := h&ws.mask, (h>>32)&ws.mask
	return ws.bits[a>>6]&(1<<(a&63)) != 0 && ws.bits[b>>6]&(1<<(b&63)) != 0
}

// wordBytes says which bytes make words (see wordSet).
var wordBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c == '_' || c >= 0x80 || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	return t
}()
