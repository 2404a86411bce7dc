package settings

import (
	"strings"

	"github.com/BurntSushi/toml"
)

// The repository's isort configuration: which modules it calls first
// party (known-first-party), as ruff and isort read it, so that the
// imports gymlint's fixes add go where the repository's import sorter
// puts them (gym.Options.KnownFirstParty). This is no gymlint key: it is
// read from the other tools' tables, and whatever is wrong there (a file
// that cannot be read, a syntax error, a value of another type, a table
// nested too deep) is theirs to report, so gymlint ignores it and reads
// no setting from that table.

// Ruff's configuration files, in the precedence ruff gives them in one
// directory: .ruff.toml, then ruff.toml, then pyproject.toml. Ruff reads
// the first that exists (a pyproject.toml only when it has [tool.ruff]);
// in it, lint.isort's known-first-party, else the older isort one.
const (
	dotRuffTOML = ".ruff.toml"
	ruffTOML    = "ruff.toml"
)

// The keys of known-first-party, most preferred first in each file.
var (
	ruffKeys = [][]string{
		{"lint", "isort", "known-first-party"},
		{"isort", "known-first-party"},
	}
	pyprojectRuffKeys = [][]string{
		{"tool", "ruff", "lint", "isort", "known-first-party"},
		{"tool", "ruff", "isort", "known-first-party"},
	}
	// isort's own, in pyproject.toml: a list, or a string of
	// comma-separated names.
	isortKey = []string{"tool", "isort", "known_first_party"}
)

// isortSelection keeps the keys of known-first-party (and nothing else of
// the tables they lie in) in a TOML file.
func isortSelection(keys ...[]string) tomlSelection {
	return tomlSelection{tables: keys, tooDeep: "known-first-party nests too deep"}
}

var (
	ruffSelection      = isortSelection(ruffKeys...)
	pyprojectSelection = isortSelection(append(append([][]string{}, pyprojectRuffKeys...), isortKey)...)
)

// ReadKnownFirstParty reads the known-first-party setting of the
// repository at root: ruff's, from the configuration file ruff reads at
// the root (.ruff.toml, ruff.toml or pyproject.toml's [tool.ruff], in that
// precedence), else isort's ([tool.isort] known_first_party in
// pyproject.toml). The entries are module names or globs of them, as
// given; nil when neither tool sets it.
func ReadKnownFirstParty(root string) []string {
	var ruff, py map[string]any
	ruffFile := false
	for _, name := range []string{dotRuffTOML, ruffTOML} {
		if data, found, err := readConfig(root, name); found {
			ruffFile = true // ruff reads this file, and no other
			if err == nil {
				ruff = decodeSelected(data, ruffSelection)
			}
			break
		}
	}
	if data, found, err := readConfig(root, PyProject); found && err == nil {
		py = decodeSelected(data, pyprojectSelection)
	}
	keys := ruffKeys
	if !ruffFile {
		ruff, keys = py, pyprojectRuffKeys
	}
	for _, k := range keys {
		if list, ok := moduleList(lookupTOML(ruff, k), false); ok {
			return list
		}
	}
	list, _ := moduleList(lookupTOML(py, isortKey), true)
	return list
}

// decodeSelected decodes what sel selects of data; nil when the TOML
// cannot be read.
func decodeSelected(data []byte, sel tomlSelection) (doc map[string]any) {
	defer func() {
		if r := recover(); r != nil {
			doc = nil
		}
	}()
	kept, err := selectTOML("", data, sel)
	if err != nil {
		return nil
	}
	if _, err := toml.Decode(string(kept), &doc); err != nil {
		return nil
	}
	return doc
}

// lookupTOML is the value at the dotted key k of a decoded TOML document;
// nil when there is none.
func lookupTOML(doc map[string]any, k []string) any {
	var v any = doc
	for _, seg := range k {
		t, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = t[seg]
	}
	return v
}

// moduleList reads a known-first-party value: a list of strings, or with
// commaString (isort's) a string of comma- or newline-separated names too.
// Names are trimmed and empty ones dropped. ok is false when v is absent
// or of another type (the whole value is then ignored, as the tool would
// refuse it).
func moduleList(v any, commaString bool) (list []string, ok bool) {
	var raw []string
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			s, isString := e.(string)
			if !isString {
				return nil, false
			}
			raw = append(raw, s)
		}
	case string:
		if !commaString {
			return nil, false
		}
		raw = strings.FieldsFunc(x, func(r rune) bool { return r == ',' || r == '\n' })
	default:
		return nil, false
	}
	for _, s := range raw {
		if s = strings.TrimSpace(s); s != "" {
			list = append(list, s)
		}
	}
	return list, true
}
