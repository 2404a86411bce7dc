package goanalysis

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"go/types"
	"reflect"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

// Facts of the cached packages. An analyzer with facts (of gymlint's,
// ctrlflow, which gosessions requires: its noReturn facts say which
// functions never return, log.Fatal for one) runs on every package of the
// import graph, the dependencies too, and the facts that it exports there
// flow to the packages that import them (checker's inheritFacts: of an
// object, only what the importer can refer to, see exportedFrom). A
// package read from the cache has no syntax, so the analyzer cannot run
// on it; instead the cache entry of a package holds, beside its export
// data, the facts that its actions of the fact analyzers held after they
// ran (their own and those they inherited), filtered as an importer
// inherits them. On a warm run the checker still makes an action of each
// fact analyzer for every package; wrap turns the action of a package
// that was not type-checked from source into one that exports, of the
// facts read from the entries, those about that package's objects, so
// that every importer inherits the same facts as with a cold run.

// gobFact is one fact of an entry: the analyzer's name, the package of the
// object (or of the package fact), the object's objectpath ("" for a
// package fact) and the fact.
type gobFact struct {
	Analyzer string
	PkgPath  string
	Object   objectpath.Path
	Fact     analysis.Fact
}

// entry is a cache entry of kind typesKind.
type entry struct {
	Types []byte // gcexportdata
	Facts []gobFact
}

func encodeEntry(e entry) ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(e); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func decodeEntry(data []byte) (e entry, err error) {
	err = gob.NewDecoder(bytes.NewReader(data)).Decode(&e)
	if err == nil && len(e.Types) == 0 {
		err = fmt.Errorf("entry without export data")
	}
	return e, err
}

// registered remembers the fact types given to gob.Register.
var registered sync.Map

// factAnalyzers returns the sorted names of the analyzers (and the ones
// they require) that have facts, and registers their fact types with gob.
func factAnalyzers(analyzers []*analysis.Analyzer) []string {
	seen := map[*analysis.Analyzer]bool{}
	var names []string
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		if len(a.FactTypes) > 0 && !slices.Contains(names, a.Name) {
			names = append(names, a.Name)
			for _, f := range a.FactTypes {
				if _, dup := registered.LoadOrStore(reflect.TypeOf(f), true); !dup {
					gob.Register(f)
				}
			}
		}
		for _, r := range a.Requires {
			visit(r)
		}
	}
	for _, a := range analyzers {
		visit(a)
	}
	slices.Sort(names)
	return names
}

// wrap returns copies of the analyzers (and of those they require) for the
// checker to run when the loader has fact analyzers. Each copy runs the
// original with the results keyed by the original analyzers, as the
// original's code looks them up; the copy of a fact analyzer, on a package
// that was not type-checked from source, exports the facts read from the
// cache instead of running, and on a package that may be stored, records
// the facts its action holds after running.
func (l *typeLoader) wrap(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	if len(l.factNames) == 0 {
		return analyzers
	}
	byTypes := map[*types.Package]*pkgState{}
	for _, s := range l.order {
		if s.p.Types != nil {
			byTypes[s.p.Types] = s
		}
	}
	copies := map[*analysis.Analyzer]*analysis.Analyzer{}
	var cp func(a *analysis.Analyzer) *analysis.Analyzer
	cp = func(a *analysis.Analyzer) *analysis.Analyzer {
		if c := copies[a]; c != nil {
			return c
		}
		c := new(analysis.Analyzer)
		*c = *a
		copies[a] = c
		c.Requires = make([]*analysis.Analyzer, len(a.Requires))
		for i, r := range a.Requires {
			c.Requires[i] = cp(r)
		}
		orig := a
		c.Run = func(pass *analysis.Pass) (any, error) {
			p := *pass
			p.Analyzer = orig
			p.ResultOf = make(map[*analysis.Analyzer]any, len(pass.ResultOf))
			for i, r := range orig.Requires {
				p.ResultOf[r] = pass.ResultOf[c.Requires[i]]
			}
			if len(orig.FactTypes) == 0 {
				return orig.Run(&p)
			}
			s := byTypes[pass.Pkg]
			if s != nil && !(s.decided && s.source) && s.p.PkgPath != "unsafe" {
				l.exportRead(&p, orig.Name)
				if orig.ResultType == nil {
					return nil, nil
				}
				return reflect.Zero(orig.ResultType).Interface(), nil
			}
			res, err := orig.Run(&p)
			if err == nil && s != nil && s.export != nil {
				l.record(s, &p, orig.Name)
			}
			return res, err
		}
		return c
	}
	out := make([]*analysis.Analyzer, len(analyzers))
	for i, a := range analyzers {
		out[i] = cp(a)
	}
	return out
}

// exportRead exports, in the pass of a package read from the cache (or
// that only such packages depend on), the facts about its objects that
// the entries read hold.
func (l *typeLoader) exportRead(pass *analysis.Pass, analyzer string) {
	l.factsMu.Lock()
	facts := l.read[analyzer][pass.Pkg.Path()]
	l.factsMu.Unlock()
	for _, f := range facts {
		if f.Object == "" {
			pass.ExportPackageFact(f.Fact)
			continue
		}
		obj, err := objectpath.Object(pass.Pkg, f.Object)
		if err != nil || obj.Pkg() != pass.Pkg {
			continue // not in the types read: nothing can refer to it
		}
		pass.ExportObjectFact(obj, f.Fact)
	}
}

// record keeps, for the package's entry, the facts that its action holds
// after the analyzer ran: those that an importer inherits.
func (l *typeLoader) record(s *pkgState, pass *analysis.Pass, analyzer string) {
	var facts []gobFact
	for _, f := range pass.AllObjectFacts() {
		if !exportedFrom(f.Object, pass.Pkg) || f.Object.Pkg() == nil {
			continue
		}
		path, err := objectpath.For(f.Object)
		if err != nil {
			return // not storable: the package is not stored
		}
		facts = append(facts, gobFact{Analyzer: analyzer, PkgPath: f.Object.Pkg().Path(), Object: path, Fact: f.Fact})
	}
	for _, f := range pass.AllPackageFacts() {
		facts = append(facts, gobFact{Analyzer: analyzer, PkgPath: f.Package.Path(), Fact: f.Fact})
	}
	// A deterministic order, so that two runs write the same entry.
	slices.SortFunc(facts, func(a, b gobFact) int {
		if a.PkgPath != b.PkgPath {
			return cmpString(a.PkgPath, b.PkgPath)
		}
		if a.Object != b.Object {
			return cmpString(string(a.Object), string(b.Object))
		}
		return cmpString(reflect.TypeOf(a.Fact).String(), reflect.TypeOf(b.Fact).String())
	})
	l.factsMu.Lock()
	defer l.factsMu.Unlock()
	s.facts = append(s.facts, facts...)
	if s.factsDone == nil {
		s.factsDone = map[string]bool{}
	}
	s.factsDone[analyzer] = true
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// exportedFrom is checker's filter of the facts that an importer of pkg
// inherits (golang.org/x/tools/go/analysis/checker, unexported there).
func exportedFrom(obj types.Object, pkg *types.Package) bool {
	switch obj := obj.(type) {
	case *types.Func:
		return obj.Exported() && obj.Pkg() == pkg ||
			obj.Signature().Recv() != nil
	case *types.Var:
		if obj.IsField() {
			return true
		}
		return obj.Pkg() == pkg
	case *types.TypeName, *types.Const:
		return true
	}
	return false
}
