package contract

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Every string constant of the package spells a different name: a name
// given two constants would let two rules match the same thing by
// different names, and a change miss one of them.
func TestFrameworkConstantsOnce(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	byValue := map[string][]string{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, v := range vs.Values {
					if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						val, _ := strconv.Unquote(lit.Value)
						byValue[val] = append(byValue[val], vs.Names[i].Name)
					}
				}
			}
		}
	}
	if len(byValue) < 50 {
		t.Fatalf("only %d string constants found", len(byValue))
	}
	for v, names := range byValue {
		if len(names) > 1 {
			t.Errorf("%q is spelled by %v", v, names)
		}
	}
}

// The tables list each name once, and a name belongs to one server type.
func TestFrameworkTablesUnique(t *testing.T) {
	for name, list := range map[string][]string{
		"ServerBases": ServerBases, "LifecycleMethods": LifecycleMethods, "StartupHooks": StartupHooks,
		"ScoringMethods": ScoringMethods, "CheckpointHookMethods": CheckpointHookMethods,
		"MCPPerRequestHooks": MCPPerRequestHooks, "LatestReservedMCPToolNames": LatestReservedMCPToolNames,
	} {
		seen := map[string]bool{}
		for _, n := range list {
			if n == "" || seen[n] {
				t.Errorf("%s lists %q twice or empty", name, n)
			}
			seen[n] = true
		}
	}
	for _, group := range [][]string{ResourcesBases, AgentBases, ModelBases, EnvironmentBases} {
		for _, b := range group {
			if !slices.Contains(ServerBases, b) {
				t.Errorf("server base %s is not in ServerBases", b)
			}
		}
	}
	if len(ServerBases) != 2+len(ResourcesBases)+len(AgentBases)+len(ModelBases)+len(EnvironmentBases) {
		t.Errorf("ServerBases %v", ServerBases)
	}
}

// Every route has a method and a path; a method is served at one path and
// a path serves one method; the resources server's routes, start-up hooks
// and per-request MCP hooks are never tool routes; the scoring methods are
// routes.
func TestFrameworkRoutes(t *testing.T) {
	pathOf, methodOf := map[string]string{}, map[string]string{}
	for _, r := range StandardRoutes {
		if r.Method == "" || !strings.HasPrefix(r.Path, "/") {
			t.Errorf("route %+v", r)
		}
		if p, ok := pathOf[r.Method]; ok && p != r.Path {
			t.Errorf("%s is served at %s and %s", r.Method, p, r.Path)
		}
		if m, ok := methodOf[r.Path]; ok && m != r.Method {
			t.Errorf("%s serves %s and %s", r.Path, m, r.Method)
		}
		pathOf[r.Method], methodOf[r.Path] = r.Path, r.Method
	}
	for _, r := range ResourcesRoutes {
		if RoutePath(ResourcesRoutes, r.Method) != r.Path {
			t.Errorf("RoutePath(%s) = %q", r.Method, RoutePath(ResourcesRoutes, r.Method))
		}
	}
	if RoutePath(ResourcesRoutes, RunMethod) != "" {
		t.Errorf("an agent's route among the resources routes")
	}
	var notTools []string
	for _, r := range ResourcesRoutes {
		notTools = append(notTools, r.Method)
	}
	notTools = append(append(notTools, StartupHooks...), MCPPerRequestHooks...)
	for _, m := range notTools {
		if !slices.Contains(LifecycleMethods, m) {
			t.Errorf("%s is not a lifecycle method: GL309 would take it for a tool route", m)
		}
	}
	for _, m := range ScoringMethods {
		if RoutePath(ResourcesRoutes, m) == "" {
			t.Errorf("scoring method %s is no resources route", m)
		}
	}
}

// The reserved MCP tool names are sorted (GL312 prints them so), and are
// the names MCP auto-exposure would give the resources routes, and the
// MCP endpoint's.
func TestFrameworkReservedMCPToolNames(t *testing.T) {
	if !slices.IsSorted(LatestReservedMCPToolNames) {
		t.Errorf("not sorted: %v", LatestReservedMCPToolNames)
	}
	rest := slices.Clone(LatestReservedMCPToolNames)
	for _, r := range ResourcesRoutes {
		name := strings.TrimLeft(r.Path, "/")
		i := slices.Index(rest, name)
		if i < 0 {
			t.Errorf("route %s is not reserved", r.Path)
			continue
		}
		rest = slices.Delete(rest, i, i+1)
	}
	if len(rest) != 1 || rest[0] != "mcp" {
		t.Errorf("reserved names that are no resources route: %v", rest)
	}
}

// Every fact is read by the names of framework.go: a module of the
// framework that defines one of them, alone, is parsed (its name is among
// those the detector looks for) and gives the fact. A fact without a
// reader, or a reader's name the detector does not look for, fails here.
func TestFrameworkFactsReadByName(t *testing.T) {
	type module struct {
		src  string
		want []Fact
	}
	class := func(name string, methods ...string) string {
		s := "class " + name + ":\n"
		for _, m := range methods {
			s += "    def " + m + "(self):\n        return None\n\n"
		}
		return s + "    pass\n"
	}
	decl := "from typing import ClassVar\n\n\n" + "class " + BaseServer + ":\n    " + RayEnabledAttr + ": ClassVar[bool] = False\n"
	mods := []module{
		{decl, []Fact{RayDeclaration}},
		{decl + "\n\ndef start(server):\n    return server." + RayEnabledAttr + "\n", []Fact{RayDeclaration, RayPerDeclaration}},
		{ReservedMCPToolNamesBinding + " = frozenset()\n", []Fact{ReservedMCPToolNames}},
		{class("ServerInstanceConfig", DomainValidator), []Fact{ResourcesDomain}},
		{class(VerifyResponseClass, FailureValidator), []Fact{FailureVocabulary}},
	}
	for _, b := range ServerBases {
		mods = append(mods, module{class(b, RefusalMethod), []Fact{WorkerRefusal}})
	}
	for _, b := range ResourcesBases {
		mods = append(mods, module{class(b, CloseMethod), []Fact{CloseSession}}, module{class(b, RegisterProtocolRoutesMethod), []Fact{ProtocolRoutes}})
		for _, h := range CheckpointHookMethods {
			mods = append(mods, module{class(b, h), []Fact{CheckpointHooks}})
		}
	}
	for name, f := range exported {
		mods = append(mods, module{class(name), []Fact{f}})
	}
	for name, f := range functions {
		mods = append(mods, module{"def " + name + "():\n    return None\n", []Fact{f}})
	}
	read := map[Fact]bool{}
	for _, m := range mods {
		fw := detect(t, map[string]string{"nemo_gym/__init__.py": "", "nemo_gym/mod.py": m.src}, Options{})
		want := slices.Clone(m.want)
		slices.Sort(want)
		if got := facts(fw); fw.Modules != 1 || !slices.Equal(got, want) {
			t.Errorf("%d modules parsed, facts %v, want %v, from:\n%s", fw.Modules, got, want, m.src)
		}
		for _, f := range m.want {
			read[f] = true
		}
	}
	for _, in := range Facts {
		if !read[in.Fact] {
			t.Errorf("fact %s is read by no name of framework.go", in.Fact)
		}
	}
	for _, e := range ErrorClasses {
		if InfoOf(e.Fact) == nil || exported[e.Name] != e.Fact || e.Status < 400 || e.Status > 499 {
			t.Errorf("error class %+v", e)
		}
	}
}
