// Package contract reads which parts of the NeMo Gym server contract the
// repository's own framework has, from the framework's source, without
// importing it.
//
// The rules are written against the current contract (the worker refusal,
// the ray_enabled declaration, the session close with its fences, the lost
// session answered as a masked sample, the 422/409/404 errors). A
// repository on an older framework cannot satisfy a rule that asks for an
// API its framework does not have, so each rule names the facts it needs
// (diag.Rule.Needs) and the engine applies it only where they hold
// (--contract auto, the default), or everywhere (--contract latest, the
// upgrade report).
//
// Detect finds the framework package (in the repository, at a configured
// framework_path, or installed in a virtual environment), parses its
// modules with pyscan, and reads each Fact from the model: a class of the
// framework defines a method, declares a class variable, a module binds a
// name, a function reads an attribute. Nothing is imported or run; a
// framework that cannot be read is reported and the latest contract is
// assumed.
//
// It is also the one place that spells the framework's names
// (framework.go): the server base classes, the route, hook and contract
// methods, the module functions, the session and error classes, the route
// paths. Detect reads the facts by them, and gym, facts, the Python
// analyzers and the inventory match the repository's code against them.
package contract

import (
	"fmt"
	"github.com/gymlint/gymlint/internal/clip"
	"maps"
	"slices"
	"sort"
	"strings"
)

// Fact is one part of the contract that a framework has or lacks. Its
// value is the name `gymlint config` prints and Rule.Needs lists.
type Fact = string

// The facts. Each is read from the framework's source as its Info says.
const (
	// WorkerRefusal: the framework's server base defines
	// multiple_workers_unsupported_reason(), so a server can refuse
	// several workers, and uvicorn imports module:app for num_workers > 1.
	WorkerRefusal Fact = "worker-refusal"
	// RayDeclaration: the server base declares ray_enabled (a ClassVar),
	// so a server says whether it needs Ray.
	RayDeclaration Fact = "ray-declaration"
	// RayPerDeclaration: the framework reads ray_enabled to decide whether
	// to start Ray for a server, instead of starting it for every server.
	RayPerDeclaration Fact = "ray-per-declaration"
	// CloseSession: the resources base serves close_resources_session.
	CloseSession Fact = "close-session"
	// SessionFences: the framework exports ResourcesSessionFences.
	SessionFences Fact = "session-fences"
	// SessionLocks: the framework exports ResourcesSessionLocks.
	SessionLocks Fact = "session-locks"
	// LostSession: the framework exports lost_session_verification().
	LostSession Fact = "lost-session-verification"
	// SeedRejectedError: the framework exports ResourcesSeedRejectedError (422).
	SeedRejectedError Fact = "seed-rejected-error"
	// SessionConflictError: the framework exports ResourcesSessionConflictError (409).
	SessionConflictError Fact = "session-conflict-error"
	// SessionLostError: the framework exports ResourcesSessionLostError (404).
	SessionLostError Fact = "session-lost-error"
	// ReservedMCPToolNames: the framework binds RESERVED_MCP_TOOL_NAMES.
	ReservedMCPToolNames Fact = "reserved-mcp-tool-names"
	// MCPTokenSerializer: the framework exports
	// mcp_session_token_serializer(), the signer of MCP session tokens.
	MCPTokenSerializer Fact = "mcp-token-serializer"
	// CheckpointHooks: the resources base defines the checkpoint hooks
	// (checkpoint_session_starts, checkpoint_verify, checkpoint_session_ended).
	CheckpointHooks Fact = "checkpoint-hooks"
	// ResourcesDomain: the framework's server instance config validates
	// that a resources server has a domain
	// (validate_domain_for_resources_server).
	ResourcesDomain Fact = "resources-domain"
)

// Info describes a fact for people: what the framework has when it holds,
// and what a framework without it predates.
type Info struct {
	Fact Fact
	// Has says what the framework has when the fact holds.
	Has string
	// Predates names the part of the contract, for "predates the ...".
	Predates string
	// Lacks says what was looked for and not found.
	Lacks string
}

// Facts lists every fact, in the order `gymlint config` prints them.
var Facts = []Info{
	{WorkerRefusal, "BaseServer defines multiple_workers_unsupported_reason()", "the worker refusal", "BaseServer has no multiple_workers_unsupported_reason"},
	{RayDeclaration, "BaseServer declares ray_enabled as a ClassVar", "the Ray declaration", "BaseServer does not declare ray_enabled"},
	{RayPerDeclaration, "the framework starts Ray only for servers that declare ray_enabled", "Ray per declaration", "no framework code reads ray_enabled, so it starts Ray for every server"},
	{CloseSession, "the resources base serves close_resources_session", "the session close", "SimpleResourcesServer has no close_resources_session"},
	{SessionFences, "the framework exports ResourcesSessionFences", "the session fences", "no class ResourcesSessionFences"},
	{SessionLocks, "the framework exports ResourcesSessionLocks", "the session locks", "no class ResourcesSessionLocks"},
	{LostSession, "the framework exports lost_session_verification()", "the lost-session verification", "no function lost_session_verification"},
	{SeedRejectedError, "the framework exports ResourcesSeedRejectedError (422)", "the seed rejection error", "no class ResourcesSeedRejectedError"},
	{SessionConflictError, "the framework exports ResourcesSessionConflictError (409)", "the session conflict error", "no class ResourcesSessionConflictError"},
	{SessionLostError, "the framework exports ResourcesSessionLostError (404)", "the lost-session error", "no class ResourcesSessionLostError"},
	{ReservedMCPToolNames, "the framework binds RESERVED_MCP_TOOL_NAMES", "the reserved MCP tool names", "no RESERVED_MCP_TOOL_NAMES"},
	{MCPTokenSerializer, "the framework exports mcp_session_token_serializer()", "the MCP session token signer", "no function mcp_session_token_serializer"},
	{CheckpointHooks, "the resources base defines the checkpoint hooks", "the checkpoint hooks", "SimpleResourcesServer has no checkpoint_session_starts, checkpoint_verify or checkpoint_session_ended"},
	{ResourcesDomain, "the framework's server instance config requires a domain for resources servers", "the required resources server domain", "no config class defines validate_domain_for_resources_server"},
}

// InfoOf returns the description of a fact, or nil for an unknown name.
func InfoOf(f Fact) *Info {
	for i := range Facts {
		if Facts[i].Fact == f {
			return &Facts[i]
		}
	}
	return nil
}

// Mode chooses how rules are applied.
type Mode string

// The modes.
const (
	// Auto applies a rule only where the framework found has the facts it
	// needs; with no framework found, every rule is applied.
	Auto Mode = "auto"
	// Latest applies every rule, whatever the framework has: what the
	// repository must change to adopt the current contract.
	Latest Mode = "latest"
)

// Modes lists the valid modes.
var Modes = []Mode{Auto, Latest}

// ParseMode returns the mode a flag or configuration value names.
func ParseMode(s string) (Mode, bool) {
	for _, m := range Modes {
		if string(m) == s {
			return m, true
		}
	}
	return "", false
}

// Where says how a framework was found.
type Where string

// The places a framework is found, in the order Detect looks.
const (
	InRepository  Where = "repository"     // <root>/<package>
	FrameworkPath Where = "framework_path" // the configured framework_path, inside the root
	VirtualEnv    Where = "virtualenv"     // <root>/.venv or <root>/venv, or $VIRTUAL_ENV
)

// Framework is what Detect found.
type Framework struct {
	// Package is the framework's top-level package (nemo_gym).
	Package string
	// Found: a framework package was found and read. When not, every fact
	// is taken to hold (the latest contract).
	Found bool
	// Dir is the package directory: relative to the root (slash-separated)
	// when it lies inside, else absolute.
	Dir string
	// Where says how it was found.
	Where Where
	// Files is how many modules the package has (within the bounds), and
	// Modules how many of them were parsed: those that name something a
	// fact is read from (see mayHoldFacts).
	Files, Modules int
	// Facts are the facts it has, with where each was found
	// ("nemo_gym/server_utils.py:21").
	Facts map[Fact]string
	// RefTypes are the server types a config's server reference can name
	// ({type: T, name: N}), read from the framework's reference models
	// (refs.go), sorted; nil when it declares none (ServerRefTypes then
	// gives the defaults).
	RefTypes []string
	// FuncModules are the dotted modules (from the package,
	// "nemo_gym.server_utils" or "nemo_gym.server_runtime.server_utils")
	// that define the framework's functions and classes that fixes import
	// (EntrypointFunc, RefuseWorkersFunc, LostSessionFunc,
	// TokenSerializerFunc, the session and error classes), by name, when
	// they were found: where a fix imports them from, and where GL102's
	// help names the refusal (ImportOf).
	FuncModules map[string]string
	// Problems are what could not be read (files of the package over the
	// size limit, beyond the bound on modules, with syntax errors): facts
	// in them may be missing.
	Problems []string
}

// ImportOf is the module to import the framework function or class fn
// from: the one the framework defines it in, else, as the flat layout has
// it, pkg.base_resources_server for the resources server's names
// (ResourcesNames) and pkg.server_utils for the others (pkg the framework
// package, "" for DefaultPackage).
func (fw *Framework) ImportOf(fn, pkg string) string {
	if fw != nil && fw.FuncModules[fn] != "" {
		return fw.FuncModules[fn]
	}
	if pkg == "" {
		pkg = DefaultPackage
	}
	if ResourcesNames[fn] {
		return pkg + "." + ResourcesModule
	}
	return pkg + "." + ServerUtilsModule
}

// ResourcesModule is the framework module, below the package, that defines
// the resources server and its session contract (in the flat layout;
// server_runtime.base_resources_server in the nested one).
const ResourcesModule = "base_resources_server"

// ResourcesNames are the names the resources server's module defines that
// suggested fixes import: the session contract's functions and classes.
var ResourcesNames = map[string]bool{
	LostSessionFunc: true, TokenSerializerFunc: true, SessionFencesClass: true, SessionLocksClass: true,
}

func init() {
	for _, e := range ErrorClasses {
		ResourcesNames[e.Name] = true
	}
}

// Has reports whether the framework has the fact; every fact holds when no
// framework was found.
func (fw *Framework) Has(f Fact) bool {
	if fw == nil || !fw.Found {
		return true
	}
	_, ok := fw.Facts[f]
	return ok
}

// Known reports whether the framework was found and read, so that Has
// answers from its source.
func (fw *Framework) Known() bool { return fw != nil && fw.Found }

// Lacks reports whether the framework was read and does not have the
// fact (unlike !Has, false when no framework was found).
func (fw *Framework) Lacks(f Fact) bool { return fw.Known() && !fw.Has(f) }

// Missing returns the facts of needs the framework lacks, in needs' order.
func (fw *Framework) Missing(needs []Fact) []Fact {
	var out []Fact
	for _, f := range needs {
		if !fw.Has(f) {
			out = append(out, f)
		}
	}
	return out
}

// Applies reports whether a rule that needs these facts is applied in mode.
func (fw *Framework) Applies(mode Mode, needs []Fact) bool {
	return mode == Latest || len(fw.Missing(needs)) == 0
}

// Display is the framework's directory as the summary shows it: "./nemo_gym"
// inside the root, the absolute path outside.
func (fw *Framework) Display() string {
	if strings.HasPrefix(fw.Dir, "/") {
		return fw.Dir
	}
	return "./" + fw.Dir
}

// Skipped is a rule that was not applied, and the facts it lacked.
type Skipped struct {
	Code    string
	Missing []Fact
}

// Notes are the lines that say which contract the rules were judged by,
// each short (at most about 200 characters), for the summary of a check:
//
//   - no framework found: one line that says so, and that the latest
//     contract is assumed;
//   - mode Latest on a framework that predates parts of the contract: one
//     line that counts them;
//   - mode Auto: for the rules of named (those the user chose one by one,
//     by code or name) that skipped holds, a line per fact they lack that
//     names them and says why (see Reason); then one line that counts the
//     other rules not applied and sends to `gymlint config` for the list.
//
// order lists every rule code in the catalogue's order, for ranges such as
// GL101-GL106. Notes is empty when every rule was applied against a
// framework that has the whole contract. Detail gives the long form.
func Notes(fw *Framework, mode Mode, skipped []Skipped, named, order []string) []string {
	if !fw.Known() {
		return []string{fmt.Sprintf("no %s framework package found (in the repository, framework_path or a virtual environment): checked against the latest contract", fw.Package)}
	}
	where := fmt.Sprintf("%s at %s", fw.Package, shortPath(fw.Display()))
	if mode == Latest {
		lacks := 0
		for _, in := range Facts {
			if !fw.Has(in.Fact) {
				lacks++
			}
		}
		if lacks == 0 {
			return nil
		}
		parts := fmt.Sprintf("%d of the %d parts", lacks, len(Facts))
		if lacks == len(Facts) {
			parts = fmt.Sprintf("all %d parts", lacks)
		}
		return []string{fmt.Sprintf("%s predates %s of the contract (gymlint config lists them); --contract latest applies every rule anyway", where, parts)}
	}
	var lines []string
	var chosen, others []Skipped
	for _, sk := range skipped {
		if slices.Contains(named, sk.Code) {
			chosen = append(chosen, sk)
		} else {
			others = append(others, sk)
		}
	}
	for _, g := range groups(chosen) {
		it := "them"
		if len(g.codes) == 1 {
			it = "it"
		}
		line := fmt.Sprintf("%s not applied: %s %s; --contract latest applies %s", Ranges(g.codes, order), where, Reason(g.fact), it)
		if in := InfoOf(g.fact); in != nil && len(line) > maxNote {
			line = fmt.Sprintf("%s not applied: %s predates %s; --contract latest applies %s", Ranges(g.codes, order), where, in.Predates, it)
		}
		lines = append(lines, line)
	}
	if n := len(others); n > 0 {
		more := ""
		if len(chosen) > 0 {
			more = " more"
		}
		rules, it := "rules", "them"
		if n == 1 {
			rules, it = "rule", "it"
		}
		lines = append(lines, fmt.Sprintf("%d%s %s not applied: the framework at %s predates %s; gymlint config lists %s; --contract latest applies %s",
			n, more, rules, shortPath(fw.Display()), it, it, it))
	}
	return lines
}

// Detail is the long form of Notes' count: for each fact that rules were
// skipped for, in the facts' order, "GL101-GL117: " and the Reason.
func Detail(skipped []Skipped, order []string) []string {
	var lines []string
	for _, g := range groups(skipped) {
		lines = append(lines, Ranges(g.codes, order)+": "+Reason(g.fact))
	}
	return lines
}

// Reason says why a rule that needs the facts missing is not applied by
// a framework that lacks them: "predates the worker refusal (BaseServer
// has no multiple_workers_unsupported_reason)", parts joined with "and".
func Reason(missing ...Fact) string {
	var parts []string
	for _, f := range missing {
		if in := InfoOf(f); in != nil {
			parts = append(parts, fmt.Sprintf("%s (%s)", in.Predates, in.Lacks))
		} else {
			parts = append(parts, f)
		}
	}
	return "predates " + strings.Join(parts, " and ")
}

// group is the rules skipped for want of one fact (the first they lack).
type group struct {
	fact  Fact
	codes []string
}

// groups groups skipped by the first fact each lacks, in the facts' order.
func groups(skipped []Skipped) []group {
	byFact := map[Fact][]string{}
	for _, s := range skipped {
		byFact[s.Missing[0]] = append(byFact[s.Missing[0]], s.Code)
	}
	var out []group
	for _, in := range Facts {
		if codes := byFact[in.Fact]; len(codes) > 0 {
			out = append(out, group{in.Fact, codes})
			delete(byFact, in.Fact)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(byFact)) { // facts Facts does not list
		out = append(out, group{f, byFact[f]})
	}
	return out
}

// maxNote is the length a note keeps under when it can: a line that names
// rules and is longer leaves out what the framework lacks (gymlint config
// says it).
const maxNote = 190

// maxPathNote bounds a path in a note: a longer one keeps its last
// components after "...".
const maxPathNote = 72

// shortPath is p, or "..." and its tail when p is longer than
// maxPathNote, so that a note stays short wherever the framework is.
func shortPath(p string) string { return clip.Tail(p, maxPathNote) }

// Ranges writes codes as runs of the catalogue order: "GL101-GL106,
// GL302". Codes order does not list come last, sorted.
func Ranges(codes, order []string) string {
	in := map[string]bool{}
	for _, c := range codes {
		in[c] = true
	}
	var out []string
	run := []string{}
	flush := func() {
		switch len(run) {
		case 0:
		case 1:
			out = append(out, run[0])
		case 2:
			out = append(out, run[0], run[1])
		default:
			out = append(out, run[0]+"-"+run[len(run)-1])
		}
		run = run[:0]
	}
	seen := map[string]bool{}
	for _, c := range order {
		if in[c] {
			run = append(run, c)
			seen[c] = true
		} else {
			flush()
		}
	}
	flush()
	var rest []string
	for c := range in {
		if !seen[c] {
			rest = append(rest, c)
		}
	}
	sort.Strings(rest)
	return strings.Join(append(out, rest...), ", ")
}

// Requirement is the sentence rule pages give about the facts a rule
// needs, "" when it needs none.
func Requirement(needs []Fact) string {
	if len(needs) == 0 {
		return ""
	}
	var parts []string
	for _, f := range needs {
		if in := InfoOf(f); in != nil {
			parts = append(parts, fmt.Sprintf("%s (`%s`)", in.Has, f))
		}
	}
	return "Contract: applied where " + strings.Join(parts, " and ") + "; under `--contract auto` (the default) a repository whose framework predates this is not checked by the rule, and the summary says so."
}
