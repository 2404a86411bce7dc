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

// A module gives a fact only where it holds one of the names of
// framework.go, and the prefilter (mayHoldFacts) asks for each name where
// a fact needs it, so that a module that only imports or calls one is not
// parsed: that saves parsing most of the framework; the facts are still
// read from the model of the modules that are parsed.
//   - defNames: a method or function, which the model has only from a
//     `def NAME` (the keyword, then NAME after white space, line
//     continuations and comments: tree-sitter takes a comment there);
//   - classPrefixes: a class whose name begins so, from `class NAME`;
//   - words: anywhere (a read of ray_enabled is a fact; a binding of
//     RESERVED_MCP_TOOL_NAMES is one whatever binds it, an import too);
//   - the server reference union (refs.go): a binding of ServerRef or a
//     class whose name ends with it, and a second pass for the union's
//     other members (read).
//
// tree-sitter puts no definition together without its keyword: its
// recovery inserts a missing token only where the parse fails, and at a
// name that starts a statement nothing has failed yet, so the keyword the
// prefilter looks for is in the text of every def and class the model
// has, broken modules' too.
var (
	defNames = []string{
		RefusalMethod, CloseMethod,
		CheckpointStartsMethod, CheckpointVerifyMethod, CheckpointEndedMethod,
		LostSessionFunc, TokenSerializerFunc,
		DomainValidator, EntrypointFunc, RefuseWorkersFunc,
	}
	classPrefixes = []string{sessionClassPrefix, SeedRejectedErrorClass}
	words         = [][]byte{[]byte(RayEnabledAttr), []byte(ReservedMCPToolNamesBinding)}
)

func init() {
	for _, e := range ErrorClasses {
		exported[e.Name] = e.Fact
	}
}

// holdsFacts is the prefilter read uses: mayHoldFacts, but for the test
// that compares it with asking for the names anywhere.
var holdsFacts = mayHoldFacts

// mayHoldFacts reports whether a module's text can give a fact: it holds
// a name where the fact needs it (see above).
func mayHoldFacts(src []byte) bool {
	for _, w := range words {
		if bytes.Contains(src, w) {
			return true
		}
	}
	if bindsServerRef(src) {
		return true
	}
	found := false
	eachDefinition(src, func(class bool, name []byte) bool {
		if class {
			found = hasPrefix(name, classPrefixes) || bytes.HasSuffix(name, []byte(ServerRefUnion))
		} else {
			found = isOneOf(name, defNames)
		}
		return !found
	})
	return found
}

// eachDefinition calls fn with the name after every `def` and `class`
// keyword of src (class is true for a class), past the white space, line
// continuations and comments between, until fn returns false. A keyword
// is a whole word; words inside strings and comments are taken too, which
// only makes the prefilter let more through.
func eachDefinition(src []byte, fn func(class bool, name []byte) bool) {
	for _, kw := range []string{"def", "class"} {
		more := true
		eachWord(src, []byte(kw), func(end int) bool {
			start := skipGap(src, end)
			stop := start
			for stop < len(src) && identByte(src[stop]) {
				stop++
			}
			more = stop == start || fn(kw == "class", src[start:stop])
			return more
		})
		if !more {
			return
		}
	}
}

// eachWord calls fn with the end of every occurrence of w in src that is
// a whole word (no identifier byte on either side), until fn returns
// false.
func eachWord(src, w []byte, fn func(end int) bool) {
	for i := 0; ; {
		j := bytes.Index(src[i:], w)
		if j < 0 {
			return
		}
		at, end := i+j, i+j+len(w)
		i = end
		if at > 0 && identByte(src[at-1]) || end < len(src) && identByte(src[end]) {
			continue
		}
		if !fn(end) {
			return
		}
	}
}

// skipGap returns the index of the first byte at or after i that is not
// white space (newlines too), a backslash or part of a comment.
func skipGap(src []byte, i int) int {
	for i < len(src) {
		switch src[i] {
		case ' ', '\t', '\f', '\v', '\r', '\n', '\\':
			i++
		case '#':
			nl := bytes.IndexByte(src[i:], '\n')
			if nl < 0 {
				return len(src)
			}
			i += nl + 1
		default:
			return i
		}
	}
	return i
}

// identByte reports whether b can be part of an identifier: an ASCII
// letter, digit or "_", or any byte of a multi-byte UTF-8 character.
func identByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

func isOneOf(name []byte, list []string) bool {
	for _, s := range list {
		if string(name) == s {
			return true
		}
	}
	return false
}

func hasPrefix(name []byte, prefixes []string) bool {
	for _, p := range prefixes {
		if bytes.HasPrefix(name, []byte(p)) {
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
