package facts

import (
	"path"
	"strings"
)

// WorkerImport is the module uvicorn workers import for a server started
// with several workers, as the framework's run_webserver builds it from a
// config entry: the server type key, the server directory key and the
// entrypoint are joined with "/", every ".py" in the result is removed,
// and every "/" becomes a "." (uvicorn then imports the module with
// importlib.import_module and looks `app` up in it).
type WorkerImport struct {
	// Module is the dotted module name ("resources_servers.echo.app").
	Module string
	// File is the file the entrypoint names, relative to the root
	// ("resources_servers/echo/app.py"), "" when it leaves the root.
	File string
	// Resolves is set when importing Module loads File: every dotted
	// component is non-empty and Module, read back as a path, is File.
	// importlib does not require the components to be identifiers
	// (`my-server`, `2048` import), so they are not checked.
	Resolves bool
	// LeavesDir is set when the entrypoint path, cleaned, is not under
	// <type>/<dir>/.
	LeavesDir bool
	// Dotted are the path's names (after the ".py" removal) that contain
	// a dot, which the import reads as a package boundary.
	Dotted []string
	// Empty is set when a component of Module is empty (a `..`, `.` or
	// `//` in the path).
	Empty bool
	// PyInside is set when a ".py" other than the file's suffix was
	// removed ("my.python/app.py" imports "my.thon.app").
	PyInside bool
}

// WorkerImportOf models the import string of a config entry whose server
// type key is typ, directory key dir and entrypoint ep (relative to
// <typ>/<dir>/). An absolute entrypoint is not modelled (the server
// supervisor rejects it): ok is false then.
func WorkerImportOf(typ, dir, ep string) (w WorkerImport, ok bool) {
	if typ == "" || dir == "" || ep == "" || strings.HasPrefix(ep, "/") {
		return w, false
	}
	rel := typ + "/" + dir + "/" + ep
	noPy := strings.ReplaceAll(rel, ".py", "")
	w.Module = strings.ReplaceAll(noPy, "/", ".")
	w.PyInside = strings.Count(rel, ".py") > 1 || !strings.HasSuffix(rel, ".py")
	clean := path.Clean(rel)
	if clean != ".." && !strings.HasPrefix(clean, "../") {
		w.File = clean
	}
	base := path.Clean(typ + "/" + dir)
	w.LeavesDir = !strings.HasPrefix(clean, base+"/")
	for _, name := range strings.Split(noPy, "/") {
		switch {
		case name == "" || name == "." || name == "..":
			w.Empty = true
		case strings.Contains(name, "."):
			w.Dotted = append(w.Dotted, name)
		}
	}
	for _, c := range strings.Split(w.Module, ".") {
		if c == "" {
			w.Empty = true
		}
	}
	w.Resolves = !w.Empty && w.File != "" && strings.ReplaceAll(w.Module, ".", "/")+".py" == w.File
	return w, true
}
