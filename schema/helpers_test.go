package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/gymlint/gymlint/schema"
)

// repoRoot is the top of the repository, from this package's directory.
const repoRoot = ".."

// compile compiles one of the schemas with santhosh-tekuri/jsonschema
// (draft 2020-12), which also checks it against the draft's metaschema.
// ref, when not "", is a JSON pointer to a subschema ("#/$defs/selector").
func compile(t testing.TB, name string, data []byte, ref string) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s is not JSON: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "file:///gymlint/schema/" + name
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sch, err := c.Compile(url + ref)
	if err != nil {
		t.Fatalf("%s%s does not compile: %v", name, ref, err)
	}
	return sch
}

func configSchema(t testing.TB) *jsonschema.Schema {
	return compile(t, "gymlint.schema.json", schema.Config, "")
}

// jsonDoc decodes JSON as the validator wants it (numbers as json.Number).
func jsonDoc(t testing.TB, name string, data []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s is not JSON: %v", name, err)
	}
	return v
}

// object decodes a schema file into maps, to read its keywords.
func object(t testing.TB, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// at follows a path of object keys from m.
func at(t testing.TB, m map[string]any, keys ...string) any {
	t.Helper()
	var v any = m
	for _, k := range keys {
		o, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: not an object at %q", strings.Join(keys, "/"), k)
		}
		if v, ok = o[k]; !ok {
			t.Fatalf("%s: no %q", strings.Join(keys, "/"), k)
		}
	}
	return v
}

// strs is a JSON array of strings as a Go slice.
func strs(t testing.TB, v any) []string {
	t.Helper()
	a, ok := v.([]any)
	if !ok {
		t.Fatalf("%v is not an array", v)
	}
	var out []string
	for _, x := range a {
		s, ok := x.(string)
		if !ok {
			t.Fatalf("%v is not a string", x)
		}
		out = append(out, s)
	}
	return out
}

// yamlValue is a YAML document as JSON sees it (as the YAML language
// server validates it): mappings with their keys' text, sequences,
// strings, numbers, booleans and null; an alias is what it names.
func yamlValue(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yamlValue(n.Content[0])
	case yaml.AliasNode:
		return yamlValue(n.Alias)
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yaml.AliasNode {
				k = k.Alias
			}
			v, err := yamlValue(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[k.Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		a := []any{}
		for _, c := range n.Content {
			v, err := yamlValue(c)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		return a, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return nil, nil
		case "!!bool", "!!int", "!!float":
			var v any
			if err := n.Decode(&v); err != nil {
				return nil, err
			}
			return v, nil
		}
		return n.Value, nil
	}
	return nil, fmt.Errorf("line %d: YAML node of kind %v", n.Line, n.Kind)
}

// parseYAML reads one YAML document; ok is false when it is not one (a
// syntax error, several documents).
func parseYAML(data []byte) (doc *yaml.Node, ok bool) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var n yaml.Node
	if err := dec.Decode(&n); err != nil {
		return &yaml.Node{Kind: yaml.DocumentNode}, errors.Is(err, io.EOF) // EOF: no document
	}
	var extra yaml.Node
	if dec.Decode(&extra) == nil {
		return nil, false
	}
	return &n, true
}

// tomlValue is a decoded TOML value as JSON sees it (as Taplo validates
// it): dates and times are strings.
func tomlValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := map[string]any{}
		for k, e := range x {
			m[k] = tomlValue(e)
		}
		return m
	case []map[string]any:
		a := []any{}
		for _, e := range x {
			a = append(a, tomlValue(e))
		}
		return a
	case []any:
		a := []any{}
		for _, e := range x {
			a = append(a, tomlValue(e))
		}
		return a
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case string, int64, float64, bool:
		return x
	}
	return fmt.Sprint(v)
}

// parsePyProject decodes a pyproject.toml: the whole document and its
// tool.gymlint table (found false when there is none). ok is false when
// the file is not TOML.
func parsePyProject(data []byte) (whole map[string]any, table any, found, ok bool) {
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil, nil, false, false
	}
	whole = tomlValue(doc).(map[string]any)
	tool, _ := whole["tool"].(map[string]any)
	table, found = tool["gymlint"]
	return whole, table, found, true
}

// read reads a file of the repository.
func read(t testing.TB, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
