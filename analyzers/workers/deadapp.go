package workers

import "github.com/gymlint/gymlint/diag"

// UnreachableApp is rule GL106.
var UnreachableApp = &diag.Rule{
	Code: "GL106", Name: "unreachable-app", Analyzer: "workers", Severity: diag.Warning,
	Summary: "A module-level app belongs to a server that always refuses several workers.",
	Doc: `## What it does
Reports a module-level ` + "`app`" + ` (as GL101 undeclared-workers counts one: bound where uvicorn sees it
on import, such as the ` + "`elif is_nemo_gym_fastapi_entrypoint(__file__):`" + ` branch of the ` + "`__main__`" + ` guard)
in an entrypoint whose server's ` + "`multiple_workers_unsupported_reason()`" + ` returns a reason on every
path. The server is the class the app is built from (` + "`app = X.run_webserver()`" + `), or the module's only
server class. A refusal that depends on the config (` + "`if self.config.x: return \"...\"`" + `) is not
reported: the app serves the configurations that do not refuse. How the method is read is described
under GL104 refused-num-workers; a method gymlint cannot read fully (it returns a computed value on
some path, or its ancestry cannot be resolved) is not reported.

## Why it matters
uvicorn imports the module's ` + "`app`" + ` only when ` + "`num_workers`" + ` is above 1, and then ` + "`run_webserver`" + ` has
already refused to start with the server's reason; with one worker the app object that
` + "`run_webserver`" + ` builds is served directly. So this ` + "`app`" + ` is never served: it is dead code, and it
misleads readers into taking the server as safe with several workers. Usually one of the
two is a leftover: the refusal of a server that was made safe, or the app of a server that was found
not to be.

## Example
` + "```python" + `
class ToolSandboxServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:
        return "Episodes are kept in memory by the env_id in the request body."

if __name__ == "__main__":
    ToolSandboxServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = ToolSandboxServer.run_webserver()  # GL106: never served
` + "```" + `

## How to fix
If the server is not safe with several workers, remove the ` + "`app`" + ` (and its ` + "`elif`" + ` branch). If it is
safe, drop the refusal, or make it conditional on the configurations that are not safe.`,
}
