package contract

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/pyscan"
)

// The facts are read by the names of framework.go. The classes are found
// by name in any module of the package (the framework moved them between
// modules: nemo_gym.base_resources_server, later
// nemo_gym.server_runtime.base_resources_server).

// exported are the facts that hold when the framework defines a class of
// that name at module scope.
var exported = map[string]Fact{
	SessionFencesClass: SessionFences,
	SessionLocksClass:  SessionLocks,
}

// functions are the facts that hold when the framework defines a module
// function of that name.
var functions = map[string]Fact{
	LostSessionFunc:     LostSession,
	TokenSerializerFunc: MCPTokenSerializer,
}

// sessionClassPrefix begins the names of the session classes
// (ResourcesSessionFences, ResourcesSessionLocks,
// ResourcesSessionConflictError, ResourcesSessionLostError): one name in
// names for them all.
const sessionClassPrefix = "ResourcesSession"

// names are identifiers of which every fact needs one in the module it is
// read from (a method, class, function or binding of that name, or a read
// of ray_enabled). A module whose text has none of them gives no fact and
// is not parsed: that saves parsing most of the framework; the facts are
// still read from the model of the modules that are parsed.
var names = [][]byte{
	[]byte(RefusalMethod), []byte(RayEnabledAttr), []byte(CloseMethod),
	[]byte(CheckpointStartsMethod), []byte(CheckpointVerifyMethod), []byte(CheckpointEndedMethod),
	[]byte(sessionClassPrefix), []byte(SeedRejectedErrorClass),
	[]byte(LostSessionFunc), []byte(ReservedMCPToolNamesBinding),
	[]byte(TokenSerializerFunc),
	[]byte(DomainValidator), []byte(EntrypointFunc), []byte(RefuseWorkersFunc),
}

func init() {
	for _, e := range ErrorClasses {
		exported[e.Name] = e.Fact
	}
}

func mayHoldFacts(src []byte) bool {
	for _, n := range names {
		if bytes.Contains(src, n) {
			return true
		}
	}
	return false
}

// readFacts fills fw.Facts from the framework's modules.
func readFacts(fw *Framework, mods []*pyscan.Module) {
	set := func(f Fact, m *pyscan.Module, s pyscan.Span) {
		if _, ok := fw.Facts[f]; !ok {
			fw.Facts[f] = fmt.Sprintf("%s:%d", m.Path, m.Pos(s.Start).Line)
		}
	}
	for _, m := range mods {
		record := func(name string) {
			if fw.FuncModules[name] == "" {
				if fw.FuncModules == nil {
					fw.FuncModules = map[string]string{}
				}
				fw.FuncModules[name] = fromPackage(m.Name, fw.Package)
			}
		}
		for _, c := range m.Classes {
			if f, ok := exported[c.Name]; ok {
				set(f, m, c.NameSpan)
				record(c.Name)
			}
			if fn := c.Method(DomainValidator); fn != nil {
				set(ResourcesDomain, m, fn.NameSpan)
			}
			if in(c.Name, ServerBases) {
				if fn := c.Method(RefusalMethod); fn != nil {
					set(WorkerRefusal, m, fn.NameSpan)
				}
				if at := c.Attr(RayEnabledAttr); at != nil && isClassVar(at.Annotation) {
					set(RayDeclaration, m, at.Span)
				}
			}
			if in(c.Name, ResourcesBases) {
				if fn := c.Method(CloseMethod); fn != nil {
					set(CloseSession, m, fn.NameSpan)
				}
				for _, h := range CheckpointHookMethods {
					if fn := c.Method(h); fn != nil {
						set(CheckpointHooks, m, fn.NameSpan)
					}
				}
			}
		}
		for _, fn := range m.Functions {
			if f, ok := functions[fn.Name]; ok {
				set(f, m, fn.NameSpan)
				record(fn.Name)
			}
			if fn.Name == EntrypointFunc || fn.Name == RefuseWorkersFunc {
				record(fn.Name)
			}
		}
		for _, b := range m.Bindings {
			if b.Name == ReservedMCPToolNamesBinding {
				set(ReservedMCPToolNames, m, b.Span)
			}
		}
		readResponseFacts(m, set)
		if s, ok := readsRayEnabled(m); ok {
			set(RayPerDeclaration, m, s)
		}
	}
	readProtocolFacts(set, mods)
	fw.RefTypes = readRefTypes(mods)
	// Ray is started per declaration only where servers declare it.
	if _, ok := fw.Facts[RayDeclaration]; !ok {
		delete(fw.Facts, RayPerDeclaration)
	}
}

// fromPackage is a module's dotted name from the framework package on
// (the package may sit below the scanned root, as third_party/nemo_gym
// does): "third_party.nemo_gym.server_utils" is "nemo_gym.server_utils".
func fromPackage(name, pkg string) string {
	parts := strings.Split(name, ".")
	for i, p := range parts {
		if p == pkg {
			return strings.Join(parts[i:], ".")
		}
	}
	return name
}

// readsRayEnabled finds the first read of an attribute ray_enabled in m
// (`cls.ray_enabled`, `getattr(server, "ray_enabled", False)`): the
// framework deciding by a server's declaration. The declaration itself is
// a class-body binding, not an attribute.
func readsRayEnabled(m *pyscan.Module) (pyscan.Span, bool) {
	var at pyscan.Span
	found := false
	pyscan.InspectBody(m.Body, func(n pyscan.Node, _ []pyscan.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *pyscan.Attribute:
			if n.Attr == RayEnabledAttr {
				at, found = n.Span, true
			}
		case *pyscan.Call:
			if name, ok := n.Func.(*pyscan.Name); ok && name.Id == "getattr" && len(n.Args) >= 2 {
				if c, ok := n.Args[1].Value.(*pyscan.Constant); ok && c.Kind == pyscan.ConstStr && c.Value == RayEnabledAttr {
					at, found = n.Span, true
				}
			}
		}
		return !found
	})
	return at, found
}

// isClassVar reports whether an annotation is typing's ClassVar, bare or
// subscripted, by the names the framework writes it with (ClassVar,
// typing.ClassVar, t.ClassVar).
func isClassVar(e pyscan.Expr) bool {
	if s, ok := e.(*pyscan.Subscript); ok {
		e = s.Value
	}
	switch e := e.(type) {
	case *pyscan.Name:
		return e.Id == "ClassVar"
	case *pyscan.Attribute:
		return e.Attr == "ClassVar"
	}
	return false
}

func in(s string, list []string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
