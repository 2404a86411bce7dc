package gym

import "github.com/gymlint/gymlint/diag"

// The core rules report what gymlint meets while it reads a repository:
// files it cannot read, syntax it cannot parse, configs that name no usable
// module. They are not about a server's behaviour, but each one hides a
// server from the other rules, so each is an error by default.
var (
	RuleSyntaxError = &diag.Rule{
		Code: "GL001", Name: "python-syntax-error", Analyzer: "core", Severity: diag.Error,
		Summary: "A Python module that gymlint needs does not parse.",
		Doc: `## What it does
Reports the first syntax error in a Python module that gymlint reads: a server entrypoint, or a
module that a server class's ancestry comes from.

## Why it matters
A module that does not parse fails at import, so its server never starts. gymlint also cannot see
what the broken part defines, so it skips the other rules for that module rather than guess.

## Example
` + "```python" + `
class EchoServer(SimpleResourcesServer:
    ...
` + "```" + `

## How to fix
Fix the syntax at the reported position. gymlint parses Python 3 as tree-sitter-python does
(through Python 3.12 syntax).`,
	}

	RuleUnreadableFile = &diag.Rule{
		Code: "GL002", Name: "unreadable-file", Analyzer: "core", Severity: diag.Error,
		Summary: "A config or module that gymlint needs cannot be read, or was not analysed.",
		Doc: `## What it does
Reports a YAML file or a needed Python module that gymlint does not read: larger than the size
limit (` + "`--max-file-size`" + `, 4 MiB by default), binary (it contains a NUL byte), not valid UTF-8, a symbolic
link loop, a symbolic link that leaves the repository, or a file the operating system refuses.
It also reports a Python module that was read but not analysed because its parse ran out of
budget: its own (2,048 steps plus 64 per KB, several times what real code needs; or the processor
time that its steps allow, on input that tree-sitter's error recovery is very slow on), or the
scan's (` + "`--parse-budget`" + `). Such a module is not reported as a syntax error (GL001): nothing is
known of its syntax.

## Why it matters
The rules cannot check what they cannot read, and gymlint never reads outside the scanned root, so
a server behind such a file would otherwise pass unchecked.

## Example
` + "`configs/server.yaml -> ../../../../etc/server.yaml`" + ` (a link out of the repository).

## How to fix
Point the link at a file inside the repository, save the file as UTF-8, or raise the size limit.
For a module over its own parse budget, split it, or keep generated data out of the modules that
servers import; for the scan's, raise ` + "`--parse-budget`" + `.`,
	}

	RuleInvalidConfig = &diag.Rule{
		Code: "GL003", Name: "invalid-config", Analyzer: "core", Severity: diag.Error,
		Summary: "A YAML file does not parse, or a server's entrypoint is not a file name.",
		Doc: `## What it does
Reports a YAML file that does not parse (with the line of the error), one whose aliases expand
beyond a fixed budget (an "alias bomb"), and a server instance whose ` + "`entrypoint`" + ` is not a file
name (a list, a mapping, empty or null).

## Why it matters
The framework loads every config it is given; one that does not parse stops the run, and gymlint
cannot see the servers it declares.

## Example
` + "```yaml" + `
echo_server:
  resources_servers:
    echo:
      entrypoint: [app.py]
` + "```" + `

## How to fix
Fix the YAML at the reported line; give ` + "`entrypoint`" + ` a module path relative to the server directory.`,
	}

	RuleDuplicateConfigKey = &diag.Rule{
		Code: "GL004", Name: "duplicate-config-key", Analyzer: "core", Severity: diag.Error,
		Summary: "A YAML mapping has the same key twice.",
		Doc: `## What it does
Reports the second occurrence of a key in a YAML mapping. Keys that override keys brought in by a
` + "`<<`" + ` merge are not duplicates.

## Why it matters
NeMo Gym loads configs with OmegaConf, which rejects duplicate keys with a ConstructorError, so the
config fails to load at startup. Tools that do load it (PyYAML) silently keep the last value.

## Example
` + "```yaml" + `
agent:
  responses_api_agents:
    swe_agent:
      entrypoint: app.py
      datasets: []
      datasets: []
` + "```" + `

## How to fix
Remove one of the two keys, keeping the value you mean.`,
	}

	RuleMissingEntrypoint = &diag.Rule{
		Code: "GL005", Name: "missing-entrypoint", Analyzer: "core", Severity: diag.Error,
		Summary: "A config names an entrypoint file that does not exist.",
		Doc: `## What it does
Reports a server instance (` + "`<instance>: <server_type>: <server_dir>: {entrypoint: FILE}`" + `) whose entrypoint,
taken relative to ` + "`<server_type>/<server_dir>/`" + `, names no file.

## Why it matters
The server supervisor starts ` + "`python FILE`" + ` in the server directory; a missing file fails the whole run
at startup.

## Example
` + "```yaml" + `
arxiv_tools:
  resources_servers:
    tools_arxiv:          # the directory is resources_servers/tools, not tools_arxiv
      entrypoint: app.py
` + "```" + `

## How to fix
Fix the server dir key or the entrypoint, or remove the entry.`,
	}

	RuleEntrypointOutsideRoot = &diag.Rule{
		Code: "GL006", Name: "entrypoint-outside-root", Analyzer: "core", Severity: diag.Error,
		Summary: "A config's entrypoint leaves the repository.",
		Doc: `## What it does
Reports an entrypoint that is an absolute path, that climbs out of the repository with ` + "`..`" + `, or that
is a symbolic link to a file outside it. ` + "`..`" + ` is fine while the result stays inside the repository.

## Why it matters
The supervisor rejects absolute entrypoints, and a module outside the repository is not part of
what is reviewed and shipped. gymlint never reads outside the scanned root.

## Example
` + "```yaml" + `
bridge:
  responses_api_agents:
    bridge_agent:
      entrypoint: ../../../../outside.py
` + "```" + `

## How to fix
Move the module into the repository and name it relative to the server directory.`,
	}

	RuleUnusedExemption = &diag.Rule{
		Code: "GL007", Name: "unused-exemption", Analyzer: "core", Severity: diag.Warning,
		Summary: "An exemption names no entrypoint.",
		Doc: `## What it does
Reports an entry of ` + "`exempt:`" + ` in ` + "`.gymlint.yaml`" + ` (or an ` + "`--exempt`" + ` flag) whose path is not a server entrypoint
(a server directory's app.py or a module a config names).

## Why it matters
A stale exemption hides nothing today, but it will silently hide a real server that later takes
that path, and it tells readers something false about the repository.

## Example
` + "```yaml" + `
exempt:
  - path: resources_servers/search/library.py   # renamed long ago
    reason: Library module; starts no server.
` + "```" + `

## How to fix
Remove the exemption, or correct its path (relative to the repository root).`,
	}

	RuleInconsistentMRO = &diag.Rule{
		Code: "GL012", Name: "inconsistent-mro", Analyzer: "core", Severity: diag.Error,
		Summary: "A class has no method resolution order: its bases form a cycle, C3 cannot order them, or they are deeper than gymlint follows.",
		Doc: `## What it does
Reports a class of a server entrypoint, or an ancestor of one, that has no method resolution order:
- its repository bases form a cycle (` + "`class A(B)`" + ` and ` + "`class B(A)`" + `, in one module or across modules
  that import each other), reported once per cycle at its first class, with the others as related
  positions;
- C3 linearisation cannot merge its bases (` + "`class Z(X, Y)`" + ` where X lists A before B and Y lists B
  before A, or a base listed before its own subclass), or it lists a base twice;
- its ancestry is deeper than gymlint follows (more than 256 levels of repository classes, or a
  method resolution order of more than 512 classes), reported once per entrypoint module.

A cycle is reported only when every class statement of it and the binding of each base name run
unconditionally at module scope (not under try, if or a loop, not rebound, no star import), so the
classes are what gymlint resolved them to.

## Why it matters
Python refuses such a class when the module is imported: a cycle fails with NameError (a class
statement names a class that is not defined yet) or ImportError (two modules import each other
before either defines its class), an order C3 cannot merge with
` + "`TypeError: Cannot create a consistent method resolution order (MRO)`" + `, a repeated base with
` + "`TypeError: duplicate base class`" + `. The server never starts. gymlint cannot look a method up in an
ancestry it cannot order either, so the other rules say nothing of such a class (nor of a class
whose ancestry is beyond its bounds) rather than guess.

## Example
` + "```python" + `
class Base(SimpleResourcesServer): ...
class Tools(Base): ...
class EchoServer(Base, Tools):  # Base comes before its own subclass Tools
    ...
` + "```" + `

## How to fix
List every class before its own bases (` + "`class EchoServer(Tools, Base)`" + `, or just ` + "`class EchoServer(Tools)`" + `),
make the bases agree on the order of the classes they share, and break a cycle by making one class
stop deriving from the other. Flatten a hierarchy deeper than gymlint follows.`,
	}
)

// Rules lists the core rules.
var Rules = []*diag.Rule{
	RuleSyntaxError, RuleUnreadableFile, RuleInvalidConfig, RuleDuplicateConfigKey,
	RuleMissingEntrypoint, RuleEntrypointOutsideRoot, RuleUnusedExemption, RuleInconsistentMRO,
}

// Check is one rule of an analyzer: its metadata and the function that
// finds its diagnostics in a view.
type Check struct {
	Rule *diag.Rule
	Run  func(v *View) []diag.Diagnostic
	// ConfigsOnly is set for a repository-wide rule whose findings the
	// configs and their composed runs alone decide, the same in every
	// view (Run must not read the view's entrypoints, modules or files):
	// it is run once for every view of the same configs
	// (View.SharedByConfigs), and a session that analyses a group again
	// after an edit of Python files only keeps its findings
	// (Cache.SetSharedByConfigs) instead of composing every run again.
	ConfigsOnly bool
}
