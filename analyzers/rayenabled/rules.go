package rayenabled

import (
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
)

// The rules of this analyzer. Their docs are the pages `gymlint explain`
// prints and docs/rules.md renders.
var (
	// UndeclaredRay is rule GL201.
	UndeclaredRay = &diag.Rule{
		Code: "GL201", Name: "undeclared-ray", Analyzer: "rayenabled", Severity: diag.Error,
		Needs:   []string{contract.RayPerDeclaration},
		Summary: "A server uses Ray but its entrypoint does not declare ray_enabled = True.",
		Doc: `## What it does
Reports a server class that uses Ray while its entrypoint source does not declare
` + "`ray_enabled = True`" + ` on it (or declares ` + "`ray_enabled = False`" + `). Ray use is looked for in the
entrypoint, in the modules of the server class's ancestor classes inside the repository, and in every
repository module these import at module scope, transitively; modules of the framework package are
never searched (the framework imports Ray for every server, which says nothing about this one).

Ray use is:
- an import of ` + "`ray`" + ` or of a module of the ray package, at any scope: ` + "`import ray`" + `,
  ` + "`from ray.util.placement_group import placement_group`" + `, and also ` + "`from ray.exceptions import RayTaskError`" + `
  inside a function (that code path needs Ray). ` + "`@ray.remote`" + ` (on a module-level or nested function),
  ` + "`ray.get`" + `, ` + "`ray.put`" + `, ` + "`ray.wait`" + `, ` + "`ray.init`" + `, ` + "`ray.cancel`" + ` called or passed as a value
  (` + "`asyncio.to_thread(ray.get, ref)`" + `) all need such an import, which gymlint reports as the place of use;
- a from-import of ` + "`ray`" + ` from a module that binds it to the ray package (` + "`from nemo_gym.server_utils import ray`" + `),
  and a module-level from-import of a name that a repository module binds to a Ray object;
- a name that resolves to the ray package where no import of the module names it: ` + "`ray.get`" + ` after
  ` + "`from helpers import *`" + ` (a helper that imports ray), ` + "`su.ray.wait`" + ` after ` + "`import nemo_gym.server_utils as su`" + `
  (a framework outside the repository is taken to export ray from its modules, as the real one does);
- ` + "`fn.remote(...)`" + ` or ` + "`fn.options(...).remote(...)`" + ` where fn is a repository function or class made a Ray remote
  function or actor class (` + "`@ray.remote`" + ` or ` + "`fn = ray.remote(...)`" + `), imported at any scope or bound at module scope.

A ` + "`.remote(...)`" + ` call on anything else (a parameter, an attribute of ` + "`self`" + `, a name a function rebinds, as in
` + "`score = wrap(score)`" + `), a name ` + "`ray`" + ` that no import binds to the ray package (a variable, a parameter, a lambda's
parameter or a comprehension's variable), and a mention in a docstring or comment are not use: gymlint reads the
syntax, not the text. Imports inside functions of other modules are not followed (they run only when that code
runs), nor is code in the ` + "`if __name__ == \"__main__\":`" + ` guard of a module other than the entrypoint.

This rule and the other rayenabled rules (GL202 to GL205) skip an entrypoint that does not parse
(GL001) and one listed under ` + "`exempt:`" + ` in ` + "`.gymlint.yaml`" + ` (a module that starts no server).

## Why it matters
The server supervisor starts or joins Ray only for the configured servers whose entrypoint source
declares ` + "`ray_enabled = True`" + `, and it reads only that source. A server that uses Ray without the
declaration fails at startup, or at its first Ray call.

## Example
` + "```python" + `
import ray


@ray.remote
def score(text): ...


class TranslateServer(SimpleResourcesServer):
    async def verify(self, body):
        return await asyncio.to_thread(ray.get, score.remote(body.text))
` + "```" + `

## How to fix
Declare it on the server class, in the entrypoint, annotated as a class variable:
` + "```python" + `
from typing import ClassVar


class TranslateServer(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = True
` + "```" + `
When the server class is defined in another module and only started from the entrypoint, subclass it
in the entrypoint with the declaration and start the subclass.`,
	}

	// InheritedRayEnabled is rule GL202.
	InheritedRayEnabled = &diag.Rule{
		Code: "GL202", Name: "inherited-ray-enabled", Analyzer: "rayenabled", Severity: diag.Error,
		Needs:   []string{contract.RayDeclaration},
		Summary: "A server's ray_enabled declaration is inherited from a class in another module.",
		Doc: `## What it does
Reports a server class that does not declare ` + "`ray_enabled`" + ` itself but inherits it from a repository class
defined in another module (the first such class in its method resolution order, unless that class sets
it to the literal ` + "`False`" + `), and a server class defined outside its entrypoint that declares it there.

## Why it matters
The server supervisor reads ` + "`ray_enabled = True`" + ` only from the entrypoint's source, on the server class.
An inherited declaration is invisible to it: Ray is not started, and the server fails at startup with
an error asking it to declare ` + "`ray_enabled = True`" + ` itself.

## Example
` + "```python" + `
# responses_api_models/reranker/app.py
from responses_api_models.local_model.app import LocalModel   # declares ray_enabled


class RerankerModel(LocalModel):
    pass
` + "```" + `

## How to fix
Repeat the declaration on the server class itself:
` + "```python" + `
class RerankerModel(LocalModel):
    ray_enabled: ClassVar[bool] = True
` + "```",
	}

	// UnreadableRayEnabled is rule GL203.
	UnreadableRayEnabled = &diag.Rule{
		Code: "GL203", Name: "unreadable-ray-enabled", Analyzer: "rayenabled", Severity: diag.Error,
		Needs:   []string{contract.RayDeclaration},
		Summary: "A ray_enabled declaration cannot be read from the entrypoint's source.",
		Doc: `## What it does
Reports, in an entrypoint, a ` + "`ray_enabled`" + ` declaration that the server supervisor cannot read:
- on the server class, a value other than the literal ` + "`True`" + ` or ` + "`False`" + ` (` + "`ray_enabled = USE_RAY`" + `,
  ` + "`ray_enabled = os.environ.get(...) == \"1\"`" + `), or an annotation without a value;
- when the server class's body has no ` + "`ray_enabled`" + `: an assignment in a function
  (` + "`self.ray_enabled = True`" + `, ` + "`cls.ray_enabled = True`" + `, ` + "`EchoServer.ray_enabled = True`" + `), a
  ` + "`setattr(..., \"ray_enabled\", ...)`" + ` call (the builtin), or a declaration on another class of the entrypoint that is not
  one of its server classes (a base class or mixin in the same file, a helper class).

Assignments and calls whose value is the literal ` + "`False`" + ` are not reported.

## Why it matters
The supervisor decides whether to start Ray by reading the literal ` + "`ray_enabled = True`" + ` in the server
class's body, before anything runs. A computed value, a value set at run time or one on another class
does not count: Ray is not started for the server, which fails at startup if it needs Ray.

## Example
` + "```python" + `
USE_RAY = os.environ.get("USE_RAY") == "1"


class EvalServer(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = USE_RAY
` + "```" + `

## How to fix
Write the literal on the server class: ` + "`ray_enabled: ClassVar[bool] = True`" + ` if the server uses Ray, and
remove the declaration otherwise.`,
	}

	// UnannotatedRayEnabled is rule GL204.
	UnannotatedRayEnabled = &diag.Rule{
		Code: "GL204", Name: "unannotated-ray-enabled", Analyzer: "rayenabled", Severity: diag.Error,
		Summary: "A bare ray_enabled = ... in a server class raises at import (pydantic).",
		Doc: `## What it does
Reports a ` + "`ray_enabled`" + ` assignment without an annotation in the body of a server class whose ancestors
do not declare ` + "`ray_enabled`" + ` as a ` + "`ClassVar`" + `. Ancestors are searched in the repository: its own classes
and, when the framework package is part of the repository, the framework's classes. A framework
outside the repository cannot be read; gymlint then assumes it does not declare the ` + "`ClassVar`" + `, as the
NeMo Gym framework gymlint was built against does not, and reports the bare form. The annotated form is
right in either case, so following the advice never breaks a server. When the ancestry runs through a
class gymlint cannot resolve, nothing is reported.

An ancestor declares the ` + "`ClassVar`" + ` when its annotation is typing's ` + "`ClassVar`" + `, alone or subscripted, under
the name its module binds it (` + "`ClassVar[bool]`" + `, ` + "`typing.ClassVar[bool]`" + `, ` + "`t.ClassVar`" + `, ` + "`CV[bool]`" + ` after
` + "`from typing import ClassVar as CV`" + `). An annotation gymlint cannot decide from the syntax may declare it, and
then nothing is reported either: a string annotation (` + "`\"ClassVar[bool]\"`" + `, which would have to be parsed
from its text), or a name ending in ` + "`ClassVar`" + ` that does not resolve to typing's (` + "`typing.ClassVar`" + ` in a
module that does not import typing, a name from a star import).

## Why it matters
Server classes are pydantic models. Pydantic rejects a non-annotated attribute in a model's body when
the class is created, at import, with ` + "`PydanticUserError: A non-annotated attribute was detected`" + `, so the
server never starts. A ` + "`ClassVar`" + ` declaration on an ancestor makes the bare form legal.

## Example
` + "```python" + `
class EvalServer(SimpleResourcesServer):
    ray_enabled = True
` + "```" + `

## How to fix
Annotate it as a class variable:
` + "```python" + `
from typing import ClassVar


class EvalServer(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = True
` + "```" + `
` + "`gymlint --fix`" + ` makes this change, and adds the import when the module does not bind ` + "`ClassVar`" + ` (it writes
` + "`typing.ClassVar[bool]`" + ` when the module imports ` + "`typing`" + ` instead). For a value in parentheses it inserts the
annotation after the name and leaves the rest as written. It makes no change to a chained assignment
(` + "`ray_enabled = other = True`" + `), a name in parentheses, a value on the next line after a backslash, or a module
that binds ` + "`ClassVar`" + ` to something else and does not import typing.`,
	}

	// UnneededRayEnabled is rule GL205.
	UnneededRayEnabled = &diag.Rule{
		Code: "GL205", Name: "unneeded-ray-enabled", Analyzer: "rayenabled", Severity: diag.Warning,
		Needs:   []string{contract.RayDeclaration},
		Summary: "A server declares ray_enabled = True but uses no Ray.",
		Doc: `## What it does
Reports ` + "`ray_enabled = True`" + ` on a server class when gymlint finds no Ray use for it (see GL201 for what
counts and where it looks).

It stays silent when the search is incomplete (a module on the way does not parse or cannot be read,
or the class's ancestry runs through a class gymlint cannot resolve), and when a config may make the
server use Ray through code gymlint does not read, such as a library: a config instance that names the
entrypoint, or an override of such an instance (same instance name, server type and directory, in any
config file), has a setting, at any depth, whose key contains the word ` + "`ray`" + ` (` + "`ray_address`" + `,
` + "`num_ray_workers`" + `, ` + "`VLLM_RAY_DP_PACK_STRATEGY`" + `; not ` + "`array`" + `) or whose value is exactly ` + "`ray`" + `
(` + "`distributed_executor_backend: ray`" + `). Interpolations (` + "`${...}`" + `) are not taken as a sign of Ray: they are
everywhere in configs.

## Why it matters
A declared server makes the run start a Ray cluster, or join one, for nothing: slower startup,
resources held, and one more thing that can fail.

## Example
` + "```python" + `
class EchoServer(SimpleResourcesServer):
    ray_enabled: ClassVar[bool] = True   # nothing here uses Ray

    async def verify(self, body):
        return BaseVerifyResponse(reward=1.0)
` + "```" + `

## How to fix
Remove the declaration. If the server does use Ray through a library gymlint does not read, keep it.`,
	}
)
