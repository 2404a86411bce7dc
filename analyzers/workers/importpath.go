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
	Doc: `## What it does
Reports, for a server that accepts several workers (a module-level ` + "`app`" + ` and a
` + "`multiple_workers_unsupported_reason()`" + ` that never refuses, as in rule GL105), each config entry whose
entrypoint gives an import string that does not load the entrypoint. ` + "`run_webserver`" + ` builds that
string as the framework does: it joins the server type key, the server directory key and the
entrypoint with ` + "`/`" + `, removes every ` + "`.py`" + `, and turns every ` + "`/`" + ` into a ` + "`.`" + `. The string does not load
the entrypoint when:

- the entrypoint leaves its server directory, or passes through it with ` + "`..`" + ` or ` + "`.`" + ` (` + "`../../other/bridge.py`" + `,
  ` + "`./app.py`" + `, ` + "`sub/../app.py`" + `), or has an empty name (` + "`sub//app.py`" + `): each gives an empty module name;
- a directory or file name has a dot (` + "`echo.v2/`" + `, ` + "`my.app.py`" + `), which the import reads as a package;
- a name contains ` + "`.py`" + ` (` + "`my.python/`" + `), which the removal cuts out.

The finding is at the config's entrypoint value and gives the import string. A name that is not a
Python identifier (` + "`my-server`" + `, ` + "`2048`" + `) is not reported: uvicorn imports the module with
` + "`importlib.import_module`" + `, which does not require identifiers. A missing entrypoint is GL005's, one
that leaves the repository GL006's.

## Why it matters
With ` + "`num_workers > 1`" + `, the main process does not hand uvicorn the app it built: every worker imports
the module named by the import string and looks ` + "`app`" + ` up in it. A string that does not name the
entrypoint fails in every worker (` + "`ModuleNotFoundError`" + `), after the config was accepted.

## Example
` + "```yaml" + `
lab_harbor_agent:
  responses_api_agents:
    harbor_agent:
      entrypoint: ../../resources_servers/lab/harbor_bridge.py   # reported
` + "```" + `
Workers import ` + "`responses_api_agents.harbor_agent.......resources_servers.lab.harbor_bridge`" + `.

## How to fix
Keep the entrypoint inside its server directory, with names free of dots: move the module into the
server directory the config names (or give it a server directory of its own and name that one in
the config). If it must stay where it is, refuse several workers: override
` + "`multiple_workers_unsupported_reason()`" + ` to return why.`,
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
