// Package workers is the workers analyzer: it checks that every server can
// be started with several uvicorn workers, or refuses them with a reason.
//
// Its rules, each in its own file (the rule, its run function, then its
// helpers), with its documentation (what it does, why it matters, an
// example, how to fix) in docs/CODE.md beside it, which docs/rules.md
// renders:
//
//   - GL101 undeclared-workers (this file)
//   - GL102 late-worker-refusal (laterefusal.go)
//   - GL103 legacy-worker-refusal (legacy.go)
//   - GL104 refused-num-workers (conflict.go)
//   - GL105 unrouted-session-state (unrouted.go)
//   - GL106 unreachable-app (deadapp.go)
//   - GL107 unimportable-app-module (importpath.go)
//   - GL108 fixed-port-per-worker (fixedport.go)
//   - GL109 shared-random-stream (randomstream.go)
//   - GL110 per-worker-gpu-actors (gpuactors.go)
//   - GL111 unlocked-shared-state-file (sharedfile.go)
//   - GL112 cross-request-wait (groupwait.go)
//   - GL113 startup-snapshot-in-scoring (snapshot.go)
//   - GL114 liftable-refusal (liftable.go)
//
// The analysis they share, how a server's multiple_workers_unsupported_reason()
// answers (always, never or under a condition on its config), is package
// refusal; status.go summarises it for the `gymlint servers` inventory.
// The rules read the view of package gym (entrypoints, server classes,
// their MRO, the one name resolver), pyscan's typed model of each body,
// and the shared facts of package facts (routes, reach, per-session state,
// keys); none reads source text.
package workers

import (
	"fmt"
	"github.com/gymlint/gymlint/contract"
	"strings"

	"github.com/gymlint/gymlint/analyzers/workers/refusal"
	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// Method is the name of the refusal method.
const Method = refusal.Method

// Checks are the rules of this analyzer, in code order. A hazard rule
// (hazardRule) is listed here once: its check finds the hazard in one
// server, and hazards.go reports it for the servers that run with several
// workers.
var Checks = []gym.Check{
	{Rule: UndeclaredWorkers, Run: runUndeclared},
	{Rule: LateWorkerRefusal, Run: runLateRefusal},
	{Rule: LegacyWorkerRefusal, Run: runLegacyRefusal},
	{Rule: RefusedNumWorkers, Run: runRefusedNumWorkers},
	{Rule: UnroutedSessionState, Run: runUnrouted},
	{Rule: UnreachableApp, Run: runUnreachableApp},
	hazardRule(UnimportableAppModule, unimportableApp),
	hazardRule(FixedPortPerWorker, fixedPortCheck),
	hazardRule(SharedRandomStream, checkRandomStream),
	hazardRule(PerWorkerGPUActors, gpuActorsCheck),
	hazardRule(UnlockedSharedStateFile, checkSharedFile),
	hazardRule(CrossRequestWait, checkGroupWait),
	hazardRule(StartupSnapshotInScoring, checkStartupSnapshot),
	{Rule: LiftableRefusal, Run: runLiftable},
	hazardRule(StartupCleanup, startupCleanupCheck),
	hazardRule(PerWorkerHostCapacity, hostCapacityCheck),
	hazardRule(PerWorkerKeyRotation, keyRotationCheck),
}

// UndeclaredWorkers is rule GL101.
var UndeclaredWorkers = &diag.Rule{
	Code: "GL101", Name: "undeclared-workers", Analyzer: "workers", Severity: diag.Error,
	Needs:   []string{contract.WorkerRefusal},
	Summary: "A server has neither a module-level app nor a multiple_workers_unsupported_reason() override.",
	Doc:     ruleDoc("GL101"),
}

// maxRelatedConfigs bounds how many naming configs a diagnostic lists.
const maxRelatedConfigs = 5

func runUndeclared(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	var missing [][]*gym.Server
	var eps []*gym.Entrypoint
	for _, e := range v.Entrypoints {
		if d, ms, ok := undeclared(v, e); ok {
			out = append(out, d)
			missing = append(missing, ms)
			eps = append(eps, e)
		}
	}
	var found []*undeclaredFinding
	for i := range out {
		if len(missing[i]) > 0 {
			found = append(found, &undeclaredFinding{d: &out[i], e: eps[i], missing: missing[i]})
		}
	}
	planUndeclaredFixes(v, found)
	return out
}

// undeclared returns the GL101 finding of an entrypoint, if it has one,
// and the servers it is about (none for a module without a server
// class); planUndeclaredFixes gives it its fixes.
func undeclared(v *gym.View, e *gym.Entrypoint) (diag.Diagnostic, []*gym.Server, bool) {
	m := e.Module
	if !usable(e) || gym.HasModuleApp(m) != nil || v.StartsNoServer(e) != "" {
		// A module that starts no server (a base class, a library) is
		// GL016's to report.
		return diag.Diagnostic{}, nil, false
	}
	if len(e.Servers) == 0 {
		if len(e.Undecided) > 0 {
			// A class's ancestry was not followed to the end (beyond
			// gymlint's bounds, a cycle, a base it cannot resolve): it may
			// be a server class, so "defines no server class" may be
			// wrong. A cycle or a bound is GL012's to report.
			return diag.Diagnostic{}, nil, false
		}
		d := UndeclaredWorkers.New(m.Path, gym.Pos(m, 0), gym.Pos(m, 0), fmt.Sprintf(
			"module defines no server class and no module-level app, and %s", namedBy(e)))
		d.Help = fmt.Sprintf("if it starts a server, give it a module-level app or a %s() override; if it starts none, add it to exempt: in .gymlint.yaml with the reason", Method)
		d.Related = configRelated(e)
		return d, nil, true
	}
	var missing []string
	var missingServers []*gym.Server
	var shadowNotes, shadowHelp []string
	var related []diag.Related
	for i := range e.Servers {
		s := &e.Servers[i]
		def := v.Lookup(s.Class, Method)
		if def.Found() {
			continue
		}
		if def.Uncertain {
			// The ancestry runs through something gymlint cannot see.
			return diag.Diagnostic{}, nil, false
		}
		missing = append(missing, s.Class.Class.Name)
		missingServers = append(missingServers, s)
		if def.Shadowed != nil {
			sh := def.Shadowed.Class
			// The framework class as the bases name it, without its module.
			by := def.ShadowedBy.Name[strings.LastIndex(def.ShadowedBy.Name, ".")+1:]
			shadowNotes = append(shadowNotes, fmt.Sprintf(
				"%s's override is shadowed, as %s precedes it in %s's MRO",
				sh.Class.Name, by, s.Class.Class.Name))
			shadowHelp = append(shadowHelp, fmt.Sprintf("to use %s's override, list it before %s in %s's bases",
				sh.Class.Name, by, s.Class.Class.Name))
			related = append(related, gym.Related(sh.Module, defSpan(*def.Shadowed),
				fmt.Sprintf("%s.%s is shadowed by %s in the MRO", sh.Class.Name, Method, def.ShadowedBy.Name)))
		}
	}
	if len(missingServers) == 0 {
		return diag.Diagnostic{}, nil, false
	}
	first := missingServers[0]
	cls := first.Class
	at := cls.Class.NameSpan
	subject := "server class " + strings.Join(missing, ", ")
	if len(missing) > 1 {
		subject = "server classes " + strings.Join(missing, ", ")
	}
	if cls.Module != m {
		// The server class comes from another module; point at the call
		// that starts it and name the class's home as related.
		if first.Call != nil {
			at = first.Call.Span
		}
		subject += " (defined in " + cls.Module.Path + ")"
		related = append([]diag.Related{gym.Related(cls.Module, cls.Class.NameSpan, "server class "+cls.Class.Name+" is defined here")}, related...)
	}
	verb := "has"
	if len(missing) > 1 {
		verb = "have"
	}
	msg := fmt.Sprintf("%s %s neither a module-level app nor a %s() override", subject, verb, Method)
	if len(shadowNotes) > 0 {
		msg += "; " + strings.Join(shadowNotes, "; ")
	}
	start, end := gym.Range(m, at)
	d := UndeclaredWorkers.New(m.Path, start, end, msg)
	d.Help = fmt.Sprintf("if it is safe with several workers, add `app = %s.run_webserver()` in an `elif is_nemo_gym_fastapi_entrypoint(__file__):` branch of the __main__ guard; if not, override %s() to return why",
		missing[0], Method)
	for _, h := range shadowHelp {
		d.Help += "; " + h
	}
	d.Related = append(related, configRelated(e)...)
	return d, missingServers, true
}

// usable reports whether an entrypoint's servers can be checked: it is
// read, parses and is not exempt.
func usable(e *gym.Entrypoint) bool {
	return e.Exemption == nil && e.Module != nil && e.Module.SyntaxError == nil
}

// defSpan is the name of a definition found by Lookup.
func defSpan(d gym.Definition) pyscan.Span {
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

func configRelated(e *gym.Entrypoint) []diag.Related { return e.ConfigRelated(maxRelatedConfigs) }

// configPos is the diagnostic position of a YAML position.
func configPos(p configscan.Pos) diag.Pos { return gym.ConfigPos(p) }
