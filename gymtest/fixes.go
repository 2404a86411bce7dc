package gymtest

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/gymlint/gymlint/diag"
)

// fixRef is one suggested fix of a checked diagnostic.
type fixRef struct {
	d   diag.Diagnostic
	fix diag.Fix
}

// section is the name of a fix's section in a txtar golden.
func (f fixRef) section() string {
	if f.fix.IsSafe() {
		return f.fix.Message
	}
	return f.fix.Message + " (unsafe)"
}

func (f fixRef) String() string {
	return fmt.Sprintf("fix %q of %s at %s:%d", f.fix.Message, f.d.Code, f.d.Path, f.d.Start.Line)
}

// edits returns the fix's edits of file p.
func (f fixRef) edits(p string) []diag.TextEdit {
	var out []diag.TextEdit
	for _, e := range f.fix.Edits {
		if e.Path == p {
			out = append(out, e)
		}
	}
	return out
}

// checkFixes compares the goldens of the case with its files after the
// fixes, and lints the fixed files again.
func (k *kase) checkFixes(t Testing, ds []diag.Diagnostic) {
	t.Helper()
	var goldens []string
	for p := range k.files {
		if strings.HasSuffix(p, ".golden") {
			goldens = append(goldens, strings.TrimSuffix(p, ".golden"))
		}
	}
	if len(goldens) == 0 {
		return
	}
	slices.Sort(goldens)
	var fixes []fixRef
	for _, d := range ds {
		if k.checked(d) {
			for _, f := range d.Fixes {
				fixes = append(fixes, fixRef{d, f})
			}
		}
	}
	update := updating()

	// Every file a fix edits needs a golden.
	edited := map[string]bool{}
	for _, f := range fixes {
		for _, e := range f.fix.Edits {
			edited[e.Path] = true
		}
	}
	for _, p := range slices.Sorted(maps.Keys(edited)) {
		if slices.Contains(goldens, p) {
			continue
		}
		if _, ok := k.files[p]; !ok {
			continue // not a file of the case; checkSanity says so
		}
		if update {
			goldens = append(goldens, p)
			continue
		}
		for _, f := range fixes {
			if len(f.edits(p)) > 0 {
				t.Errorf("%s: %s edits %s, which has no %s.golden", k.show(f.d.Path), f, p, filepath.Base(p))
				break
			}
		}
	}
	slices.Sort(goldens)

	// The fixed content of each golden's file, whole or per section.
	type fixedSet struct {
		fixes []fixRef
		files map[string][]byte
	}
	sets := map[string]*fixedSet{} // by section name; "" for the whole-file goldens
	for _, p := range goldens {
		old, ok := k.files[p]
		if !ok {
			t.Errorf("%s.golden: there is no %s in the case", k.show(p), filepath.Base(p))
			continue
		}
		golden := k.files[p+".golden"]
		bySection := map[string][]fixRef{}
		for _, f := range fixes {
			if len(f.edits(p)) > 0 {
				bySection[f.section()] = append(bySection[f.section()], f)
			}
		}
		ar := txtar.Parse(golden)
		sectioned := len(ar.Files) > 0 || len(golden) == 0 && len(bySection) > 1
		if !sectioned {
			got, err := apply(p, old, fixes)
			if err != nil {
				t.Errorf("%s: %v", k.show(p), err)
				continue
			}
			k.compare(t, p, got, golden, update)
			s := sets[""]
			if s == nil {
				s = &fixedSet{files: map[string][]byte{}}
				sets[""] = s
			}
			s.files[p] = got
			for _, f := range fixes {
				if len(f.edits(p)) > 0 && !slices.ContainsFunc(s.fixes, func(g fixRef) bool { return sameFix(f, g) }) {
					s.fixes = append(s.fixes, f)
				}
			}
			continue
		}
		if len(ar.Comment) > 0 {
			t.Errorf("%s.golden: text before the first section (a txtar golden holds only sections)", k.show(p))
			continue
		}
		want := map[string][]byte{}
		for _, f := range ar.Files {
			want[f.Name] = f.Data
		}
		names := slices.Sorted(maps.Keys(want))
		for name := range bySection {
			if _, ok := want[name]; !ok {
				if !update {
					t.Errorf("%s.golden: no section %q, but %s edits %s", k.show(p), name, bySection[name][0], p)
					continue
				}
				names = append(names, name)
			}
		}
		slices.Sort(names)
		var out txtar.Archive
		for _, name := range names {
			got, err := apply(p, old, bySection[name])
			if err != nil {
				t.Errorf("%s: section %q: %v", k.show(p), name, err)
				continue
			}
			out.Files = append(out.Files, txtar.File{Name: name, Data: got})
			if _, ok := want[name]; ok && !bytes.Equal(got, want[name]) && !update {
				t.Errorf("%s after the fixes %q differs from its section in %s.golden:\n%s", k.show(p), name, filepath.Base(p), diffText(got, want[name]))
			}
			if len(bySection[name]) == 0 {
				continue
			}
			s := sets[name]
			if s == nil {
				s = &fixedSet{files: map[string][]byte{}}
				sets[name] = s
			}
			s.files[p] = got
			for _, f := range bySection[name] {
				if !slices.ContainsFunc(s.fixes, func(g fixRef) bool { return sameFix(f, g) }) {
					s.fixes = append(s.fixes, f)
				}
			}
		}
		if update {
			if err := os.WriteFile(filepath.Join(k.dir, filepath.FromSlash(p+".golden")), txtar.Format(&out), 0o644); err != nil {
				t.Errorf("gymtest: %v", err)
			}
		}
	}

	// The fixed files parse, and the fixed findings are gone.
	for _, name := range slices.Sorted(maps.Keys(sets)) {
		s := sets[name]
		if len(s.fixes) == 0 {
			continue
		}
		after, err := k.lint(s.files)
		if err != nil {
			t.Errorf("gymtest: linting %s after the fixes: %v", k.dir, err)
			continue
		}
		what := "the fixes"
		if name != "" {
			what = fmt.Sprintf("the fixes %q", name)
		}
		k.checkResolved(t, what, ds, after, s.fixes, s.files)
	}
}

// checkResolved checks the lint of the fixed files: none has a syntax
// error, and in each file with fixed diagnostics, each of their codes has
// at least as many fewer findings as diagnostics were fixed.
func (k *kase) checkResolved(t Testing, what string, before, after []diag.Diagnostic, fixes []fixRef, files map[string][]byte) {
	t.Helper()
	type pc struct{ path, code string }
	fixed := map[pc]int{}
	seen := map[string]bool{}
	for _, f := range fixes {
		id := fmt.Sprintf("%s %s %d %d %s", f.d.Path, f.d.Code, f.d.Start.Offset, f.d.End.Offset, f.d.Message)
		if !seen[id] {
			seen[id] = true
			fixed[pc{f.d.Path, f.d.Code}]++
		}
	}
	count := func(ds []diag.Diagnostic, at pc) int {
		n := 0
		for _, d := range ds {
			if d.Path == at.path && d.Code == at.code {
				n++
			}
		}
		return n
	}
	for _, d := range after {
		if _, ok := files[d.Path]; ok && d.Code == "GL001" {
			t.Errorf("%s after %s does not parse: %s:%d:%d: %s", k.show(d.Path), what, d.Path, d.Start.Line, d.Start.Col, d.Message)
		}
	}
	for _, at := range slices.SortedFunc(maps.Keys(fixed), func(a, b pc) int {
		return strings.Compare(a.path+" "+a.code, b.path+" "+b.code)
	}) {
		if n, was := count(after, at), count(before, at); n > was-fixed[at] {
			var left []string
			for _, d := range after {
				if d.Path == at.path && d.Code == at.code {
					left = append(left, fmt.Sprintf("%d:%d: %s", d.Start.Line, d.Start.Col, d.Message))
				}
			}
			t.Errorf("%s after %s still has %d %s findings (%d before, %d fixed):\n\t%s", k.show(at.path), what, n, at.code, was, fixed[at], strings.Join(left, "\n\t"))
		}
	}
}

func sameFix(a, b fixRef) bool {
	return a.d.Path == b.d.Path && a.d.Code == b.d.Code && a.d.Start == b.d.Start && a.fix.Message == b.fix.Message
}

// compare checks a whole-file golden, or rewrites it.
func (k *kase) compare(t Testing, p string, got, want []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(filepath.Join(k.dir, filepath.FromSlash(p+".golden")), got, 0o644); err != nil {
			t.Errorf("gymtest: %v", err)
		}
		return
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s after the fixes differs from %s.golden:\n%s", k.show(p), filepath.Base(p), diffText(got, want))
	}
}

// apply applies the edits of file p of fixes to old. An edit two fixes
// make alike is made once; edits that overlap are an error.
func apply(p string, old []byte, fixes []fixRef) ([]byte, error) {
	type owned struct {
		e diag.TextEdit
		f fixRef
	}
	var es []owned
	for _, f := range fixes {
		for _, e := range f.edits(p) {
			if !slices.ContainsFunc(es, func(o owned) bool { return o.e.Same(e) }) {
				es = append(es, owned{e, f})
			}
		}
	}
	slices.SortStableFunc(es, func(a, b owned) int {
		if a.e.Start.Offset != b.e.Start.Offset {
			return a.e.Start.Offset - b.e.Start.Offset
		}
		return a.e.End.Offset - b.e.End.Offset
	})
	var b bytes.Buffer
	last := 0
	for i, o := range es {
		e := o.e
		if e.Start.Offset < 0 || e.Start.Offset > e.End.Offset || e.End.Offset > len(old) {
			return nil, fmt.Errorf("%s: edit [%d, %d) outside the file (%d bytes)", o.f, e.Start.Offset, e.End.Offset, len(old))
		}
		if i > 0 && es[i-1].e.Conflicts(e) {
			return nil, fmt.Errorf("the edits of %s and %s overlap: [%d, %d) %q and [%d, %d) %q", es[i-1].f, o.f,
				es[i-1].e.Start.Offset, es[i-1].e.End.Offset, es[i-1].e.NewText, e.Start.Offset, e.End.Offset, e.NewText)
		}
		b.Write(old[last:e.Start.Offset])
		b.WriteString(e.NewText)
		last = e.End.Offset
	}
	b.Write(old[last:])
	return b.Bytes(), nil
}

// diffText shows got and want, and the first line where they differ.
func diffText(got, want []byte) string {
	gl, wl := strings.SplitAfter(string(got), "\n"), strings.SplitAfter(string(want), "\n")
	line := 1
	for line <= len(gl) && line <= len(wl) && gl[line-1] == wl[line-1] {
		line++
	}
	return fmt.Sprintf("first difference at line %d\n-- got --\n%s\n-- want --\n%s", line, got, want)
}
