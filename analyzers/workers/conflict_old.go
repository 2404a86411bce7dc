//go:build ignore

package workers

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

func init() {
	Checks = append(Checks, gym.Check{Rule: RefusedNumWorkers, Run: runRefusedNumWorkers})
}

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
	if !rfDecimal.MatchString(s) {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimPrefix(s, "+"), 10, 64)
	if err != nil {
		return 0, false
	}
	return v, true
}

func runRefusedNumWorkers(v *gym.View) []diag.Diagnostic {
	c := &conflictRun{v: v, cache: map[*pyscan.Class]Refusal{}, seen: map[string]int{}, also: map[int][]string{}}
	byPath := map[string]*gym.Entrypoint{}
	for _, e := range v.Entrypoints {
		byPath[e.Path] = e
		for _, ref := range e.Configs {
			c.check(e, ref.File, ref.Instance, false)
		}
	}
	for _, f := range v.Configs {
		for i := range f.Overrides {
			inst := &f.Overrides[i]
			e := byPath[path.Clean(inst.Type+"/"+inst.Dir+"/app.py")]
			if e == nil || !e.ServerDirApp {
				continue
			}
			c.check(e, f.Path, inst, true)
		}
	}
	for i, names := range c.also {
		c.out[i].Message += fmt.Sprintf(" (the same value also configures %s)", strings.Join(names, ", "))
	}
	return c.out
}

type conflictRun struct {
	v     *gym.View
	cache map[*pyscan.Class]Refusal
	seen  map[string]int   // value position and server → index in out
	also  map[int][]string // other instances that one reported value configures
	out   []diag.Diagnostic
}

func (c *conflictRun) refusal(s gym.Server) Refusal {
	if r, ok := c.cache[s.Class.Class]; ok {
		return r
	}
	r := Analyze(c.v, s)
	c.cache[s.Class.Class] = r
	return r
}

func (c *conflictRun) check(e *gym.Entrypoint, file string, inst *configscan.Instance, override bool) {
	m := e.Module
	if e.Exemption != nil || m == nil || m.SyntaxError != nil {
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
		r := c.refusal(s)
		if r.Uncertain || r.Kind == RefusesNever || r.Method == nil {
			continue
		}
		d := r.Decide(inst.Settings)
		if d.Verdict != VerdictRefuse {
			continue
		}
		key := fmt.Sprintf("%s:%d:%s#%s", file, pair.Value.Pos.Offset, s.Class.Module.Path, s.Class.Class.Name)
		if i, ok := c.seen[key]; ok {
			// One value reached through merge keys: one finding.
			c.also[i] = append(c.also[i], inst.Name)
			continue
		}
		c.seen[key] = len(c.out)
		c.out = append(c.out, conflictDiag(e, file, inst, override, pair, n, s, r, d))
	}
}

func conflictDiag(e *gym.Entrypoint, file string, inst *configscan.Instance, override bool, pair *configscan.Pair, n int64, s gym.Server, r Refusal, d Decision) diag.Diagnostic {
	val := pair.Value
	where := fmt.Sprintf("%s.%s.%s", inst.Name, inst.Type, inst.Dir)
	if override {
		where += " (an override without entrypoint, applied to " + e.Path + ")"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "num_workers: %s in %s asks for %d workers, but %s ", conflictShow(val), where, n, rfWho(s, r))
	if r.Kind == RefusesAlways {
		b.WriteString("always returns a reason")
	} else {
		b.WriteString("returns a reason ")
		if r.Condition != "" {
			b.WriteString("when " + r.Condition)
		} else {
			b.WriteString("in this configuration")
		}
		if len(d.Fields) > 0 {
			var sets []string
			for _, f := range d.Fields {
				sets = append(sets, f.Field+": "+conflictShow(f.Node))
			}
			b.WriteString(", and this config sets " + strings.Join(sets, ", "))
		}
	}
	b.WriteString(", so run_webserver refuses to start")
	switch {
	case d.Reason != "":
		fmt.Fprintf(&b, " with %q", d.Reason)
	case d.Value != "":
		fmt.Fprintf(&b, " with the reason %s", d.Value)
	}
	b.WriteString(": set num_workers: 1 or remove it")
	if r.Kind != RefusesAlways && len(d.Fields) > 0 {
		var names []string
		for _, f := range d.Fields {
			names = append(names, f.Field)
		}
		b.WriteString(", or change " + strings.Join(names, " or "))
	}
	b.WriteString(", or make the server safe with several workers and drop the refusal")
	if pair.Merged {
		b.WriteString(" (the value comes in through a << merge key)")
	}

	start := diag.Pos{Offset: val.Pos.Offset, Line: val.Pos.Line, Col: val.Pos.Col}
	end := diag.Pos{Offset: val.End.Offset, Line: val.End.Line, Col: val.End.Col}
	dg := RefusedNumWorkers.New(file, start, end, b.String())
	msg := fmt.Sprintf("%s.%s() returns a reason on every path", r.Class.Class.Name, Method)
	if r.Kind != RefusesAlways {
		msg = fmt.Sprintf("%s.%s() returns a reason under a condition", r.Class.Class.Name, Method)
	}
	dg.Related = append(dg.Related, diag.Related{
		Path: r.Class.Module.Path, Start: gym.PyPos(r.Method.NameSpan.Start), End: gym.PyPos(r.Method.NameSpan.End), Message: msg,
	})
	for _, f := range d.Fields {
		fn := f.Node
		dg.Related = append(dg.Related, diag.Related{
			Path:    file,
			Start:   diag.Pos{Offset: fn.Pos.Offset, Line: fn.Pos.Line, Col: fn.Pos.Col},
			End:     diag.Pos{Offset: fn.End.Offset, Line: fn.End.Line, Col: fn.End.Col},
			Message: fmt.Sprintf("%s: %s decides the refusal's condition", f.Field, conflictShow(fn)),
		})
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
	if n.Tag == "!!str" && (n.Value == "" || rfBoolish[strings.ToLower(n.Value)] || rfDecimal.MatchString(n.Value) || strings.ContainsAny(n.Value, ":#{}[],&*!|>'\"%@`")) {
		return strconv.Quote(n.Value)
	}
	return n.Value
}
