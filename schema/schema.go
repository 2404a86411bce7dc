// Package schema holds gymlint's JSON Schemas (draft 2020-12), embedded
// in the binary:
//
//   - gymlint.schema.json, the configuration: .gymlint.yaml, and the
//     [tool.gymlint] table of pyproject.toml, which takes the same keys
//     (package settings reads both). `gymlint config --schema` prints it,
//     for the YAML language server and other editors.
//   - pyproject.schema.json, a whole pyproject.toml with that schema under
//     tool.gymlint (a schema that Taplo associates with a TOML file applies
//     to the whole file): `gymlint config --schema=pyproject`. It is made
//     from gymlint.schema.json (go test ./schema -update rewrites it).
//   - output.schema.json, the JSON output of the check (--format json:
//     output.JSONDiagnostic).
//   - servers.schema.json, the rows of `gymlint servers --format json`
//     (inventory.Server).
//
// The files are the source; the tests keep them and the Go code from
// drifting apart: every key of settings.Keys is a property of the
// configuration schema and every property a key, its enums are the Go
// lists (severities, contract modes, word kinds, analyzers), every field
// of the JSON output types is a property, and the configurations and
// outputs of the repository validate (a configuration exactly when
// settings accepts it, where a schema can say so).
package schema

import _ "embed"

// Config is the JSON Schema of gymlint's configuration.
//
//go:embed gymlint.schema.json
var Config []byte

// PyProject is the JSON Schema of a pyproject.toml whose [tool.gymlint]
// table is gymlint's configuration (Config); other tables are free.
//
//go:embed pyproject.schema.json
var PyProject []byte

// Output is the JSON Schema of the check's JSON output (--format json).
//
//go:embed output.schema.json
var Output []byte

// Servers is the JSON Schema of `gymlint servers --format json`.
//
//go:embed servers.schema.json
var Servers []byte
