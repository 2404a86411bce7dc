// Package configs is the configs analyzer: it reports, at lint time, the
// mistakes in a config's server instances that NeMo Gym's supervisor (or
// the server's own config validation) rejects at startup.
//
// Its rules, each in its own file (the rule, its run function, then its
// helpers), with its documentation in docs/CODE.md beside it:
//
//   - GL401 duplicate-fixed-port (error, ports.go): two servers of one
//     composed config (configscan.Compose: config_paths, _inherit_from,
//     _copy) ask for the same fixed port;
//   - GL402 server-dir-not-installable (error, installable.go): the server directory a
//     config names exists but ships neither requirements.txt nor
//     pyproject.toml (or ships both), so the supervisor cannot set up its
//     venv;
//   - GL403 non-numeric-setting (error, numeric.go): a numeric setting (one the
//     server's config class declares as a number, `port` and
//     `num_workers` when the class cannot be read, any
//     `*_timeout_seconds`) whose value is neither a number nor a numeric
//     string;
//   - GL404 invalid-base-url (error, baseurl.go): a model server's `*base_url` that
//     is neither a string nor a list of strings, or a URL without an
//     http:// or https:// scheme;
//   - GL405 duplicate-server-dir-key (error, dirkeys.go): a server type with more
//     than one server directory key;
//   - GL407 resources-server-without-domain (error, domain.go): a resources server
//     without `domain:`;
//   - GL408 unresolved-server-reference (error, references.go): a server
//     reference ({type: T, name: N} in an instance's settings) that its
//     composed config resolves to an instance of another type, or that no
//     config of the repository defines.
//
// An absolute entrypoint is the core rule GL006's (entrypoint-outside-root),
// so this analyzer has no rule for it.
//
// The rules read each config instance's settings as configscan gives them
// (configscan.Instance.Settings, with positions): the servers that name an
// entrypoint of the view, and the overrides of their instances (same
// server type and directory). Each rule's test is a function of a settings
// node (and, for GL405, the server type's mapping), so it can run over
// resolved settings as well as over one file's. The config classes GL403
// reads come from package facts (ConfigFieldsOf, ServerConfigClass), which
// read pyscan's model of the repository's framework and servers.
package configs

import (
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// Checks are the rules of this analyzer, in code order.
var Checks = []gym.Check{
	{Rule: DuplicateFixedPort, Run: runDuplicateFixedPort, ConfigsOnly: true},
	{Rule: ServerDirNotInstallable, Run: runServerDirNotInstallable},
	{Rule: NonNumericSetting, Run: runNonNumericSetting},
	{Rule: InvalidBaseURL, Run: runInvalidBaseURL},
	{Rule: DuplicateServerDirKey, Run: runDuplicateServerDirKey},
	{Rule: ResourcesServerWithoutDomain, Run: runResourcesServerWithoutDomain},
	{Rule: UnresolvedServerReference, Run: runUnresolvedServerReference, ConfigsOnly: true},
}

// Instance is one config instance the rules check: a server that names an
// entrypoint of the view, or an override of one.
type Instance struct {
	File     *configscan.File
	Inst     *configscan.Instance
	Override bool
	// Entrypoint is the entrypoint the instance configures (for an
	// override, one whose configs have its server type and directory).
	Entrypoint *gym.Entrypoint
}

type sharedKey struct{}

// Instances returns the instances of the view, in file and position order,
// each once: the servers that name the view's entrypoints, then the
// overrides of their server type and directory.
func Instances(v *gym.View) []Instance {
	return v.Shared(sharedKey{}, func() any { return instances(v) }).([]Instance)
}

func instances(v *gym.View) []Instance {
	type typeDir struct{ typ, dir string }
	owner := map[typeDir]*gym.Entrypoint{}
	var keys []typeDir // of owner, in the order first owned
	own := func(k typeDir, e *gym.Entrypoint) {
		if owner[k] == nil {
			owner[k] = e
			keys = append(keys, k)
		}
	}
	var out []Instance
	for _, e := range v.Entrypoints {
		if e.Exemption != nil {
			continue
		}
		for _, ref := range e.Configs {
			f := v.ConfigFile(ref.File)
			if f == nil {
				continue
			}
			out = append(out, Instance{File: f, Inst: ref.Instance, Entrypoint: e})
			own(typeDir{ref.Instance.Type, ref.Instance.Dir}, e)
		}
		if e.ServerDirApp {
			parts := strings.SplitN(e.Path, "/", 2)
			if len(parts) == 2 {
				own(typeDir{parts[0], path.Dir(parts[1])}, e)
			}
		}
	}
	// The overrides of each owned type and directory: an override's
	// directory is compared cleaned, an owner's as written.
	var overrides []gym.OverrideRef
	for _, k := range keys {
		if k.dir != path.Clean(k.dir) {
			continue
		}
		overrides = append(overrides, v.OverridesOf(k.typ, k.dir)...)
	}
	slices.SortFunc(overrides, func(a, b gym.OverrideRef) int { return a.Order - b.Order })
	for _, o := range overrides {
		out = append(out, Instance{File: o.File, Inst: o.Instance, Override: true, Entrypoint: owner[typeDir{o.Instance.Type, path.Clean(o.Instance.Dir)}]})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File.Path != b.File.Path {
			return a.File.Path < b.File.Path
		}
		return a.Inst.DirPos.Offset < b.Inst.DirPos.Offset
	})
	return out
}

// Finding is what a rule's test finds in a settings node: where, what, and
// the remedy; the check turns it into a diagnostic of its file.
type Finding struct {
	Pos, End configscan.Pos
	Message  string
	Help     string
	Related  []RelatedPos
}

// RelatedPos is a related position in the same file.
type RelatedPos struct {
	Pos     configscan.Pos
	Message string
}

// dpos is the diagnostic position of a YAML position.
func dpos(p configscan.Pos) diag.Pos { return gym.ConfigPos(p) }

// report turns findings in file into diagnostics of rule, each once.
type reporter struct {
	rule *diag.Rule
	seen map[string]bool
	out  []diag.Diagnostic
}

func newReporter(r *diag.Rule) *reporter { return &reporter{rule: r, seen: map[string]bool{}} }

func (r *reporter) add(file string, f Finding) {
	end := f.End
	if end.Offset < f.Pos.Offset {
		end = f.Pos
	}
	k := file + "\x00" + f.Message + "\x00" + strconv.Itoa(f.Pos.Offset)
	if r.seen[k] {
		return
	}
	r.seen[k] = true
	d := r.rule.New(file, dpos(f.Pos), dpos(end), f.Message)
	d.Help = f.Help
	for _, rp := range f.Related {
		d.Related = append(d.Related, diag.Related{Path: file, Start: dpos(rp.Pos), End: dpos(rp.Pos), Message: rp.Message})
	}
	r.out = append(r.out, d)
}

// where names an instance's dir mapping for messages: name.type.dir.
func where(in *configscan.Instance) string {
	return shown(in.Name) + "." + shown(in.Type) + "." + shown(in.Dir)
}

// shown clips a key or value for a message and quotes it when it holds a
// control character.
func shown(s string) string {
	const max = 80
	if len(s) > max {
		cut := max
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "..."
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return quote(s)
		}
	}
	return s
}

// isInterpolation reports whether a scalar is, or contains, an OmegaConf
// interpolation (${...}) or is the mandatory-missing marker "???": its
// value is not known at lint time.
func isInterpolation(n *configscan.Node) bool {
	if n == nil || n.Kind != configscan.ScalarNode || n.Tag != "!!str" {
		return false
	}
	s := strings.TrimSpace(n.Value)
	return strings.Contains(s, "${") || s == "???"
}

// describe names a value for messages.
func describe(n *configscan.Node) string {
	switch n.Kind {
	case configscan.NullNode:
		return "null"
	case configscan.MappingNode:
		return "a mapping"
	case configscan.SequenceNode:
		return "a list"
	}
	switch n.Tag {
	case "!!str":
		if n.Value == "" {
			return "an empty string"
		}
		return "the string " + quote(shownValue(n.Value))
	case "!!int":
		return "the integer " + shownValue(n.Value)
	case "!!float":
		return "the number " + shownValue(n.Value)
	case "!!bool":
		return "the boolean " + shownValue(n.Value)
	}
	return "the value " + quote(shownValue(n.Value))
}

func shownValue(s string) string {
	const max = 60
	if len(s) > max {
		cut := max
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

func quote(s string) string { return strconv.Quote(s) }
