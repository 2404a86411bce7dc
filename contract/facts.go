package contract

import (
	"bytes"
	"fmt"

	"github.com/gymlint/gymlint/pyscan"
)

// The framework's names the facts are read from. The classes are found by
// name in any module of the package (the framework moved them between
// modules: nemo_gym.base_resources_server, later
// nemo_gym.server_runtime.base_resources_server).
var (
	resourcesBases = []string{"BaseResourcesServer", "SimpleResourcesServer"}
	// serverBases are the server bases of every server type.
	serverBases = append([]string{"BaseServer", "SimpleServer",
		"BaseResponsesAPIAgent", "SimpleResponsesAPIAgent", "BaseResponsesAPIModel", "SimpleResponsesAPIModel"}, resourcesBases...)
	checkpointHook = []string{"checkpoint_session_starts", "checkpoint_verify", "checkpoint_session_ended"}
)

// exported are the facts that hold when the framework defines a class of
// that name at module scope.
var exported = map[string]Fact{
	"ResourcesSessionFences":        SessionFences,
	"ResourcesSessionLocks":         SessionLocks,
	"ResourcesSeedRejectedError":    SeedRejectedError,
	"ResourcesSessionConflictError": SessionConflictError,
	"ResourcesSessionLostError":     SessionLostError,
}

// names are identifiers of which every fact needs one in the module it is
// read from (a method, class, function or binding of that name, or a read
// of ray_enabled). A module whose text has none of them gives no fact and
// is not parsed: that saves parsing most of the framework; the facts are
// still read from the model of the modules that are parsed.
var names = [][]byte{
	[]byte("multiple_workers_unsupported_reason"), []byte("ray_enabled"), []byte("close_resources_session"),
	[]byte("checkpoint_session_starts"), []byte("checkpoint_verify"), []byte("checkpoint_session_ended"),
	[]byte("ResourcesSession"), []byte("ResourcesSeedRejectedError"),
	[]byte("lost_session_verification"), []byte("RESERVED_MCP_TOOL_NAMES"),
	[]byte("mcp_session_token_serializer"),
	[]byte(domainValidator),
}

// domainValidator is the validator of the framework's server instance
// config that requires a resources server's domain.
const domainValidator = "validate_domain_for_resources_server"

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
		for _, c := range m.Classes {
			if f, ok := exported[c.Name]; ok {
				set(f, m, c.NameSpan)
			}
			if fn := c.Method(domainValidator); fn != nil {
				set(ResourcesDomain, m, fn.NameSpan)
			}
			if in(c.Name, serverBases) {
				if fn := c.Method("multiple_workers_unsupported_reason"); fn != nil {
					set(WorkerRefusal, m, fn.NameSpan)
				}
				if at := c.Attr("ray_enabled"); at != nil && isClassVar(at.Annotation) {
					set(RayDeclaration, m, at.Span)
				}
			}
			if in(c.Name, resourcesBases) {
				if fn := c.Method("close_resources_session"); fn != nil {
					set(CloseSession, m, fn.NameSpan)
				}
				for _, h := range checkpointHook {
					if fn := c.Method(h); fn != nil {
						set(CheckpointHooks, m, fn.NameSpan)
					}
				}
			}
		}
		for _, fn := range m.Functions {
			if fn.Name == "lost_session_verification" {
				set(LostSession, m, fn.NameSpan)
			}
			if fn.Name == "mcp_session_token_serializer" {
				set(MCPTokenSerializer, m, fn.NameSpan)
			}
		}
		for _, b := range m.Bindings {
			if b.Name == "RESERVED_MCP_TOOL_NAMES" {
				set(ReservedMCPToolNames, m, b.Span)
			}
		}
		readResponseFacts(m, set)
		if s, ok := readsRayEnabled(m); ok {
			set(RayPerDeclaration, m, s)
		}
	}
	readProtocolFacts(set, mods)
	// Ray is started per declaration only where servers declare it.
	if _, ok := fw.Facts[RayDeclaration]; !ok {
		delete(fw.Facts, RayPerDeclaration)
	}
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
			if n.Attr == "ray_enabled" {
				at, found = n.Span, true
			}
		case *pyscan.Call:
			if name, ok := n.Func.(*pyscan.Name); ok && name.Id == "getattr" && len(n.Args) >= 2 {
				if c, ok := n.Args[1].Value.(*pyscan.Constant); ok && c.Kind == pyscan.ConstStr && c.Value == "ray_enabled" {
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
