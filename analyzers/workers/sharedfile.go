package workers

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
)

// UnlockedSharedStateFile is rule GL111.
var UnlockedSharedStateFile = &diag.Rule{
	Code: "GL111", Name: "unlocked-shared-state-file", Analyzer: "workers", Severity: diag.Error,
	Needs:   []string{contract.WorkerRefusal},
	Summary: "A server that accepts several workers writes a file whose path does not depend on the session, without a file lock.",
	Doc: `## What it does
Reports a write of a file, in a route of a server that accepts several workers (see GL105), in a
method of it that start-up code does not run (a route may call it by a computed name), or in its
start-up code (` + "`__init__`" + `, ` + "`model_post_init`" + `, ` + "`setup_webserver`" + ` and what they reach), when
the path is one every worker shares and no file lock is held:

- a **write** is ` + "`open(p, mode)`" + ` (the builtin or ` + "`io.open`" + `) with a constant mode that writes (` + "`w`" + `, ` + "`a`" + `,
  ` + "`x`" + `, ` + "`+`" + `), whatever is then written through the file (` + "`f.write`" + `, ` + "`json.dump(obj, f)`" + `);
  ` + "`p.write_text(...)`" + ` or ` + "`p.write_bytes(...)`" + `; or ` + "`shutil.copy/copy2/copyfile/move(src, p)`" + `.
  ` + "`os.makedirs`" + ` is not a write, nor is a read-only ` + "`open`" + `.
- the path is **fixed** when it is built only from string constants, module constants, fields of the
  server's config (` + "`self.config.x`" + `) and joins of those (` + "`os.path.join`" + `, ` + "`Path(...)`" + `, ` + "`/`" + `, ` + "`+`" + `, f-strings),
  traced through locals and through the arguments the server's own calls pass a parameter; it is
  **keyed by the body** when a part is a request-body field other than the session's id
  (` + "`body.task_id`" + `). A path with a part of the routed session's id (` + "`request.session[SESSION_ID_KEY]`" + `,
  ` + "`body.resources_session_id`" + `) is the session's own and is never reported, nor is a path gymlint cannot
  tell (a temporary file from ` + "`tempfile`" + `, one with ` + "`os.getpid()`" + ` in it, an attribute of the server).
- a **file lock** is a call of ` + "`fcntl.flock`" + `, ` + "`fcntl.lockf`" + ` or ` + "`portalocker.lock`" + ` in the writing function, or a
  with statement around the write whose context is ` + "`filelock.FileLock(...)`" + `, ` + "`portalocker.Lock(...)`" + `, or a
  call of a repository function (a lock helper) that takes one of these. An ` + "`asyncio.Lock`" + ` or a
  ` + "`threading.Lock`" + ` serializes one process only and does not count.

Names are resolved (` + "`open`" + `, ` + "`shutil`" + `, ` + "`fcntl`" + `, ` + "`filelock`" + `): a local or module function of the same
name is not the library's. Module-scope code is not read.

## Why it matters
With ` + "`num_workers > 1`" + ` every worker runs the same routes and the same start-up: a state file or log at a
fixed path is written by several processes at once and they overwrite each other (a truncating
` + "`open(p, \"w\")`" + `) or interleave their records (appends larger than the pipe buffer). A path keyed by a
body field such as a task id is shared too: requests with the same task id reach different workers,
which session routing does not prevent (the seed's deliverables directory).

## Example
` + "```python" + `
class LogServer(SimpleResourcesServer):
    async def verify(self, body):
        with open(self.config.log_path, "a") as f:   # reported: every worker appends here
            f.write(json.dumps(record) + "\n")
` + "```" + `

## How to fix
Write under the session's own directory (` + "`os.path.join(root, request.session[SESSION_ID_KEY])`" + `), or hold a
file lock around the write:
` + "```python" + `
        with open(self.config.log_path, "a") as f:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
            f.write(json.dumps(record) + "\n")
` + "```" + `
or refuse several workers: override ` + "`multiple_workers_unsupported_reason()`" + ` to return why, under the
configuration that writes the file.`,
}

// checkSharedFile finds the unlocked writes of shared files of a server.
func checkSharedFile(v *gym.View, e *gym.Entrypoint, server gym.ClassRef) []Hazard {
	fx := facts.Of(v)
	funcs := servedFuncs(fx, server)
	routed := map[*facts.Func]bool{}
	for _, fn := range funcs {
		routed[fn] = true
	}
	for _, re := range fx.Startup(server) {
		if !routed[re.Func] && re.Func.Module.SyntaxError == nil {
			funcs = append(funcs, re.Func)
		}
	}
	var out []Hazard
	for _, fn := range funcs {
		for _, w := range fx.FileWrites(fn) {
			p := fx.PathOf(server, fn, w.Path)
			if p.Kind != facts.PathFixed && p.Kind != facts.PathBody {
				continue
			}
			if fx.FileLocked(server, fn, w.Node) {
				continue
			}
			out = append(out, sharedFileHazard(server, fn, w, p, !routed[fn]))
		}
	}
	return out
}

func sharedFileHazard(server gym.ClassRef, fn *facts.Func, w facts.FileWrite, p facts.Path, startup bool) Hazard {
	m := fn.Module
	path := m.Text(w.Path)
	phase := "route " + fn.Name()
	if startup {
		phase = "start-up code " + fn.Name()
	}
	var msg, reason string
	if p.Kind == facts.PathBody {
		msg = fmt.Sprintf("%s writes %s (%s), keyed by the body field %s, which session routing ignores, without a file lock", phase, path, w.How, p.Field)
		reason = "It writes " + path + " keyed by the body field " + p.Field + ", so sessions on different workers can write the same file."
	} else {
		msg = fmt.Sprintf("%s writes the fixed path %s (%s) without a file lock: every worker writes it", phase, path, w.How)
		reason = "It writes " + path + ", which every worker shares."
	}
	fix := "write under the session's directory (request.session[SESSION_ID_KEY]) or hold a file lock (fcntl.flock, filelock.FileLock) around the write"
	start, end := gym.Range(m, w.Node.Range())
	return Hazard{
		Rule: UnlockedSharedStateFile, Path: m.Path, Start: start, End: end,
		Message: msg,
		Help:    hazardHelp(server.Class.Name, fix, "", reason),
	}
}
