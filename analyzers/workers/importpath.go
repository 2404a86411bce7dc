package workers

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
)

// UnimportableAppModule is rule GL107.
var UnimportableAppModule = &diag.Rule{
	Code: "GL107", Name: "unimportable-app-module", Analyzer: "workers", Severity: diag.Error,
	Needs:   []string{contract.WorkerRefusal},
	Summary: "A config's entrypoint path makes run_webserver build an import string for uvicorn workers that does not load the entrypoint.",
	Doc:     ruleDoc("GL107"),
}

// unimportableApp finds the config entries of e whose worker import
// string does not load e's module.
func unimportableApp(v *gym.View, e *gym.Entrypoint, server gym.ClassRef) []Hazard {
	var out []Hazard
	for _, c := range e.Configs {
		in := c.Instance
		w, ok := facts.WorkerImportOf(in.Type, in.Dir, in.Entrypoint)
		if !ok || w.Resolves || w.File != e.Path {
			continue
		}
		dir := in.Type + "/" + in.Dir + "/"
		var why, fix string
		switch {
		case w.LeavesDir:
			why = "it leaves " + dir
			fix = "move the module into " + dir + " (or give it a server directory of its own) and name it from there"
		case w.Empty:
			why = "a `..`, `.` or empty name in the path gives an empty module name"
			fix = "give the entrypoint as a plain path inside " + dir + " (" + strings.TrimPrefix(e.Path, dir) + ")"
		case len(w.Dotted) > 0:
			why = fmt.Sprintf("the dot in %s reads as a package", w.Dotted[0])
			fix = "rename " + w.Dotted[0] + " without the dot"
		case w.PyInside:
			why = "a `.py` inside a name is cut out"
			fix = "rename the directory or file so that `.py` is only the file's suffix"
		default:
			continue
		}
		msg := fmt.Sprintf("entrypoint %s of %s makes uvicorn workers import %s:app, which does not load %s: %s",
			in.Entrypoint, in.Name, w.Module, e.Path, why)
		out = append(out, Hazard{
			Rule:    UnimportableAppModule,
			Path:    c.File,
			Start:   configPos(in.EntrypointPos),
			End:     configPos(in.EntrypointEnd),
			Message: msg,
			Help: hazardHelp(server.Class.Name, fix, "",
				"Its entrypoint "+in.Entrypoint+" does not give a module path that uvicorn workers can import."),
			// The import string is the config entry's, whatever its settings.
			Unconditional: true,
			Config:        &c,
		})
	}
	return out
}
