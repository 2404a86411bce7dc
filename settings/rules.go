package settings

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/internal/pathmatch"
	"github.com/gymlint/gymlint/lint"
)

// catalog is every rule of the catalogue.
func catalog() []*diag.Rule { return lint.Rules() }

func lookup(key string) *diag.Rule {
	for _, r := range catalog() {
		if r.Code == key || r.Name == key {
			return r
		}
	}
	return nil
}

// PathIgnore drops the findings of Rules in files whose root-relative,
// slash-separated path matches one of Paths.
type PathIgnore struct {
	Paths  []string // globs: ** is any number of path segments, * and ? stay within one
	Rules  []string // rule codes
	Reason string
	Line   int // line of the entry in the configuration file
}

// ResolveRule turns a selector into rule codes, sorted; nil when it names
// nothing. A selector is a rule code (GL101), a code prefix (GL1, GL10: the
// rules whose codes start with it), a rule name (undeclared-workers), an
// analyzer name (workers), or ALL (every rule).
func ResolveRule(key string) []string {
	if r := lookup(key); r != nil {
		return []string{r.Code}
	}
	var codes []string
	for _, r := range catalog() {
		if r.Analyzer == key || key == "ALL" || isCodePrefix(key) && strings.HasPrefix(r.Code, key) {
			codes = append(codes, r.Code)
		}
	}
	sort.Strings(codes)
	return codes
}

// isCodePrefix reports whether key is "GL" and at most three digits.
func isCodePrefix(key string) bool {
	digits, ok := strings.CutPrefix(key, "GL")
	if !ok || len(digits) > 3 {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Selection is the command line's rule selection (--select,
// --extend-select, --ignore), resolved to codes, and its excludes.
type Selection struct {
	// Select, when not nil, replaces the configuration's selection: these
	// rules run, and the configuration's enable and disable no longer
	// apply (as ruff's --select).
	Select []string
	// Extend adds rules to the selection (the configuration's, or Select),
	// and takes them out of the configuration's disable.
	Extend []string
	// Ignore takes rules out of the selection, whatever selects them.
	Ignore []string
	// Exclude adds globs to the configuration's exclude (--exclude).
	Exclude []string
	// Named are the rules --select and --extend-select name one by one
	// (NamedRules).
	Named []string
}

// With returns a copy of s with the selection applied; s is not changed.
func (s *Settings) With(sel Selection) *Settings {
	c := *s
	if sel.Select != nil {
		c.Enable = union(sel.Select, sel.Extend)
		c.Disable = nil
		c.Named = slices.Clone(sel.Named) // the configuration's enable no longer applies
	} else {
		c.Named = union(c.Named, sel.Named)
		if c.Enable != nil {
			c.Enable = union(c.Enable, sel.Extend)
		}
		c.Disable = minus(c.Disable, sel.Extend)
	}
	c.Disable = union(c.Disable, sel.Ignore)
	c.Exclude = append(slices.Clone(s.Exclude), sel.Exclude...)
	return &c
}

// NamedRules are the codes of the selectors (each a comma-separated list)
// that name one rule by its code or name, sorted; prefixes, analyzer names
// and ALL name none.
func NamedRules(selectors []string) []string {
	set := map[string]bool{}
	for _, v := range selectors {
		for _, key := range strings.Split(v, ",") {
			if r := lookup(strings.TrimSpace(key)); r != nil {
				set[r.Code] = true
			}
		}
	}
	return sortedKeys(set)
}

// ResolveSelectors resolves selectors (the values of a flag, each a
// comma-separated list) to codes, sorted; flag names the flag in the
// error that names an unknown selector.
func ResolveSelectors(flag string, values []string) ([]string, error) {
	set := map[string]bool{}
	for _, v := range values {
		for _, key := range strings.Split(v, ",") {
			key = strings.TrimSpace(key)
			if key == "" {
				continue
			}
			codes := ResolveRule(key)
			if codes == nil {
				return nil, fmt.Errorf("unknown rule %q in %s: give a code such as GL101, a code prefix such as GL1, a rule name such as undeclared-workers, an analyzer name such as workers, or ALL (see gymlint rules)", key, flag)
			}
			for _, c := range codes {
				set[c] = true
			}
		}
	}
	if len(set) == 0 {
		return nil, fmt.Errorf("%s needs at least one rule", flag)
	}
	return sortedKeys(set), nil
}

func union(a, b []string) []string {
	set := map[string]bool{}
	for _, x := range a {
		set[x] = true
	}
	for _, x := range b {
		set[x] = true
	}
	return sortedKeys(set)
}

func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for c := range set {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

func unknownRule(name string, line int, key, where string) error {
	return &Error{File: name, Line: line, Msg: fmt.Sprintf("unknown rule %q in %s: give a code such as GL101, a code prefix such as GL1, a rule name such as undeclared-workers, an analyzer name such as workers, or ALL (see gymlint rules)", key, where)}
}

// ruleList reads a list of rule codes, names or analyzer names.
func ruleList(name, key string, v *yaml.Node) ([]string, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, &Error{File: name, Line: v.Line, Msg: fmt.Sprintf("%s must be a list of rule codes or names", key)}
	}
	set := map[string]bool{}
	for _, it := range v.Content {
		str, err := scalar(name, key+" entries", it)
		if err != nil {
			return nil, err
		}
		codes := ResolveRule(strings.TrimSpace(str))
		if codes == nil {
			return nil, unknownRule(name, it.Line, str, key)
		}
		for _, c := range codes {
			set[c] = true
		}
	}
	out := make([]string, 0, len(set))
	for c := range set {
		out = append(out, c)
	}
	sort.Strings(out)
	return out, nil
}

// severities reads {rule: error|warning|info}. An entry for one rule
// (code or name) wins over an entry for its analyzer, whatever the order.
func severities(name string, v *yaml.Node) (map[string]diag.Severity, error) {
	if v.Kind != yaml.MappingNode {
		return nil, &Error{File: name, Line: v.Line, Msg: "severity must be a mapping of rule to error, warning or info"}
	}
	out := map[string]diag.Severity{}
	specific := map[string]bool{}
	seen := map[string]int{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if first, dup := seen[k.Value]; dup {
			return nil, &Error{File: name, Line: k.Line, Msg: fmt.Sprintf("severity key %q appears twice (first at line %d)", k.Value, first)}
		}
		seen[k.Value] = k.Line
		str, err := scalar(name, "severity."+k.Value, val)
		if err != nil {
			return nil, err
		}
		sev := diag.Severity(str)
		if sev != diag.Error && sev != diag.Warning && sev != diag.Info {
			return nil, &Error{File: name, Line: val.Line, Msg: fmt.Sprintf("severity.%s must be error, warning or info, not %q", k.Value, str)}
		}
		if r := lookup(k.Value); r != nil {
			if specific[r.Code] && out[r.Code] != sev {
				return nil, &Error{File: name, Line: k.Line, Msg: fmt.Sprintf("severity of %s is given twice, as %s and as %s", r.Code, out[r.Code], sev)}
			}
			out[r.Code], specific[r.Code] = sev, true
			continue
		}
		codes := ResolveRule(k.Value)
		if codes == nil {
			return nil, unknownRule(name, k.Line, k.Value, "severity")
		}
		for _, c := range codes {
			if !specific[c] {
				out[c] = sev
			}
		}
	}
	return out, nil
}

func pathIgnore(name string, n *yaml.Node) (PathIgnore, error) {
	pi := PathIgnore{Line: n.Line}
	if n.Kind != yaml.MappingNode {
		return pi, &Error{File: name, Line: n.Line, Msg: "each per_path_ignores entry must be a mapping with paths, rules and reason"}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "paths":
			list, err := stringList(name, "per_path_ignores.paths", v)
			if err != nil {
				return pi, err
			}
			for j, g := range list {
				g = strings.TrimPrefix(strings.TrimSpace(g), "./")
				if msg := checkGlob(g); msg != "" {
					line := v.Line
					if j < len(v.Content) {
						line = v.Content[j].Line
					}
					return pi, &Error{File: name, Line: line, Msg: fmt.Sprintf("per_path_ignores.paths: %q %s", list[j], msg)}
				}
				pi.Paths = append(pi.Paths, g)
			}
		case "rules":
			codes, err := ruleList(name, "per_path_ignores.rules", v)
			if err != nil {
				return pi, err
			}
			pi.Rules = codes
		case "reason":
			str, err := scalar(name, "per_path_ignores.reason", v)
			if err != nil {
				return pi, err
			}
			pi.Reason = strings.TrimSpace(str)
		default:
			return pi, &Error{File: name, Line: k.Line, Msg: fmt.Sprintf("unknown key %q in a per_path_ignores entry (known: paths, rules, reason)", k.Value)}
		}
	}
	switch {
	case len(pi.Paths) == 0:
		return pi, &Error{File: name, Line: n.Line, Msg: "per_path_ignores entry has no paths"}
	case len(pi.Rules) == 0:
		return pi, &Error{File: name, Line: n.Line, Msg: "per_path_ignores entry has no rules"}
	case pi.Reason == "":
		return pi, &Error{File: name, Line: n.Line, Msg: fmt.Sprintf("per_path_ignores entry for %s has no reason: say why these findings do not apply there", strings.Join(pi.Paths, ", "))}
	}
	return pi, nil
}

// CleanExclude is an exclude glob as it is matched: without spaces around
// it, a leading "./" or a trailing "/" ("output/" is the directory output,
// which is what "output" excludes too).
func CleanExclude(g string) string {
	g = strings.TrimPrefix(strings.TrimSpace(g), "./")
	if len(g) > 1 {
		g = strings.TrimSuffix(g, "/")
	}
	return g
}

// checkGlob returns why g is not a usable glob, or "".
func checkGlob(g string) string { return pathmatch.ValidGlob(g) }
