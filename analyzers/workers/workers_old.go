//go:build ignore

package workers

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// Checks are the rules of this analyzer. Each rule's file adds its own in
// an init function; lint sorts the catalogue by code.
var Checks = []gym.Check{{Rule: UndeclaredWorkers, Run: run}}

func run(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, e := range v.Entrypoints {
		if d, ok := check(v, e); ok {
			out = append(out, d)
		}
	}
	return out
}

func check(v *gym.View, e *gym.Entrypoint) (diag.Diagnostic, bool) {
	m := e.Module
	if e.Exemption != nil || m == nil || m.SyntaxError != nil {
		return diag.Diagnostic{}, false
	}
	if gym.HasModuleApp(m) != nil {
		return diag.Diagnostic{}, false
	}
	if len(e.Servers) == 0 {
		d := UndeclaredWorkers.New(m.Path, pos(1, 1, 0), pos(1, 1, 0), fmt.Sprintf(
			"%s defines no server class and no module-level app, and %s: if it starts a server, give it a module-level app or a %s() override; if it starts none, add it to exempt: in .gymlint.yaml with the reason",
			m.Path, namedBy(e), Method))
		d.Related = configRelated(e)
		return d, true
	}
	var missing []string
	var missingServers []*gym.Server
	var first *gym.Server
	var shadowNotes []string
	var related []diag.Related
	for i := range e.Servers {
		s := &e.Servers[i]
		def := v.Lookup(s.Class, Method)
		if def.Found() {
			continue
		}
		if def.Uncertain {
			// The ancestry runs through something gymlint cannot see.
			return diag.Diagnostic{}, false
		}
		if first == nil {
			first = s
		}
		missing = append(missing, s.Class.Class.Name)
		missingServers = append(missingServers, s)
		if def.Shadowed != nil {
			sh := def.Shadowed.Class
			shadowNotes = append(shadowNotes, fmt.Sprintf(
				"the override on %s is shadowed by the framework's default, because %s comes before %s in %s's method resolution order (list %s first in the bases)",
				sh.Class.Name, def.ShadowedBy.Name, sh.Class.Name, s.Class.Class.Name, sh.Class.Name))
			related = append(related, diag.Related{
				Path: sh.Module.Path, Start: gym.PyPos(defSpan(def.Shadowed).Start), End: gym.PyPos(defSpan(def.Shadowed).End),
				Message: fmt.Sprintf("%s.%s is shadowed by %s in the MRO", sh.Class.Name, Method, def.ShadowedBy.Name),
			})
		}
	}
	if first == nil {
		return diag.Diagnostic{}, false
	}
	cls := first.Class
	start, end := cls.Class.NameSpan.Start, cls.Class.NameSpan.End
	subject := "server class " + strings.Join(missing, ", ")
	if len(missing) > 1 {
		subject = "server classes " + strings.Join(missing, ", ")
	}
	if cls.Module != m {
		// The server class comes from another module; point at the call
		// that starts it and name the class's home as related.
		if first.Call != nil {
			start, end = first.Call.Span.Start, first.Call.Span.End
		}
		subject += " (defined in " + cls.Module.Path + ")"
		related = append([]diag.Related{{
			Path: cls.Module.Path, Start: gym.PyPos(cls.Class.NameSpan.Start), End: gym.PyPos(cls.Class.NameSpan.End),
			Message: "server class " + cls.Class.Name + " is defined here",
		}}, related...)
	}
	msg := fmt.Sprintf(
		"%s of %s has neither a module-level app nor a %s() override: add `app = %s.run_webserver()` in an `elif is_nemo_gym_fastapi_entrypoint(__file__):` branch of the __main__ guard if it is safe with several workers, or override %s() to return why it is not",
		subject, m.Path, Method, missing[0], Method)
	if len(shadowNotes) > 0 {
		msg += "; " + strings.Join(shadowNotes, "; ")
	}
	d := UndeclaredWorkers.New(m.Path, gym.PyPos(start), gym.PyPos(end), msg)
	d.Related = append(related, configRelated(e)...)
	d.Fixes = undeclaredFixes(v, m, missingServers)
	return d, true
}

func pos(line, col, off int) diag.Pos { return diag.Pos{Offset: off, Line: line, Col: col} }

func defSpan(d *gym.Definition) pyscan.Span {
	if d.Method != nil {
		return d.Method.NameSpan
	}
	return d.Attr.Span
}

// namedBy says which configs name the module.
func namedBy(e *gym.Entrypoint) string {
	switch len(e.Configs) {
	case 0:
		return "it is a server directory's app.py"
	case 1:
		return fmt.Sprintf("%s:%d names it as an entrypoint", e.Configs[0].File, e.Configs[0].Instance.EntrypointPos.Line)
	}
	files := map[string]bool{}
	for _, c := range e.Configs {
		files[c.File] = true
	}
	return fmt.Sprintf("%d config entries in %d files name it as an entrypoint", len(e.Configs), len(files))
}

func configRelated(e *gym.Entrypoint) []diag.Related {
	var out []diag.Related
	for i, c := range e.Configs {
		if i == maxRelatedConfigs {
			break
		}
		p, q := c.Instance.EntrypointPos, c.Instance.EntrypointEnd
		out = append(out, diag.Related{Path: c.File,
			Start:   diag.Pos{Offset: p.Offset, Line: p.Line, Col: p.Col},
			End:     diag.Pos{Offset: q.Offset, Line: q.Line, Col: q.Col},
			Message: fmt.Sprintf("%s names it as the entrypoint of %s", c.File, c.Instance.Name)})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	if n := len(e.Configs) - maxRelatedConfigs; n > 0 {
		out[len(out)-1].Message += fmt.Sprintf(" (and %d more config entries)", n)
	}
	return out
}
