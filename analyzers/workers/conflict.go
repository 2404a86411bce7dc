package workers

import (
	"fmt"
	"github.com/gymlint/gymlint/contract"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/analyzers/workers/refusal"
	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// RefusedNumWorkers is rule GL104.
var RefusedNumWorkers = &diag.Rule{
	Code: "GL104", Name: "refused-num-workers", Analyzer: "workers", Severity: diag.Error,
	Needs:   []string{contract.WorkerRefusal},
	Summary: "A config sets num_workers above 1 for a server that refuses several workers.",
	Doc:     ruleDoc("GL104"),
}

// conflictKey is the setting name.
const conflictKey = "num_workers"

// conflictWorkers reads a num_workers value: an integer, or a string that
// is one (pydantic converts it). ok is false for anything else.
func conflictWorkers(n *configscan.Node) (int64, bool) {
	if n == nil || n.Kind != configscan.ScalarNode {
		return 0, false
	}
	s := n.Value
	switch n.Tag {
	case "!!int":
	case "!!str":
		s = strings.TrimSpace(s)
	default:
		return 0, false
	}
	if !refusal.Decimal(s) {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimPrefix(s, "+"), 10, 64)
	if err != nil {
		return 0, false
	}
	return v, true
}

func runRefusedNumWorkers(v *gym.View) []diag.Diagnostic {
	c := &conflictRun{v: v, seen: map[conflictKeyOf]int{}, also: map[int][]string{}, merged: map[int]bool{}, names: map[int]string{}}
	// The overrides of a server directory's app.py, and the servers of
	// the composed runs, each in the order of the configs and the runs.
	type override struct {
		e   *gym.Entrypoint
		ref gym.OverrideRef
	}
	type runServer struct {
		e  *gym.Entrypoint
		rs gym.RunServer
	}
	var overrides []override
	var servers []runServer
	for _, e := range v.Entrypoints {
		for _, ref := range e.Configs {
			c.check(e, ref.File, ref.Instance, false)
		}
		if typ, dir, ok := strings.Cut(e.Path, "/"); ok && e.ServerDirApp && path.Base(dir) == "app.py" {
			for _, o := range v.OverridesOf(typ, path.Dir(dir)) {
				overrides = append(overrides, override{e, o})
			}
		}
		for _, rs := range v.RunServersOf(e.Path) {
			servers = append(servers, runServer{e, rs})
		}
	}
	slices.SortFunc(overrides, func(a, b override) int { return a.ref.Order - b.ref.Order })
	for _, o := range overrides {
		c.check(o.e, o.ref.File.Path, o.ref.Instance, true)
	}
	// The composed configs: a value that reaches a server through
	// config_paths, _inherit_from or _copy (a benchmark's num_workers: 16
	// over a server defined three includes away) is judged on the
	// composed settings, at the file that writes it. A value that a plain
	// file already gave is the same finding (same file and offset).
	slices.SortFunc(servers, func(a, b runServer) int { return a.rs.Order - b.rs.Order })
	for _, s := range servers {
		if s.rs.Run.Fatal {
			continue
		}
		pair := s.rs.Instance.Settings.GetPair(conflictKey)
		if pair == nil || pair.Value.Origin == nil {
			continue
		}
		c.run = s.rs.Run
		c.check(s.e, pair.Value.Origin.File, s.rs.Instance, false)
	}
	c.run = nil
	for i, names := range c.also {
		// One note in parentheses: the merge key's, when it has one.
		if c.merged[i] {
			c.out[i].Message = strings.TrimSuffix(c.out[i].Message, ")") + ", which also configures " + strings.Join(names, ", ") + ")"
		} else {
			c.out[i].Message += fmt.Sprintf(" (the value also configures %s)", strings.Join(names, ", "))
		}
	}
	return c.out
}

// mergeNote says that a reported value comes in through a merge key.
const mergeNote = "the value comes through a << merge key"

type conflictRun struct {
	v    *gym.View
	seen map[conflictKeyOf]int // value position and server → index in out
	also map[int][]string      // other instances that one reported value configures
	// merged is set for a reported value that comes in through a merge
	// key: its message ends with the mergeNote in parentheses.
	merged map[int]bool
	names  map[int]string // the instance of each reported value
	out    []diag.Diagnostic
	// run is the composed run of the instance being checked, nil for a
	// config file's own instance.
	run *configscan.Run
}

// conflictKeyOf identifies a reported value: one YAML value reached
// through merge keys gives one finding per server.
type conflictKeyOf struct {
	file   string
	offset int
	server *pyscan.Class
}

func (c *conflictRun) check(e *gym.Entrypoint, file string, inst *configscan.Instance, override bool) {
	if !usable(e) {
		return
	}
	pair := inst.Settings.GetPair(conflictKey)
	if pair == nil {
		return
	}
	n, ok := conflictWorkers(pair.Value)
	if !ok || n <= 1 {
		return
	}
	for _, s := range e.Servers {
		r := refusal.Of(c.v, s.Class)
		if r.Uncertain || r.Kind == refusal.Never || r.Method == nil {
			continue
		}
		d := r.Decide(inst.Settings)
		if d.Verdict != refusal.Refuse {
			continue
		}
		key := conflictKeyOf{file, pair.Value.Pos.Offset, s.Class.Class}
		if i, ok := c.seen[key]; ok {
			// A composed config reaches a value that a file's own
			// instance already reported: the same instance is no news.
			if inst.Name != c.names[i] && !slices.Contains(c.also[i], inst.Name) {
				c.also[i] = append(c.also[i], inst.Name)
			}
			continue
		}
		c.names[len(c.out)] = inst.Name
		c.seen[key] = len(c.out)
		c.merged[len(c.out)] = pair.Merged
		c.out = append(c.out, conflictDiag(e, file, inst, override, pair, n, s.Class, r, d, c.run))
	}
}

func conflictDiag(e *gym.Entrypoint, file string, inst *configscan.Instance, override bool, pair *configscan.Pair, n int64, s gym.ClassRef, r *refusal.Result, d refusal.Decision, run *configscan.Run) diag.Diagnostic {
	val := pair.Value
	where := fmt.Sprintf("%s.%s.%s", inst.Name, inst.Type, inst.Dir)
	if override {
		where += " (an override)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "num_workers: %s in %s is refused by %s", conflictShow(val), where, who(s, r))
	switch {
	case r.Kind == refusal.Always:
		b.WriteString(", which always returns a reason")
	case len(d.Fields) > 0:
		var sets []string
		for _, f := range d.Fields {
			sets = append(sets, f.Field+": "+conflictShow(f.Node))
		}
		b.WriteString(", as this config sets " + strings.Join(sets, ", "))
	case r.Condition != "":
		b.WriteString(", which returns a reason when " + r.Condition)
	default:
		b.WriteString(" in this configuration")
	}
	if pair.Merged {
		b.WriteString(" (" + mergeNote + ")")
	}
	var help strings.Builder
	help.WriteString("set num_workers: 1 or remove it")
	if r.Kind != refusal.Always && len(d.Fields) > 0 {
		var names []string
		for _, f := range d.Fields {
			names = append(names, f.Field)
		}
		help.WriteString(", or change " + strings.Join(names, " or "))
	}
	fmt.Fprintf(&help, ", or make %s safe with several workers and drop the refusal", s.Class.Name)

	dg := RefusedNumWorkers.New(file, configPos(val.Pos), configPos(val.End), b.String())
	dg.Help = help.String()
	// The refusal's condition and reason, which the message leaves to the
	// place they are written.
	msg := fmt.Sprintf("%s.%s() returns a reason on every path", r.Class.Class.Name, Method)
	if r.Kind != refusal.Always {
		msg = fmt.Sprintf("%s.%s() returns a reason under a condition", r.Class.Class.Name, Method)
		if r.Condition != "" {
			msg = fmt.Sprintf("%s.%s() returns a reason when %s", r.Class.Class.Name, Method, r.Condition)
		}
	}
	switch {
	case d.Reason != "":
		msg += fmt.Sprintf(": %q", d.Reason)
	case d.Value != "":
		msg += ": " + d.Value
	}
	dg.Related = append(dg.Related, gym.Related(r.Class.Module, r.Method.NameSpan, msg))
	for _, f := range d.Fields {
		fpath := file
		if f.Node.Origin != nil {
			fpath = f.Node.Origin.File
		}
		dg.Related = append(dg.Related, diag.Related{
			Path: fpath, Start: configPos(f.Node.Pos), End: configPos(f.Node.End),
			Message: fmt.Sprintf("%s: %s decides the refusal's condition", f.Field, conflictShow(f.Node)),
		})
	}
	// The includes that brought the value's file into the composed
	// config, when it came through config_paths.
	if val.Origin != nil {
		dg.Related = append(dg.Related, gym.IncludeChain(run.OriginOf(val.Origin.File))...)
	}
	return dg
}

// conflictShow renders a config value for a message.
func conflictShow(n *configscan.Node) string {
	switch n.Kind {
	case configscan.NullNode:
		return "null"
	case configscan.MappingNode:
		return "{...}"
	case configscan.SequenceNode:
		return "[...]"
	}
	if n.Tag == "!!str" && (n.Value == "" || refusal.Boolish(n.Value) || refusal.Decimal(n.Value) || strings.ContainsAny(n.Value, ":#{}[],&*!|>'\"%@`")) {
		return strconv.Quote(n.Value)
	}
	return n.Value
}
