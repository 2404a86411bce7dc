package workers

import "github.com/gymlint/gymlint/diag"

// RefusedNumWorkers is rule GL104.
var RefusedNumWorkers = &diag.Rule{
	Code: "GL104", Name: "refused-num-workers", Analyzer: "workers", Severity: diag.Error,
	Summary: "A config sets num_workers above 1 for a server that refuses several workers.",
	Doc: `## What it does
Reports a YAML config that sets ` + "`num_workers`" + ` above 1 for a server whose
` + "`multiple_workers_unsupported_reason()`" + ` returns a reason for that config: unconditionally, or under a
condition on the server's own config fields that the same YAML mapping makes true. The finding is
at the ` + "`num_workers`" + ` value, with the reason's text when the method returns a string literal, and
names the method (and the config values that decided a condition) as related places.

` + "`num_workers`" + ` counts when it is an integer above 1 or a string that is one (` + "`\"4\"`" + `, which pydantic
reads as 4). ` + "`1`" + `, ` + "`\"1\"`" + `, ` + "`null`" + `, a float and an interpolation such as ` + "`${oc.env:WORKERS,4}`" + ` are not
decided.

The method is read without running it: every return with its enclosing if/elif tests, every raise,
and the end of the body. A return gives a reason when it returns a non-empty string literal, an
f-string or ` + "`\"...\".format(...)`" + ` with text, or a module constant (or ClassVar) bound once to a
non-empty literal; ` + "`None`" + `, a bare return, ` + "`\"\"`" + `, the end of the body, and
` + "`super().multiple_workers_unsupported_reason()`" + ` reaching the framework's default give none; a
super() call reaching a parent's override in the repository is read through; anything else (a call,
a variable) is unknown, and a method with an unknown return on a path that the config leaves open
is not reported. A condition is decided only when it is built from simple tests of the server's config,
` + "`self.config.<field>`" + `: ` + "`== \"literal\"`" + ` (or a number, True, False), ` + "`!=`" + `, ` + "`in (\"a\", \"b\")`" + `, truthiness,
` + "`is None`" + ` / ` + "`is not None`" + `, and ` + "`>`" + `, ` + "`>=`" + `, ` + "`<`" + `, ` + "`<=`" + ` against a number, combined with ` + "`not`" + `, ` + "`and`" + `, ` + "`or`" + `,
if/elif/else and ` + "`A if C else B`" + `; and only when the YAML gives those fields literal values. A field the
mapping does not set (its default lives in the config class), an interpolation, ` + "`???`" + `, a test of
anything else (` + "`self.mode`" + `, a call), a loop or try around the return, and a string such as
` + "`yes`" + ` or ` + "`off`" + ` that YAML 1.1 (OmegaConf) and YAML 1.2 read differently leave a test open. A finding
needs every way through the method that the open tests still allow to refuse (or raise).

Which configs are read: each server instance whose ` + "`entrypoint`" + ` names the module, and each
override without an ` + "`entrypoint`" + ` (such as a benchmark's
` + "`policy_model: responses_api_models: vllm_model: num_workers: 16`" + `), which is matched to the server
directory's app.py, ` + "`<type>/<dir>/app.py`" + `, when that is an entrypoint. Merge keys (` + "`<<: *anchor`" + `)
within a file are applied; ` + "`_inherit_from`" + `, ` + "`_copy`" + ` and ` + "`config_paths`" + ` are not followed, so a value
that only arrives through them is not seen, and an override is judged on the keys it sets itself.

## Why it matters
` + "`run_webserver`" + ` asks the server for ` + "`multiple_workers_unsupported_reason()`" + ` before uvicorn starts and
refuses ` + "`num_workers > 1`" + ` with that reason: the run (or the dry run) fails at startup. A config that
asks for several workers from such a server cannot work as written.

## Example
` + "```python" + `
class SpeedBenchServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:
        if self.config.metrics_source == "prometheus":
            return "The decoding window starts from a metrics snapshot in this process's memory."
        return None
` + "```" + `
` + "```yaml" + `
speed_bench:
  resources_servers:
    speed_bench:
      entrypoint: app.py
      metrics_source: prometheus
      num_workers: 4          # GL104: refused with metrics_source: prometheus
` + "```" + `

## How to fix
Set ` + "`num_workers: 1`" + ` or remove it; or change the config so that the server does not refuse (here,
another ` + "`metrics_source`" + `); or, if the server is in fact safe with several workers, make it so and drop
or narrow the refusal (and give the module a module-level ` + "`app`" + `).`,
}

// conflictKey is the setting name.
const conflictKey = "num_workers"
