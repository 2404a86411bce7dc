// Package fixes chooses the suggested fixes to apply to a repository and
// applies them (gymlint --fix), or writes them as a unified diff (gymlint
// --diff), for Python and Go findings alike.
//
// # Fixes apply to the content they were computed for
//
// A fix's edits are byte offsets into the content the analysis read. A
// file edited since (an editor saving, a formatter) must not receive
// them: offsets into another text corrupt it. So a plan knows, for each
// file, the SHA-256 of the content the analysis read (Options.Analysed),
// and a file whose content on disk is not that one is left as it is and
// said to be (Plan.Stale): its fixes are neither applied nor shown. At
// write time, the file is read and compared again, the new content is
// written to a temporary file in the same directory with the file's
// permissions, the file is compared once more, and the temporary file is
// renamed over it: a reader never sees half a file, and a write to the
// file before that last comparison leaves it as it is. (A write between
// that comparison and the rename, a few microseconds, can still be lost:
// nothing short of a lock that every editor honours would close it.)
package fixes

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/output"
)

// A Plan is what --fix applies and --diff shows: for each diagnostic with
// suggested fixes (Python or Go), its first safe fix, unless the fix is
// invalid or overlaps a fix taken before it (diagnostics are taken in
// their sorted order). A fix is taken whole or not at all.
type Plan struct {
	set     Set
	files   map[string]*fileFix // by root-relative slash path
	taken   int                 // fixes in the plan
	skipped []string            // why each other fix was left out
	opts    Options
	// fixFiles are, for each fix in the plan, the files it edits, and
	// fixDiag the index of its diagnostic.
	fixFiles [][]string
	fixDiag  []int
}

// Sum is the SHA-256 of a file's content.
type Sum = [sha256.Size]byte

// Options are how NewPlanFrom chooses and checks the fixes.
type Options struct {
	// Unsafe takes, for a diagnostic without a safe fix, its first unsafe
	// one (gymlint --unsafe-fixes).
	Unsafe bool
	// Analysed returns the SHA-256 of the content of a root-relative file
	// that the analysis read, the content the fixes' offsets are into; ok
	// false when it cannot say (the analysis did not read the file, or
	// read different contents of it at different times). A file whose
	// content on disk is not the one analysed, or for which Analysed
	// cannot say, is stale: none of its fixes is applied or shown. nil
	// takes the content the plan reads as the one analysed (the checks at
	// write time still hold).
	Analysed func(path string) (sum Sum, ok bool)
	// Leave are the diagnostics (by index into the plan's diagnostics)
	// whose fix is left out, with why (PlanVerified leaves out the fixes
	// that would create findings).
	Leave map[int]string
}

// fileFix is the new content of one file.
type fileFix struct {
	path  string // root-relative, slash-separated
	full  string // on disk
	mode  os.FileMode
	old   []byte
	sum   Sum             // of old
	edits []diag.TextEdit // non-overlapping, sorted by offset
	codes []string        // the codes of the fixes that edit the file
	fixes int             // the fixes in the plan that edit the file
	// stale says why the file is not the content the fixes were computed
	// for ("" when it is); staleFixes counts the fixes left out for it.
	stale      string
	staleFixes int
}

// errStale is take's error for a fix that edits a stale file: the file is
// reported once, not each of its fixes.
var errStale = fmt.Errorf("it edits a file changed since the analysis")

// NewPlan chooses the safe fixes of ds to apply to the repository at root
// (NewPlanWith without unsafe fixes).
func NewPlan(root string, ds []diag.Diagnostic) *Plan { return NewPlanWith(root, ds, false) }

// NewPlanWith is NewPlanFrom with Options{Unsafe: unsafe}: the content
// the plan reads is taken as the one analysed.
func NewPlanWith(root string, ds []diag.Diagnostic, unsafe bool) *Plan {
	return NewPlanFrom(root, ds, Options{Unsafe: unsafe})
}

// NewPlanFrom chooses the fixes of ds to apply to the repository at root:
// each diagnostic's first safe fix, or, with opts.Unsafe (gymlint
// --unsafe-fixes) when it has none, its first unsafe one (a stub to
// complete, a change of behaviour: for a person to read before it lands).
// It reads each file a fix edits from the disk, refusing a path outside the
// root (also through a symbolic link) and anything but a regular file, and
// leaves out the fixes of a file whose content is not the one analysed
// (opts.Analysed; see Stale).
func NewPlanFrom(root string, ds []diag.Diagnostic, opts Options) *Plan {
	p := &Plan{files: map[string]*fileFix{}, opts: opts}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	for i, d := range ds {
		fix, ok := Chosen(d, opts.Unsafe)
		if !ok {
			continue
		}
		where := fmt.Sprintf("%s:%d:%d: %s", d.Path, d.Start.Line, d.Start.Col, d.Code)
		if why, ok := opts.Leave[i]; ok {
			p.skipped = append(p.skipped, fmt.Sprintf("%s: fix %q not applied: %s", where, fix.Message, why))
			continue
		}
		if err := p.take(root, realRoot, d.Code, fix); err == errStale {
			continue
		} else if err != nil {
			p.skipped = append(p.skipped, fmt.Sprintf("%s: fix %q not applied: %v", where, fix.Message, err))
			continue
		}
		p.taken++
		p.fixDiag = append(p.fixDiag, i)
	}
	return p
}

// Contents are the new contents of the files the plan changes, by
// root-relative path: what the repository holds once it is applied.
func (p *Plan) Contents() map[string][]byte {
	out := map[string][]byte{}
	for _, f := range p.sortedFiles() {
		out[f.path] = f.content()
	}
	return out
}

// Fixes lists the fixes of the plan: the index of each one's diagnostic,
// and the files it edits.
func (p *Plan) Fixes() (diags []int, files [][]string) {
	return slices.Clone(p.fixDiag), slices.Clone(p.fixFiles)
}

// Chosen is the fix --fix applies for a finding: its first safe fix, else,
// with unsafe, its first fix.
func Chosen(d diag.Diagnostic, unsafe bool) (diag.Fix, bool) {
	i := slices.IndexFunc(d.Fixes, diag.Fix.IsSafe)
	if i < 0 && unsafe && len(d.Fixes) > 0 {
		i = 0
	}
	if i < 0 {
		return diag.Fix{}, false
	}
	return d.Fixes[i], true
}

// inside says why edit e does not fit a file of size bytes, or nil.
func inside(e diag.TextEdit, size int) error {
	if e.Start.Offset < 0 || e.Start.Offset > e.End.Offset || e.End.Offset > size {
		return fmt.Errorf("edit [%d, %d) is outside %s (%d bytes)", e.Start.Offset, e.End.Offset, e.Path, size)
	}
	return nil
}

// take adds fix to the plan, or says why it cannot.
func (p *Plan) take(root, realRoot, code string, fix diag.Fix) error {
	if len(fix.Edits) == 0 {
		return fmt.Errorf("it has no edits")
	}
	// Check every edit before taking any.
	byFile := map[string][]diag.TextEdit{}
	var stale []*fileFix
	for _, e := range fix.Edits {
		f, err := p.file(root, realRoot, e.Path)
		if err != nil {
			return err
		}
		if f.stale != "" {
			if !slices.Contains(stale, f) {
				stale = append(stale, f)
			}
			continue
		}
		if err := inside(e, len(f.old)); err != nil {
			return err
		}
		byFile[f.path] = append(byFile[f.path], e)
	}
	if len(stale) > 0 {
		for _, f := range stale {
			f.staleFixes++
		}
		return errStale
	}
	if err := p.set.Add(fix.Edits); err != nil { // p.file refused unclean paths
		return err
	}
	names := make([]string, 0, len(byFile))
	for name := range byFile {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f := p.files[name]
		f.edits = p.set.byFile[name]
		f.codes = append(f.codes, code)
		f.fixes++
	}
	p.fixFiles = append(p.fixFiles, names)
	return nil
}

// Set is a set of whole fixes that can all be applied at once: their
// edits, by file, sorted by offset, no two of them in conflict (see
// diag.TextEdit.Conflicts). The zero Set is empty.
//
// Two fixes that insert whole lines at the same line start (two imports
// added at one place, two methods appended to one class) compose: the
// second's lines follow the first's, and lines one fix already inserts
// there are not inserted twice. Any other two insertions at one place
// conflict: their order would be a guess.
type Set struct {
	byFile map[string][]diag.TextEdit
	// lines are the whole-line insertions merged into one edit, by file
	// and offset: the parts, in order.
	lines map[lineKey][]string
}

type lineKey struct {
	path string
	off  int
}

// lineInsert reports whether e inserts whole lines at the start of a line.
func lineInsert(e diag.TextEdit) bool {
	t := e.NewText
	return e.Start.Offset == e.End.Offset && e.Start.Col == 1 && t != "" && (t[len(t)-1] == '\n' || t[len(t)-1] == '\r')
}

// Add adds the edits of one fix when none of them conflicts with another
// of them or with an edit already in the set (an edit identical to one in
// the set, such as two fixes adding one import, is kept once; whole lines
// inserted where another fix inserts whole lines follow them), or says
// why not and adds nothing: a fix is taken whole or not at all.
func (s *Set) Add(edits []diag.TextEdit) error {
	byFile := map[string][]diag.TextEdit{}
	for _, e := range edits {
		byFile[e.Path] = append(byFile[e.Path], e)
	}
	type merge struct {
		at   int // index into s.byFile[name]
		text string
	}
	merges := map[string][]merge{}
	for name, es := range byFile {
		es = dedupEdits(sortEdits(es))
		for i := 1; i < len(es); i++ {
			if es[i-1].Conflicts(es[i]) {
				return fmt.Errorf("its own edits of %s overlap", name)
			}
		}
		var kept []diag.TextEdit
		for _, e := range es {
			merged := false
			for j, o := range s.byFile[name] {
				if !e.Conflicts(o) {
					continue
				}
				if e.Start.Offset == o.Start.Offset && lineInsert(e) && lineInsert(o) {
					merged = true
					if !slices.Contains(s.lineParts(name, o), e.NewText) {
						merges[name] = append(merges[name], merge{j, e.NewText})
					}
					continue
				}
				return fmt.Errorf("it overlaps the fix of another finding in %s (run gymlint -fix again once that one is applied)", name)
			}
			if !merged {
				kept = append(kept, e)
			}
		}
		byFile[name] = kept
	}
	if s.byFile == nil {
		s.byFile = map[string][]diag.TextEdit{}
		s.lines = map[lineKey][]string{}
	}
	for name, ms := range merges {
		for _, m := range ms {
			o := &s.byFile[name][m.at]
			k := lineKey{name, o.Start.Offset}
			s.lines[k] = append(s.lineParts(name, *o), m.text)
			o.NewText += m.text
		}
	}
	for name, es := range byFile {
		s.byFile[name] = dedupEdits(sortEdits(append(s.byFile[name], es...)))
	}
	return nil
}

// lineParts are the whole-line insertions that edit o of file name holds.
func (s *Set) lineParts(name string, o diag.TextEdit) []string {
	if parts, ok := s.lines[lineKey{name, o.Start.Offset}]; ok {
		return parts
	}
	return []string{o.NewText}
}

// Edits are the set's edits, by path, then offset.
func (s *Set) Edits() []diag.TextEdit {
	names := make([]string, 0, len(s.byFile))
	for name := range s.byFile {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []diag.TextEdit
	for _, name := range names {
		out = append(out, s.byFile[name]...)
	}
	return out
}

// file reads the file that an edit names, once, after checking that it is
// a regular file inside the root.
func (p *Plan) file(root, realRoot, name string) (*fileFix, error) {
	if f, ok := p.files[name]; ok {
		return f, nil
	}
	if name == "" || path.IsAbs(name) || !filepath.IsLocal(filepath.FromSlash(name)) || path.Clean(name) != name {
		return nil, fmt.Errorf("the edit names %q, which is not a path inside the root", name)
	}
	full := filepath.Join(root, filepath.FromSlash(name))
	st, err := os.Lstat(full)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(full))
	if err != nil {
		return nil, err
	}
	if rel, err := filepath.Rel(realRoot, dir); err != nil || !filepath.IsLocal(rel) && rel != "." {
		return nil, fmt.Errorf("%s is outside the root (through a symbolic link)", name)
	}
	old, err := os.ReadFile(full)
	if err != nil {
		return nil, err
	}
	f := &fileFix{path: name, full: full, mode: st.Mode().Perm(), old: old, sum: sha256.Sum256(old)}
	if p.opts.Analysed != nil {
		switch sum, ok := p.opts.Analysed(name); {
		case !ok:
			f.stale = "gymlint cannot tell which content of it the analysis read"
		case sum != f.sum:
			f.stale = "it changed since gymlint analysed it"
		}
	}
	p.files[name] = f
	return f, nil
}

func sortEdits(es []diag.TextEdit) []diag.TextEdit {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Start.Offset != es[j].Start.Offset {
			return es[i].Start.Offset < es[j].Start.Offset
		}
		return es[i].End.Offset < es[j].End.Offset
	})
	return es
}

// dedupEdits drops repeated identical edits of sorted es.
func dedupEdits(es []diag.TextEdit) []diag.TextEdit {
	out := es[:0]
	for i, e := range es {
		if i > 0 && e.Same(out[len(out)-1]) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// content is the file with its edits applied.
func (f *fileFix) content() []byte {
	return applyEdits(f.old, f.edits)
}

// applyEdits applies sorted, non-overlapping edits to data.
func applyEdits(data []byte, edits []diag.TextEdit) []byte {
	var b bytes.Buffer
	last := 0
	for _, e := range edits {
		b.Write(data[last:e.Start.Offset])
		b.WriteString(e.NewText)
		last = e.End.Offset
	}
	b.Write(data[last:])
	return b.Bytes()
}

// sortedFiles lists the plan's files that change, by path.
func (p *Plan) sortedFiles() []*fileFix {
	var fs []*fileFix
	for _, f := range p.files {
		if len(f.edits) > 0 {
			fs = append(fs, f)
		}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].path < fs[j].path })
	return fs
}

// Taken is the number of fixes in the plan.
func (p *Plan) Taken() int { return p.taken }

// Skipped says why each fix left out of the plan was.
func (p *Plan) Skipped() []string { return p.skipped }

// Stale lists the files whose fixes were left out because the file is not
// the content the analysis read, each with why and how many fixes.
func (p *Plan) Stale() []string {
	var out []string
	for _, f := range p.sortedStale() {
		out = append(out, staleLine(f.path, f.stale, f.staleFixes))
	}
	return out
}

func (p *Plan) sortedStale() []*fileFix {
	var fs []*fileFix
	for _, f := range p.files {
		if f.stale != "" && f.staleFixes > 0 {
			fs = append(fs, f)
		}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].path < fs[j].path })
	return fs
}

// staleLine says that a file's fixes were not applied, and why.
func staleLine(path, why string, fixes int) string {
	return fmt.Sprintf("%s: %s: its %d %s not applied (run gymlint again)", path, why, fixes, plural(fixes, "fix is", "fixes are"))
}

// say writes one of gymlint's messages on w, escaped (output.Visible):
// paths and fix messages come from the repository.
func say(w io.Writer, msg string) {
	fmt.Fprintf(w, "gymlint: %s\n", output.Visible(msg))
}

// Apply writes the fixed files and reports each on stderr. Each file is
// written only while it is still the content the fixes were computed
// for: it is compared with it, its new content is written to a temporary
// file in its directory with its permissions, it is compared again, and
// the temporary file is renamed over it. A file that changed is left as
// it is and reported; the other files are written.
func (p *Plan) Apply(stderr io.Writer) error {
	p.Report(stderr)
	a, err := p.Write(stderr)
	if err != nil {
		return err
	}
	say(stderr, a.Summary())
	return nil
}

// Report writes why each fix left out of the plan was, and the files left
// as they are for having changed since the analysis.
func (p *Plan) Report(stderr io.Writer) {
	for _, s := range p.skipped {
		say(stderr, s)
	}
	for _, s := range p.Stale() {
		say(stderr, s)
	}
}

// Applied counts what writing one or more plans did.
type Applied struct {
	Fixes int
	Files []string // written, sorted
	// Stale counts the files left as they were for having changed since
	// the analysis, or while gymlint was fixing them.
	Stale int
}

// Add adds the counts of another pass.
func (a *Applied) Add(b Applied) {
	a.Fixes += b.Fixes
	a.Files = slices.Compact(slices.Sorted(slices.Values(append(a.Files, b.Files...))))
	a.Stale += b.Stale
}

// Summary is the line that ends a --fix: "applied N fixes to M files",
// and the files left as they were.
func (a Applied) Summary() string {
	msg := fmt.Sprintf("applied %d %s to %d %s", a.Fixes, plural(a.Fixes, "fix", "fixes"),
		len(a.Files), plural(len(a.Files), "file", "files"))
	if a.Stale > 0 {
		msg += fmt.Sprintf("; %d %s changed since the analysis and %s left as %s (run gymlint --fix again)",
			a.Stale, plural(a.Stale, "file", "files"), plural(a.Stale, "was", "were"), plural(a.Stale, "it was", "they were"))
	}
	return msg
}

// Write writes the fixed files, each only while it is still the content
// the fixes were computed for (see Apply), names each on stderr, and
// counts what it did.
func (p *Plan) Write(stderr io.Writer) (Applied, error) {
	written, changed, err := p.write(func(f *fileFix, ok bool) {
		if ok {
			say(stderr, fmt.Sprintf("fixed %s: %s (%d %s)", f.path, strings.Join(uniq(f.codes), ", "),
				len(f.edits), plural(len(f.edits), "edit", "edits")))
		} else {
			say(stderr, staleLine(f.path, "it changed while gymlint was fixing it", f.fixes))
		}
	})
	if err != nil {
		return Applied{}, err
	}
	applied := 0
	for _, names := range p.fixFiles {
		if !slices.ContainsFunc(names, func(n string) bool { return !written[n] }) {
			applied++
		}
	}
	files := slices.Sorted(maps.Keys(written))
	return Applied{Fixes: applied, Files: files, Stale: len(p.sortedStale()) + len(changed)}, nil
}

// write writes the plan's files, each only while it is still the content
// the fixes were computed for, and calls done for each file in path order
// (ok: written; else it changed and was left as it is). It returns the
// files written and those that changed. Every file is checked before any
// is written, so that a fix that edits two files is not applied to one of
// them because the other one changed.
func (p *Plan) write(done func(f *fileFix, ok bool)) (written map[string]bool, changed []*fileFix, err error) {
	files := p.sortedFiles()
	for _, f := range files {
		if _, err := unchanged(f); err == errChanged {
			changed = append(changed, f)
		} else if err != nil {
			return nil, nil, fmt.Errorf("reading %s again: %v", output.Visible(f.path), err)
		}
	}
	written = map[string]bool{}
	for _, f := range files {
		if !slices.Contains(changed, f) {
			err := writeChecked(f)
			if err == nil {
				written[f.path] = true
				done(f, true)
				continue
			}
			if err != errChanged {
				return nil, nil, fmt.Errorf("writing the fixes of %s: %v", output.Visible(f.path), err)
			}
			changed = append(changed, f)
		}
		done(f, false)
	}
	return written, changed, nil
}

// Left is a file that WriteFiles left as it was, and why.
type Left struct{ Path, Why string }

// Written is what WriteFiles did: the files it wrote and those it left as
// they were, each by path.
type Written struct {
	Files []string
	Left  []Left
}

// WriteFiles applies edits (root-relative slash path → that file's edits,
// none overlapping another) to the files of the repository at root, as
// Plan.Apply applies fixes: a file must be a regular file inside the root,
// also through symbolic links; it must hold the content the analysis read
// (opts.Analysed; nil takes the content read here) when it is read, and
// again just before its new content, written to a temporary file of its
// directory with its permissions, is renamed over it. A file's edits are
// made all or none. gymlint --add-noqa writes its suppressions with it.
// The error is one that stopped the writing (a file that could not be
// read again or written); a file left as it was is not one.
func WriteFiles(root string, edits map[string][]diag.TextEdit, opts Options) (Written, error) {
	p := &Plan{files: map[string]*fileFix{}, opts: opts}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	names := make([]string, 0, len(edits))
	for name := range edits {
		names = append(names, name)
	}
	sort.Strings(names)
	var w Written
	for _, name := range names {
		es := slices.Clone(edits[name])
		for i := range es {
			if es[i].Path != name {
				return w, fmt.Errorf("an edit of %s names %s", output.Visible(name), output.Visible(es[i].Path))
			}
		}
		switch err := p.take(root, realRoot, "", diag.Fix{Edits: es}); {
		case err == errStale:
			w.Left = append(w.Left, Left{name, p.files[name].stale})
		case err != nil:
			w.Left = append(w.Left, Left{name, err.Error()})
		}
	}
	_, _, err = p.write(func(f *fileFix, ok bool) {
		if ok {
			w.Files = append(w.Files, f.path)
		} else {
			w.Left = append(w.Left, Left{f.path, "it changed while gymlint was writing it"})
		}
	})
	sort.Slice(w.Left, func(i, j int) bool { return w.Left[i].Path < w.Left[j].Path })
	return w, err
}

// Diff writes the plan as unified diffs on stdout (paths a/PATH and
// b/PATH, relative to the root, quoted as git quotes an unusual name:
// `patch -p1` or `git apply` in the root applies it), and why fixes were
// skipped on stderr. A stale file is not shown (its fixes' offsets are
// into another content).
func (p *Plan) Diff(stdout, stderr io.Writer) error {
	for _, s := range p.skipped {
		say(stderr, s)
	}
	for _, s := range p.Stale() {
		say(stderr, s)
	}
	var b strings.Builder
	for _, f := range p.sortedFiles() {
		b.WriteString(UnifiedDiff(f.path, f.old, f.edits, 3))
	}
	_, err := io.WriteString(stdout, b.String())
	return err
}

// testHookBeforeLastCheck, when set (by tests), runs after the new content
// of a file is written and before the file is compared the last time.
var testHookBeforeLastCheck func(path string)

// errChanged is writeChecked's error for a file that is no longer the
// content its fixes were computed for.
var errChanged = fmt.Errorf("the file changed")

// writeChecked writes f's new content over f.full, through a temporary
// file of its directory renamed over it, while f.full is still a regular
// file holding f.old (errChanged when it is not: nothing is written).
func writeChecked(f *fileFix) error {
	before, err := unchanged(f)
	if err != nil {
		return err
	}
	name := f.full
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".gymlint-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, there is nothing to remove
	if _, err := tmp.Write(f.content()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(f.mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if testHookBeforeLastCheck != nil {
		testHookBeforeLastCheck(f.path)
	}
	// Once more, as close to the rename as can be: a write to the file
	// while the new content was written is not lost.
	after, err := unchanged(f)
	if err != nil {
		return err
	}
	if !os.SameFile(before, after) || before.Size() != after.Size() || !before.ModTime().Equal(after.ModTime()) {
		return errChanged
	}
	return os.Rename(tmp.Name(), name)
}

// unchanged checks that f.full is a regular file that holds f.old, and
// returns its stat, taken before it was read; errChanged when it is not.
func unchanged(f *fileFix) (os.FileInfo, error) {
	st, err := os.Lstat(f.full)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, errChanged
		}
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errChanged
	}
	data, err := os.ReadFile(f.full)
	if err != nil {
		return nil, err
	}
	if sha256.Sum256(data) != f.sum {
		return nil, errChanged
	}
	return st, nil
}

func uniq(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// UnifiedDiff is the unified diff, with ctx lines of context, of applying
// the sorted, non-overlapping edits to old (the file name), or "" when they
// change nothing.
func UnifiedDiff(name string, old []byte, edits []diag.TextEdit, ctx int) string {
	if bytes.Equal(old, applyEdits(old, edits)) {
		return ""
	}
	all := diffOps(old, edits)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", QuotePath("a/"+name), QuotePath("b/"+name))
	oldLine, newLine := 1, 1 // the numbers of the lines at all[i]
	for i := 0; ; {
		j := i // the next change
		for j < len(all) && all[j].kind == ' ' {
			j++
		}
		if j == len(all) {
			break
		}
		start := max(i, j-ctx)
		oldLine += start - i
		newLine += start - i
		// The hunk goes on while the next change is at most 2*ctx lines away.
		end := j
		for {
			for end < len(all) && all[end].kind != ' ' {
				end++
			}
			k := end
			for k < len(all) && all[k].kind == ' ' {
				k++
			}
			if k < len(all) && k-end <= 2*ctx {
				end = k
				continue
			}
			break
		}
		stop := min(len(all), end+ctx)
		var body strings.Builder
		oldN, newN := 0, 0
		for _, op := range all[start:stop] {
			body.WriteByte(op.kind)
			body.WriteString(op.line)
			if !strings.HasSuffix(op.line, "\n") {
				body.WriteString("\n\\ No newline at end of file\n")
			}
			if op.kind != '+' {
				oldN++
			}
			if op.kind != '-' {
				newN++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(oldLine, oldN), hunkRange(newLine, newN))
		out.WriteString(body.String())
		oldLine += oldN
		newLine += newN
		i = stop
	}
	return out.String()
}

// diffOps is the line-by-line difference of old and old with edits applied:
// the lines that edits touch form blocks (widened until the new text of a
// block ends a line), each block is diffed on its own, and every other line
// is unchanged. This costs little however large the file is.
func diffOps(old []byte, edits []diag.TextEdit) []lineOp {
	lines := splitLines(old)
	n := len(lines)
	starts := make([]int, n+1)
	for k, l := range lines {
		starts[k+1] = starts[k] + len(l)
	}
	// lineOf is the line that holds offset x; n for the end of a file that
	// ends a line (or is empty).
	lineOf := func(x int) int {
		k := sort.Search(n+1, func(k int) bool { return starts[k] > x }) - 1
		if k >= n && n > 0 && old[len(old)-1] != '\n' {
			return n - 1
		}
		return min(k, n)
	}
	var ops []lineOp
	next := 0 // the first line not yet in ops
	for e := 0; e < len(edits); {
		l0 := lineOf(edits[e].Start.Offset)
		l1 := l0
		var block []diag.TextEdit
		var newText []byte
		for {
			// Take every edit that starts before the block ends.
			for e < len(edits) && (len(block) == 0 || lineOf(edits[e].Start.Offset) <= l1) {
				x := edits[e]
				end := lineOf(x.End.Offset)
				if x.End.Offset > x.Start.Offset && starts[end] == x.End.Offset {
					end-- // the edit ends a line: the next one is not touched
				}
				l1 = max(l1, min(end+1, n))
				block = append(block, x)
				e++
			}
			base := starts[l0]
			shifted := make([]diag.TextEdit, len(block))
			for k, x := range block {
				shifted[k] = x
				shifted[k].Start.Offset -= base
				shifted[k].End.Offset -= base
			}
			newText = applyEdits(old[base:starts[l1]], shifted)
			if len(newText) > 0 && newText[len(newText)-1] != '\n' && l1 < n {
				l1++ // the new text runs into the next line
				continue
			}
			break
		}
		for ; next < l0; next++ {
			ops = append(ops, lineOp{' ', lines[next]})
		}
		ops = append(ops, lineOps(lines[l0:l1], splitLines(newText))...)
		next = l1
	}
	for ; next < n; next++ {
		ops = append(ops, lineOp{' ', lines[next]})
	}
	return ops
}

// QuotePath is name as git writes it in a diff header: as it is when it
// holds nothing unusual, else in double quotes with C-style escapes (\n,
// \t, \", \\, ...) and every other byte that is a control character or
// not ASCII as a three-digit octal escape, which `git apply` and GNU
// patch read back. A name is unusual when it holds a control character, a
// double quote, a backslash, or a character that output.Visible escapes
// (a bidirectional control): such a name cannot break the header, nor
// reach the terminal. (git also quotes names that are only not ASCII;
// those are kept as they are here, as before.)
func QuotePath(name string) string {
	if output.Visible(name) == name && !strings.ContainsAny(name, "\"\\\t") {
		return name
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(name); i++ {
		switch c := name[i]; c {
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		default:
			if c < 0x20 || c >= 0x7f {
				fmt.Fprintf(&b, "\\%03o", c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// hunkRange is a hunk header's "start,count"; an empty range names the line
// before it.
func hunkRange(start, n int) string {
	if n == 0 {
		start--
	}
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

type lineOp struct {
	kind byte // ' ', '-', '+'
	line string
}

// lineOps diffs two short lists of lines with a longest common subsequence:
// deletions come before insertions in each changed run.
func lineOps(a, b []string) []lineOp {
	n, m := len(a), len(b)
	if n*m > 1<<20 {
		// Too large to compare: all of a, then all of b (a valid diff).
		ops := make([]lineOp, 0, n+m)
		for _, l := range a {
			ops = append(ops, lineOp{'-', l})
		}
		for _, l := range b {
			ops = append(ops, lineOp{'+', l})
		}
		return ops
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []lineOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, lineOp{' ', a[i]})
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, lineOp{'-', a[i]})
			i++
		default:
			ops = append(ops, lineOp{'+', b[j]})
			j++
		}
	}
	return ops
}

// splitLines splits data after each newline; the last line may lack one.
func splitLines(data []byte) []string {
	var lines []string
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			lines = append(lines, string(data))
			break
		}
		lines = append(lines, string(data[:i+1]))
		data = data[i+1:]
	}
	return lines
}

// Fixable counts the diagnostics of ds that have a safe fix, and those
// that have only unsafe ones (which --unsafe-fixes applies).
func Fixable(ds []diag.Diagnostic) (safe, unsafe int) {
	for _, d := range ds {
		switch {
		case slices.ContainsFunc(d.Fixes, diag.Fix.IsSafe):
			safe++
		case len(d.Fixes) > 0:
			unsafe++
		}
	}
	return safe, unsafe
}

// Hint is the line that says what the fixes of ds can do, for the end of a
// check's summary: "" when no finding has a fix. applied says --fix ran,
// unsafe that --unsafe-fixes was given.
func Hint(ds []diag.Diagnostic, unsafe bool) string {
	safe, unsafeOnly := Fixable(ds)
	var parts []string
	if safe > 0 {
		parts = append(parts, fmt.Sprintf("%d fixable with --fix (--diff to see the fixes)", safe))
	}
	if unsafeOnly > 0 && !unsafe {
		parts = append(parts, fmt.Sprintf("%d more with unsafe fixes, which need a person's review (--diff --unsafe-fixes to see them, --fix --unsafe-fixes to apply)", unsafeOnly))
	} else if unsafeOnly > 0 {
		parts = append(parts, fmt.Sprintf("%d with unsafe fixes (--fix --unsafe-fixes applies them)", unsafeOnly))
	}
	return strings.Join(parts, "; ")
}
