package settings

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"
)

// PyProject is the Python project file whose [tool.gymlint] table gymlint
// reads when there is no .gymlint.yaml.
const PyProject = "pyproject.toml"

// ParseTOML reads the [tool.gymlint] table of a pyproject.toml. ok is false
// when the file has no such table.
//
// The TOML is converted to the same tree as a .gymlint.yaml, so both files
// accept the same keys with the same checks. Lines: BurntSushi/toml reports
// the line of each key, but not per entry of an array of tables, so keys in
// a [[tool.gymlint.per_path_ignores]] or [[tool.gymlint.exempt]] entry are
// reported at the entry's header line.
//
// Only what can belong to [tool.gymlint] is decoded (selectGymlint): the
// rest of the file, another tool's tables, is not checked and costs a
// linear scan, however it nests. In tool.gymlint, nesting deeper than
// maxTOMLDepth levels is an error.
func ParseTOML(name string, data []byte) (s *Settings, ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, ok, err = nil, true, &Error{File: name, Msg: fmt.Sprintf("cannot read the configuration: %v", r)}
		}
	}()
	kept, serr := selectGymlint(name, data)
	if serr != nil {
		return nil, true, serr
	}
	var doc struct {
		Tool map[string]toml.Primitive `toml:"tool"`
	}
	md, derr := toml.Decode(string(kept), &doc)
	if derr != nil {
		var pe toml.ParseError
		if errors.As(derr, &pe) {
			return nil, true, &Error{File: name, Line: pe.Position.Line, Msg: pe.Message}
		}
		return nil, true, &Error{File: name, Line: tomlErrorLine(derr), Msg: strings.TrimPrefix(derr.Error(), "toml: ")}
	}
	prim, found := doc.Tool["gymlint"]
	if !found {
		return &Settings{}, false, nil
	}
	var table map[string]toml.Primitive
	if err := md.PrimitiveDecode(prim, &table); err != nil {
		return nil, true, &Error{File: name, Line: keyLine(md, prim), Msg: "tool.gymlint must be a table"}
	}
	headers := arrayTableLines(kept)
	root := &yaml.Node{Kind: yaml.MappingNode, Line: keyLine(md, prim), Column: 1}
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { // file order, then name
		li, lj := keyLine(md, table[keys[i]]), keyLine(md, table[keys[j]])
		if li != lj {
			return li < lj
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		p := table[k]
		line := keyLine(md, p)
		var v any
		if err := md.PrimitiveDecode(p, &v); err != nil {
			return nil, true, &Error{File: name, Line: line, Msg: err.Error()}
		}
		var val *yaml.Node
		if _, isTable := v.(map[string]any); isTable {
			// An inline or nested table (severity): each key has its line.
			var sub map[string]toml.Primitive
			if err := md.PrimitiveDecode(p, &sub); err != nil {
				return nil, true, &Error{File: name, Line: line, Msg: err.Error()}
			}
			val = &yaml.Node{Kind: yaml.MappingNode, Line: line, Column: 1}
			subKeys := make([]string, 0, len(sub))
			for sk := range sub {
				subKeys = append(subKeys, sk)
			}
			sort.Strings(subKeys)
			for _, sk := range subKeys {
				var sv any
				if err := md.PrimitiveDecode(sub[sk], &sv); err != nil {
					return nil, true, &Error{File: name, Line: line, Msg: err.Error()}
				}
				sl := keyLine(md, sub[sk])
				val.Content = append(val.Content, scalarNode(sk, sl), tomlNode(sv, sl, nil))
			}
		} else {
			val = tomlNode(v, line, headers[k])
		}
		root.Content = append(root.Content, scalarNode(k, line), val)
	}
	s = &Settings{File: name}
	if err := s.fromMapping(name, data, root); err != nil {
		return nil, true, err
	}
	return s, true, nil
}

func scalarNode(v string, line int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Line: line, Column: 1}
}

// tomlNode converts a decoded TOML value into a YAML node at line. When v
// is an array of tables, entryLines are the lines of its entries' headers.
func tomlNode(v any, line int, entryLines []int) *yaml.Node {
	switch x := v.(type) {
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Line: line, Column: 1}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			n.Content = append(n.Content, scalarNode(k, line), tomlNode(x[k], line, nil))
		}
		return n
	case []map[string]any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Line: line, Column: 1}
		for i, e := range x {
			l := line
			if len(entryLines) == len(x) {
				l = entryLines[i]
			}
			n.Content = append(n.Content, tomlNode(e, l, nil))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Line: line, Column: 1}
		for _, e := range x {
			n.Content = append(n.Content, tomlNode(e, line, nil))
		}
		return n
	case string:
		return scalarNode(x, line)
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(x, 10), Line: line, Column: 1}
	case float64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(x, 'g', -1, 64), Line: line, Column: 1}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x), Line: line, Column: 1}
	case time.Time:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: x.String(), Line: line, Column: 1}
	default:
		return scalarNode(fmt.Sprint(x), line)
	}
}

// keyLine is the line of the key that holds p. BurntSushi/toml keeps key
// positions private, but names the line in the error it returns when asked
// to decode a value into a type it cannot hold; that is used here.
func keyLine(md toml.MetaData, p toml.Primitive) int {
	var f func()
	return tomlErrorLine(md.PrimitiveDecode(p, &f))
}

var tomlLineRE = regexp.MustCompile(`line (\d+)`)

func tomlErrorLine(err error) int {
	if err == nil {
		return 0
	}
	m := tomlLineRE.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// arrayTableLines finds the [[tool.gymlint.KEY]] headers: KEY → the lines of
// its entries, in order.
func arrayTableLines(data []byte) map[string][]int {
	out := map[string][]int{}
	for i, ln := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(ln)
		if !strings.HasPrefix(t, "[[") {
			continue
		}
		end := strings.Index(t, "]]")
		if end < 0 {
			continue
		}
		var parts []string
		for _, p := range strings.Split(t[2:end], ".") {
			parts = append(parts, strings.Trim(strings.TrimSpace(p), `"'`))
		}
		if len(parts) == 3 && parts[0] == "tool" && parts[1] == "gymlint" {
			out[parts[2]] = append(out[parts[2]], i+1)
		}
	}
	return out
}
