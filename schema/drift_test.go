package schema_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/analyzers/workers"
	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/internal/golden"
	"github.com/gymlint/gymlint/internal/repofs"
	"github.com/gymlint/gymlint/inventory"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/output"
	"github.com/gymlint/gymlint/schema"
	"github.com/gymlint/gymlint/settings"
)

var update = flag.Bool("update", false, "rewrite pyproject.schema.json from gymlint.schema.json")

// analyzers are the analyzers of the catalogue, sorted.
func analyzers() []string {
	set := map[string]bool{}
	for _, r := range lint.Rules() {
		set[r.Analyzer] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// sameSet fails t when got and want do not hold the same strings.
func sameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	g, w := slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
	if !slices.Equal(g, w) {
		t.Errorf("%s: the schema has %v, the Go code %v", what, g, w)
	}
}

// TestConfigSchemaMatchesSettings keeps gymlint.schema.json and the Go
// code from drifting: the keys, the enums, the limits and the defaults are
// the Go code's, and every key is described.
func TestConfigSchemaMatchesSettings(t *testing.T) {
	configSchema(t) // a valid draft 2020-12 schema
	m := object(t, schema.Config)
	props := at(t, m, "properties").(map[string]any)
	sameSet(t, "the configuration's keys (settings.Keys)", slices.Collect(maps.Keys(props)), settings.Keys)
	if ap, _ := m["additionalProperties"].(bool); ap {
		t.Error("settings rejects an unknown key: the schema must say additionalProperties: false")
	}
	for k, p := range props {
		if d, _ := p.(map[string]any)["description"].(string); len(d) < 20 {
			t.Errorf("%s has no description", k)
		}
	}

	sameSet(t, "contract", strs(t, at(t, m, "properties", "contract", "enum")), toStrings(contract.Modes))
	sameSet(t, "severity levels", strs(t, at(t, m, "$defs", "severityLevel", "enum")), toStrings([]diag.Severity{diag.Error, diag.Warning, diag.Info}))
	words := at(t, m, "properties", "words", "properties").(map[string]any)
	sameSet(t, "words kinds (facts.ConfigurableKinds)", slices.Collect(maps.Keys(words)), facts.ConfigurableKinds())
	for k, p := range words {
		if d, _ := p.(map[string]any)["description"].(string); d == "" {
			t.Errorf("words kind %s has no description", k)
		}
	}
	var analyzerEnum []string
	for _, alt := range at(t, m, "$defs", "selector", "anyOf").([]any) {
		if e, ok := alt.(map[string]any)["enum"]; ok {
			analyzerEnum = strs(t, e)
		}
	}
	sameSet(t, "analyzer names in a rule selector", analyzerEnum, analyzers())

	if got := at(t, m, "properties", "max_file_size", "maximum"); got != float64(repofs.DefaultMaxFileSize) {
		t.Errorf("max_file_size maximum %v, settings allows at most %d", got, repofs.DefaultMaxFileSize)
	}
	if got := at(t, m, "properties", "max_file_size", "default"); got != float64(repofs.DefaultMaxFileSize) {
		t.Errorf("max_file_size default %v, want %d", got, repofs.DefaultMaxFileSize)
	}
	if got := strs(t, at(t, m, "properties", "server_types", "default")); !slices.Equal(got, configscan.DefaultServerTypes) {
		t.Errorf("server_types default %v, want %v", got, configscan.DefaultServerTypes)
	}
	if got := at(t, m, "properties", "framework_package", "default"); got != contract.DefaultPackage {
		t.Errorf("framework_package default %v, want %s", got, contract.DefaultPackage)
	}
	if got := at(t, m, "properties", "contract", "default"); got != string(contract.Auto) {
		t.Errorf("contract default %v, want %s", got, contract.Auto)
	}

	// Every rule of the catalogue is a selector, by code, by name and by
	// analyzer; so is every code prefix of a rule, and ALL.
	sel := compile(t, "gymlint.schema.json", schema.Config, "#/$defs/selector")
	for _, r := range lint.Rules() {
		for _, s := range []string{r.Code, r.Name, r.Analyzer, r.Code[:3], r.Code[:4]} {
			if err := sel.Validate(s); err != nil {
				t.Errorf("selector %q of %s is not valid for the schema: %v", s, r.Code, err)
			}
		}
	}
	if err := sel.Validate("ALL"); err != nil {
		t.Error(err)
	}
}

func toStrings[S ~string](xs []S) []string {
	var out []string
	for _, x := range xs {
		out = append(out, string(x))
	}
	return out
}

// jsonFields are the JSON names of a struct's fields, and those that are
// always present (no omitempty).
func jsonFields(typ reflect.Type) (all, required []string) {
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		all = append(all, name)
		if !strings.Contains(opts, "omitempty") {
			required = append(required, name)
		}
	}
	return all, required
}

// checkObject checks that the schema object at keys of m has the fields
// of typ as its properties, the always-present ones required, and no
// other property.
func checkObject(t *testing.T, file string, m map[string]any, typ reflect.Type, keys ...string) {
	t.Helper()
	obj := at(t, m, keys...).(map[string]any)
	all, required := jsonFields(typ)
	what := file + " " + strings.Join(keys, "/") + " (" + typ.String() + ")"
	sameSet(t, what+" properties", slices.Collect(maps.Keys(obj["properties"].(map[string]any))), all)
	sameSet(t, what+" required", strs(t, obj["required"]), required)
	if obj["additionalProperties"] != false {
		t.Errorf("%s: additionalProperties must be false", what)
	}
}

// TestOutputSchemaMatchesJSONTypes keeps output.schema.json and
// servers.schema.json from drifting from the Go types the JSON is made
// from, and their enums from the Go lists.
func TestOutputSchemaMatchesJSONTypes(t *testing.T) {
	compile(t, "output.schema.json", schema.Output, "")
	compile(t, "servers.schema.json", schema.Servers, "")
	o := object(t, schema.Output)
	checkObject(t, "output.schema.json", o, reflect.TypeFor[output.JSONDiagnostic](), "$defs", "finding")
	checkObject(t, "output.schema.json", o, reflect.TypeFor[output.JSONRelated](), "$defs", "related")
	checkObject(t, "output.schema.json", o, reflect.TypeFor[output.JSONFix](), "$defs", "fix")
	checkObject(t, "output.schema.json", o, reflect.TypeFor[output.JSONEdit](), "$defs", "edit")
	sameSet(t, "analyzer", strs(t, at(t, o, "$defs", "finding", "properties", "analyzer", "enum")), analyzers())
	sameSet(t, "severity", strs(t, at(t, o, "$defs", "finding", "properties", "severity", "enum")), toStrings([]diag.Severity{diag.Error, diag.Warning, diag.Info}))
	sameSet(t, "applicability", strs(t, at(t, o, "$defs", "fix", "properties", "applicability", "enum")), toStrings([]diag.Applicability{diag.Safe, diag.Unsafe}))

	s := object(t, schema.Servers)
	checkObject(t, "servers.schema.json", s, reflect.TypeFor[inventory.Server](), "$defs", "server")
	checkObject(t, "servers.schema.json", s, reflect.TypeFor[inventory.Parent](), "$defs", "parent")
	checkObject(t, "servers.schema.json", s, reflect.TypeFor[inventory.Hazard](), "$defs", "hazard")
	checkObject(t, "servers.schema.json", s, reflect.TypeFor[inventory.Contract](), "$defs", "server", "properties", "contract")
	sameSet(t, "session_methods", strs(t, at(t, s, "$defs", "server", "properties", "session_methods", "items", "enum")), inventory.SessionMethods)
	// Each worker status is a value of the workers column.
	ws := compile(t, "servers.schema.json", schema.Servers, "#/$defs/server/properties/workers")
	for _, st := range []string{workers.StatusApp, workers.StatusRefusesAlways, workers.StatusRefusesWhen, workers.StatusNoApp,
		workers.StatusUndeclared, workers.StatusExempt, workers.StatusUnknown, workers.StatusRefusesWhen + " (+app)"} {
		if err := ws.Validate(st); err != nil {
			t.Errorf("workers %q: %v", st, err)
		}
	}
}

// pyProjectSchema makes pyproject.schema.json from gymlint.schema.json: a
// schema that a TOML editor associates with a file applies to the whole
// file, so gymlint's goes under tool.gymlint, with its $defs at the top
// (where its references point), and the rest of the file is free.
func pyProjectSchema(t *testing.T) []byte {
	conf := object(t, schema.Config)
	defs := conf["$defs"]
	for _, k := range []string{"$schema", "$defs", "title"} {
		delete(conf, k)
	}
	conf["type"] = "object" // a table, never null
	wrapper := map[string]any{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"title":       "pyproject.toml with gymlint's configuration",
		"description": "A pyproject.toml whose [tool.gymlint] table is gymlint's configuration (the schema of .gymlint.yaml, gymlint.schema.json); the other tables are not checked. Made from gymlint.schema.json: do not edit (go test ./schema -update). Printed by `gymlint config --schema=pyproject`.",
		"type":        "object",
		"properties": map[string]any{
			"tool": map[string]any{
				"type":       "object",
				"properties": map[string]any{"gymlint": conf},
			},
		},
		"$defs": defs,
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(wrapper); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestPyProjectSchemaIsMade checks that pyproject.schema.json is what
// gymlint.schema.json makes. Regenerate with: go test ./schema -update
func TestPyProjectSchemaIsMade(t *testing.T) {
	golden.Check(t, filepath.Join(".", "pyproject.schema.json"), pyProjectSchema(t), *update, "update")
	compile(t, "pyproject.schema.json", schema.PyProject, "")
}

// draft7 are the keywords the schemas may use: those that draft 7 has too
// ($defs is only where definitions are: a reference is a JSON pointer),
// so that an editor that implements draft 7 (the YAML language server
// does) reads them as a draft 2020-12 validator does.
var draft7 = map[string]bool{
	"$schema": true, "$ref": true, "$defs": true, "title": true, "description": true, "default": true,
	"type": true, "enum": true, "const": true, "properties": true, "additionalProperties": true, "required": true,
	"propertyNames": true, "items": true, "minItems": true, "minLength": true, "pattern": true, "minimum": true,
	"maximum": true, "anyOf": true, "not": true,
}

// TestSchemasReadAsDraft7 checks that each schema uses only keywords of
// draft 7, and no keyword that validates beside a $ref (draft 7 ignores
// those).
func TestSchemasReadAsDraft7(t *testing.T) {
	var walk func(file, at string, s map[string]any)
	walk = func(file, at string, s map[string]any) {
		_, ref := s["$ref"]
		for k, v := range s {
			switch {
			case !draft7[k]:
				t.Errorf("%s %s: keyword %s is not one of draft 7's", file, at, k)
			case ref && k != "$ref" && k != "description" && k != "title" && k != "default":
				t.Errorf("%s %s: %s beside $ref", file, at, k)
			}
			switch k {
			case "properties", "$defs":
				for name, sub := range v.(map[string]any) {
					walk(file, at+"/"+k+"/"+name, sub.(map[string]any))
				}
			case "items", "additionalProperties", "not", "propertyNames":
				if sub, ok := v.(map[string]any); ok {
					walk(file, at+"/"+k, sub)
				}
			case "anyOf":
				for i, sub := range v.([]any) {
					walk(file, fmt.Sprintf("%s/%s/%d", at, k, i), sub.(map[string]any))
				}
			}
		}
	}
	for file, data := range map[string][]byte{"gymlint.schema.json": schema.Config, "pyproject.schema.json": schema.PyProject,
		"output.schema.json": schema.Output, "servers.schema.json": schema.Servers} {
		walk(file, "#", object(t, data))
	}
}
