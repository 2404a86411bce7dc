package contract

import (
	"bytes"
	"slices"
	"strings"

	"github.com/gymlint/gymlint/pyscan"
)

// Server references: how a config binds one server to another. A server
// instance's settings hold, under a key of its own (resources_server,
// model_server, ...), a mapping {type: <server type>, name: <instance>},
// and the supervisor (validate_and_populate_defaults) stops the run when
// no instance of the merged config has that type and name. A mapping is a
// reference when it validates as one of the framework's reference models:
//
//	class ResourcesServerRef(BaseModel):
//	    type: Literal["resources_servers"]
//	    name: str
//
//	ServerRef = Union[ModelServerRef, ResourcesServerRef, AgentServerRef]
//
// The reference types are the literal types of those models: the members
// of the framework's ServerRef union and every class named *ServerRef
// that declares `type: Literal[...]` and `name: str`. Only modules that
// hold the word ServerRef are read for them, and of those only the ones
// that bind it, define a class whose name ends with it, or define a
// member of the union are parsed (the byte prefilter, facts.go).

// ServerRefUnion is the name of the framework's union of the server
// reference models (is_server_ref validates a config value against it),
// and the word each of their names ends with.
const ServerRefUnion = "ServerRef"

// The fields of a server reference model.
const (
	RefTypeField = "type"
	RefNameField = "name"
)

// DefaultRefTypes are the server types a reference can name when the
// framework is not found or declares no reference model: the current
// framework's, and the environment servers of newer ones.
var DefaultRefTypes = []string{"resources_servers", "responses_api_agents", "responses_api_models", "environment_servers"}

// bindsServerRef reports whether src may bind the name ServerRef to a
// value: the whole word, then, past white space, line continuations and
// comments, "=" or ":" (an assignment, an annotated one, a walrus). The
// union's members need the second pass of read: their classes may be
// named anything.
func bindsServerRef(src []byte) bool {
	found := false
	eachWord(src, []byte(ServerRefUnion), func(end int) bool {
		k := skipGap(src, end)
		found = k < len(src) && (src[k] == '=' || src[k] == ':')
		return !found
	})
	return found
}

// definesMember reports whether src may define a class of the union
// (a name that members holds), in a module that mentions ServerRef: the
// modules the prefilter would have parsed for refs before it asked where
// the word is.
func definesMember(src []byte, members map[string]bool) bool {
	if len(members) == 0 || !bytes.Contains(src, []byte(ServerRefUnion)) {
		return false
	}
	found := false
	eachDefinition(src, func(class bool, name []byte) bool {
		found = class && members[string(name)]
		return !found
	})
	return found
}

// unionOf returns the members of the framework's ServerRef unions in
// mods, by class name.
func unionOf(mods []*pyscan.Module) map[string]bool {
	inUnion := map[string]bool{}
	for _, m := range mods {
		for _, b := range m.Bindings {
			if b.Name == ServerRefUnion && b.Value != nil {
				for _, n := range unionMembers(b.Value) {
					inUnion[n] = true
				}
			}
		}
	}
	return inUnion
}

// ServerRefTypes returns the server types a config reference can name: the
// framework's (Framework.RefTypes) when it declares any, else
// DefaultRefTypes.
func (fw *Framework) ServerRefTypes() []string {
	if fw != nil && len(fw.RefTypes) > 0 {
		return fw.RefTypes
	}
	return DefaultRefTypes
}

// readRefTypes returns the literal types of the framework's server
// reference models, sorted and each once; nil when it declares none.
func readRefTypes(mods []*pyscan.Module) []string {
	inUnion := unionOf(mods)
	var out []string
	for _, m := range mods {
		for _, c := range m.Classes {
			if !inUnion[c.Name] && !strings.HasSuffix(c.Name, ServerRefUnion) {
				continue
			}
			for _, t := range refModelTypes(c) {
				if !slices.Contains(out, t) {
					out = append(out, t)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// unionMembers returns the class names of Union[A, B] (typing.Union too),
// Optional[A] and A | B, by their last name.
func unionMembers(e pyscan.Expr) []string {
	switch e := e.(type) {
	case *pyscan.Subscript:
		if n := lastName(e.Value); n != "Union" && n != "Optional" {
			return nil
		}
		if t, ok := e.Index.(*pyscan.Tuple); ok {
			var out []string
			for _, x := range t.Elts {
				out = append(out, unionMembers(x)...)
			}
			return out
		}
		return unionMembers(e.Index)
	case *pyscan.BinOp:
		if e.Op != pyscan.BitOr {
			return nil
		}
		return append(unionMembers(e.Left), unionMembers(e.Right)...)
	case *pyscan.Name, *pyscan.Attribute:
		return []string{lastName(e)}
	}
	return nil
}

// refModelTypes returns the literal types of a class that declares
// `type: Literal["t", ...]` and `name: str`, nil for any other class.
func refModelTypes(c *pyscan.Class) []string {
	name, typ := c.Attr(RefNameField), c.Attr(RefTypeField)
	if name == nil || typ == nil || lastName(name.Annotation) != "str" {
		return nil
	}
	lit, ok := typ.Annotation.(*pyscan.Subscript)
	if !ok || lastName(lit.Value) != "Literal" {
		return nil
	}
	elts := []pyscan.Expr{lit.Index}
	if t, ok := lit.Index.(*pyscan.Tuple); ok {
		elts = t.Elts
	}
	var out []string
	for _, x := range elts {
		if s, ok := x.(*pyscan.Constant); ok && s.Kind == pyscan.ConstStr && s.Value != "" {
			out = append(out, s.Value)
		}
	}
	return out
}

// lastName is the name an expression ends with: x for x and a.b.x, "" for
// anything else.
func lastName(e pyscan.Expr) string {
	switch e := e.(type) {
	case *pyscan.Name:
		return e.Id
	case *pyscan.Attribute:
		return e.Attr
	}
	return ""
}
