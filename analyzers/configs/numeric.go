package configs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
)

// NonNumericSetting is rule GL403.
var NonNumericSetting = &diag.Rule{
	Code: "GL403", Name: "non-numeric-setting", Analyzer: "configs", Severity: diag.Error,
	Summary: "A numeric setting of a server (port, num_workers, a *_timeout_seconds, a number field of its config class) is neither a number nor a numeric string.",
	Doc:     ruleDoc("GL403"),
}

// fallbackNumeric are the numeric fields of the framework's
// BaseServerConfig in the snapshot gymlint was written against (port: int,
// num_workers: Optional[int]), used when the framework's classes cannot
// be read.
var fallbackNumeric = []string{"port", "num_workers"}

// timeoutSuffix marks a setting that is a number of seconds by convention.
const timeoutSuffix = "_timeout_seconds"

// NumericKeys answers, for a server, which of its settings are numeric
// and why (the class that declares it, or the convention).
type NumericKeys struct {
	class  string // the config class's name, "" when unknown
	fields facts.ConfigFields
	known  bool
}

// numericKeysOf reads the config class of the entrypoint's server.
func numericKeysOf(v *gym.View, e *gym.Entrypoint) NumericKeys {
	if e == nil || len(e.Servers) != 1 {
		return NumericKeys{}
	}
	c, ok := facts.ServerConfigClass(v, e.Servers[0].Class)
	if !ok {
		return NumericKeys{}
	}
	return NumericKeys{class: c.Class.Name, fields: facts.ConfigFieldsOf(v, c), known: true}
}

// Numeric reports whether key is a numeric setting, and why.
func (k NumericKeys) Numeric(key string) (why string, ok bool) {
	if k.known {
		if kind, declared := k.fields.Fields[key]; declared {
			if kind == facts.FieldNumeric {
				return "the config class " + k.class + " declares it as a number", true
			}
			return "", false
		}
	}
	if (!k.known || !k.fields.Complete) && (key == fallbackNumeric[0] || key == fallbackNumeric[1]) {
		return "the framework's server config declares it as a number", true
	}
	if strings.HasSuffix(key, timeoutSuffix) {
		return "it is a number of seconds", true
	}
	return "", false
}

func runNonNumericSetting(v *gym.View) []diag.Diagnostic {
	r := newReporter(NonNumericSetting)
	keys := map[*gym.Entrypoint]NumericKeys{}
	for _, in := range Instances(v) {
		k, ok := keys[in.Entrypoint]
		if !ok {
			k = numericKeysOf(v, in.Entrypoint)
			keys[in.Entrypoint] = k
		}
		for _, f := range CheckNumericSettings(in.Inst.Settings, where(in.Inst), k.Numeric) {
			r.add(in.File.Path, f)
		}
	}
	return r.out
}

// CheckNumericSettings is GL403's test of a server directory's settings
// mapping: numeric says which keys must be numbers, and why; label names
// the instance.
func CheckNumericSettings(settings *configscan.Node, label string, numeric func(key string) (string, bool)) []Finding {
	if settings == nil || settings.Kind != configscan.MappingNode {
		return nil
	}
	var out []Finding
	for _, p := range settings.Pairs {
		why, ok := numeric(p.Key)
		if !ok || !NotNumber(p.Value) {
			continue
		}
		f := Finding{
			Pos: p.Value.Pos, End: p.Value.End,
			Message: fmt.Sprintf("%s is %s, not a number, so the config validation of %s fails at startup", shown(p.Key), describe(p.Value), label),
			Help:    fmt.Sprintf("%s must be a number (%s): write one, or an interpolation such as ${oc.env:NAME}, or leave the key out", shown(p.Key), why),
		}
		if p.Merged {
			f.Pos, f.End = p.MergePos, p.MergePos
			f.Message += " (the value comes through a << merge key)"
		}
		out = append(out, f)
	}
	return out
}

// NotNumber reports whether a value is certainly not one pydantic takes for
// a number: not a number, a numeric string, a boolean (pydantic's lax mode
// takes true as 1), null (Optional), or a value not known at lint time (an
// interpolation, ???).
func NotNumber(n *configscan.Node) bool {
	if n == nil {
		return false
	}
	switch n.Kind {
	case configscan.NullNode:
		return false
	case configscan.MappingNode, configscan.SequenceNode:
		return true
	}
	switch n.Tag {
	case "!!int", "!!float", "!!bool":
		return false
	case "!!str":
		if isInterpolation(n) {
			return false
		}
		return !numericString(n.Value)
	}
	return true
}

// numericString reports whether s reads as a number, as Python's float()
// or int() read one (surrounding spaces, a sign, underscores between
// digits, inf and nan), or as PyYAML's YAML 1.1 resolver does (0x1f,
// 0o17, sexagesimal 1:30). It is generous: a rule that is not sure says
// nothing.
func numericString(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	t := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseInt(t, 0, 64); err == nil {
		return true
	}
	// Sexagesimal: digits separated by colons.
	u := strings.TrimLeft(t, "+-")
	if strings.Contains(u, ":") {
		for _, part := range strings.Split(u, ":") {
			if part == "" {
				return false
			}
			if _, err := strconv.ParseUint(part, 10, 64); err != nil {
				if _, err := strconv.ParseFloat(part, 64); err != nil {
					return false
				}
			}
		}
		return true
	}
	return false
}
