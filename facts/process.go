package facts

import (
	"strings"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// ProcessTie is something in a server's code that may tie the server to
// one process beyond its keyed state: a module that starts processes,
// actors, sockets or threads or touches files, a call that writes files or
// starts a process, a store into an attribute of the receiver, or a
// global statement. It is what a rule that would say "nothing but
// session-keyed state ties this server to one process" must find none of;
// it over-approximates on purpose.
type ProcessTie struct {
	// What names the tie: "import ray", "call os.makedirs",
	// "call .write_text", "store self.count", "global COUNTER".
	What   string
	Module *pyscan.Module
	// Func is the function it is in; nil for a module's import.
	Func *Func
	Node pyscan.Node
}

// tieModules are the modules (by their first name) whose import ties a
// server to its process: processes, actors, sockets, threads, file locks
// and file trees, and a shared random stream.
var tieModules = map[string]bool{
	"ray": true, "subprocess": true, "multiprocessing": true, "socket": true, "socketserver": true,
	"docker": true, "threading": true, "concurrent": true, "sqlite3": true, "fcntl": true,
	"filelock": true, "portalocker": true, "shutil": true, "tempfile": true, "random": true,
	"signal": true, "pexpect": true, "paramiko": true, "asyncssh": true, "atexit": true, "mmap": true,
}

// tieCalls are calls (by qualified name) that start a process or write
// the file system.
var tieCalls = map[string]bool{
	"os.system": true, "os.popen": true, "os.fork": true, "os.kill": true, "os.makedirs": true,
	"os.mkdir": true, "os.remove": true, "os.unlink": true, "os.rename": true, "os.replace": true,
	"os.rmdir": true, "os.symlink": true, "os.link": true, "os.truncate": true, "os.write": true,
	"os.open": true, "os.spawnl": true, "os.spawnv": true, "os.execv": true, "os.execvp": true,
	"asyncio.create_subprocess_exec": true, "asyncio.create_subprocess_shell": true,
	"asyncio.start_server": true, "json.dump": true, "pickle.dump": true,
}

// tieMethods are methods (by name, on a receiver gymlint does not
// resolve) that write the file system, as pathlib.Path's do.
var tieMethods = map[string]bool{
	"write_text": true, "write_bytes": true, "mkdir": true, "touch": true, "unlink": true,
	"rmdir": true, "rename": true, "replace": true, "symlink_to": true, "hardlink_to": true,
}

// ProcessTies returns the ties of a server: in its state's functions
// (State.Funcs: winning methods, what they reach, nested functions) and
// in the imports of their modules and of the module that defines the
// server class.
func (f *Facts) ProcessTies(server gym.ClassRef) []ProcessTie {
	v := f.v
	var out []ProcessTie
	mods := []*pyscan.Module{server.Module}
	seenMod := map[*pyscan.Module]bool{server.Module: true}
	funcs := f.StateOf(server).Funcs()
	for _, fn := range funcs {
		if !seenMod[fn.Module] {
			seenMod[fn.Module] = true
			mods = append(mods, fn.Module)
		}
	}
	for _, m := range mods {
		if m == nil {
			continue
		}
		for _, imp := range m.Imports {
			// Module.Imports has the imports of function bodies too.
			name := imp.Module
			if imp.Level > 0 {
				continue // a module of the repository
			}
			root, _, _ := strings.Cut(name, ".")
			if tieModules[root] {
				out = append(out, ProcessTie{What: "import " + name, Module: m})
			}
		}
	}
	for _, fn := range funcs {
		pyscan.InspectBody(fn.Fn.Body, func(n pyscan.Node, _ []pyscan.Node) bool {
			switch n := n.(type) {
			case *pyscan.Function, *pyscan.Class:
				return false // functions of their own (State.Funcs has the nested ones)
			case *pyscan.Global:
				out = append(out, ProcessTie{What: "global " + strings.Join(n.Names, ", "), Module: fn.Module, Func: fn, Node: n})
			case *pyscan.Assign:
				for _, t := range n.Targets {
					out = append(out, recvStores(fn, t, n)...)
				}
			case *pyscan.AnnAssign:
				if n.Value != nil {
					out = append(out, recvStores(fn, n.Target, n)...)
				}
			case *pyscan.AugAssign:
				out = append(out, recvStores(fn, n.Target, n)...)
			case *pyscan.Call:
				if t := callTie(v, fn, n); t != "" {
					out = append(out, ProcessTie{What: "call " + t, Module: fn.Module, Func: fn, Node: n})
				}
			}
			return true
		})
	}
	return out
}

// recvStores are the stores of an assignment target into an attribute of
// fn's receiver (`self.count = ...`, `self.a, self.b = ...`); a subscript
// store is state (StateOf), not one of these.
func recvStores(fn *Func, t pyscan.Expr, at pyscan.Node) []ProcessTie {
	var out []ProcessTie
	switch t := t.(type) {
	case *pyscan.Attribute:
		if r := pyscan.Root(t); r != nil && fn.Recv != "" && r.Id == fn.Recv && pyscan.Dotted(t) != "" {
			out = append(out, ProcessTie{What: "store " + pyscan.Dotted(t), Module: fn.Module, Func: fn, Node: at})
		}
	case *pyscan.Tuple:
		for _, e := range t.Elts {
			out = append(out, recvStores(fn, e, at)...)
		}
	case *pyscan.List:
		for _, e := range t.Elts {
			out = append(out, recvStores(fn, e, at)...)
		}
	case *pyscan.Starred:
		out = append(out, recvStores(fn, t.Value, at)...)
	}
	return out
}

// callTie says which tie a call is ("os.makedirs", "open for writing",
// ".write_text"), "" for none.
func callTie(v *gym.View, fn *Func, c *pyscan.Call) string {
	q := v.QualifiedName(fn.Module, c.Func)
	switch {
	case q == "builtins.open" || q == "io.open" || q == "aiofiles.open":
		if openReads(c) {
			return ""
		}
		return q + " for writing"
	case tieCalls[q]:
		return q
	case q != "":
		if root, _, _ := strings.Cut(q, "."); tieModules[root] {
			return q
		}
		return ""
	}
	if a, ok := c.Func.(*pyscan.Attribute); ok && tieMethods[a.Attr] {
		return "." + a.Attr
	}
	return ""
}

// openReads reports whether an open() call only reads: its mode is a
// string literal without w, a, x or +, or absent.
func openReads(c *pyscan.Call) bool {
	if c.HasSplat() {
		return false
	}
	mode := c.Keyword("mode")
	if mode == nil {
		mode = c.Positional(1)
	}
	if mode == nil {
		return true
	}
	k, ok := mode.(*pyscan.Constant)
	return ok && k.Kind == pyscan.ConstStr && !strings.ContainsAny(k.Value, "wax+")
}
