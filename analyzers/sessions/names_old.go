//go:build ignore

package sessions

import (
	"strings"
	"unicode"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// Absolute returns the absolute dotted name that a name or attribute
// chain denotes at module scope of m, following imports, `Alias = name`
// assignments, star imports and re-exports through the repository's
// modules: "fastapi.HTTPException", "nemo_gym.base_resources_server.
// ResourcesSessionFences.fence", "builtins.ValueError" for a name nothing
// binds. A name defined in a repository module (a class, a def, an
// assigned constant) gives that module's name and the name
// ("pkg.mod.helper"). It returns "" when the name is bound to something
// gymlint does not follow (a computed value, an import that fails).
//
// Only module-scope bindings count: a name imported inside a function body
// is not seen (it resolves as a builtin).
func Absolute(v *gym.View, m *pyscan.Module, dotted string) string {
	return absName(v, m, dotted, 0)
}

func absName(v *gym.View, m *pyscan.Module, dotted string, depth int) string {
	if m == nil || dotted == "" || depth > maxNameDepth {
		return ""
	}
	first, rest := dotted, ""
	if i := strings.IndexByte(dotted, '.'); i >= 0 {
		first, rest = dotted[:i], dotted[i:]
	}
	b := m.Binding(first)
	after := -1
	if b != nil {
		after = b.Span.Start.Offset
	}
	if s := starName(v, m, first, rest, after, depth); s != "" {
		return s
	}
	if b == nil {
		return "builtins." + dotted
	}
	switch b.Kind {
	case pyscan.BindImport:
		for i := len(m.Imports) - 1; i >= 0; i-- {
			imp := m.Imports[i]
			if imp.Bound == first && imp.Span == b.Span {
				return importName(v, m, imp, rest, depth)
			}
		}
	case pyscan.BindAssign, pyscan.BindAnnAssign:
		if val := b.Value; val != nil && val.Dotted != "" && !val.Call && len(val.Args) == 0 {
			return absName(v, m, val.Dotted+rest, depth+1)
		}
		return m.Name + "." + dotted
	case pyscan.BindClass, pyscan.BindDef:
		return m.Name + "." + dotted
	}
	return ""
}

// starName looks a name up through module-scope star imports after
// offset, the last one first. A star import of a framework module that is
// not in the repository is assumed to provide a name that nothing else
// binds, unless it is one of Python's builtins.
func starName(v *gym.View, m *pyscan.Module, first, rest string, after, depth int) string {
	for i := len(m.Imports) - 1; i >= 0; i-- {
		imp := m.Imports[i]
		if imp.Name != "*" || !imp.ModuleScope || imp.Span.Start.Offset < after {
			continue
		}
		if file := v.ModuleFile(m.Path, imp.Level, imp.Module); file != "" {
			mod, err := v.Module(file)
			if err != nil || mod == nil {
				continue
			}
			if mod.Binding(first) != nil || hasStar(mod) {
				if s := absName(v, mod, first+rest, depth+1); s != "" && !strings.HasPrefix(s, "builtins.") {
					return s
				}
			}
			continue
		}
		abs, ok := gym.AbsoluteModule(m, imp.Level, imp.Module)
		if ok && v.IsFrameworkModule(abs) && after < 0 && !pyBuiltins[first] {
			return abs + "." + first + rest
		}
	}
	return ""
}

func hasStar(m *pyscan.Module) bool {
	for _, imp := range m.Imports {
		if imp.Name == "*" && imp.ModuleScope {
			return true
		}
	}
	return false
}

// importName resolves name+rest bound by an import statement of m.
func importName(v *gym.View, m *pyscan.Module, imp *pyscan.Import, rest string, depth int) string {
	if !imp.IsFrom() {
		// `import a.b` binds a; `import a.b as c` binds c to a.b.
		target := imp.Module
		if imp.Bound != target && strings.HasPrefix(target, imp.Bound+".") {
			target = imp.Bound
		}
		return chase(v, target+rest, depth)
	}
	// The module's own file first (sibling and relative imports).
	if file := v.ModuleFile(m.Path, imp.Level, imp.Module); file != "" {
		if mod, err := v.Module(file); err == nil && mod != nil && !v.IsFrameworkModule(mod.Name) {
			if mod.Binding(imp.Name) != nil || hasStar(mod) {
				if s := absName(v, mod, imp.Name+rest, depth+1); s != "" && !strings.HasPrefix(s, "builtins.") {
					return s
				}
			}
			sub := imp.Name
			if imp.Module != "" {
				sub = imp.Module + "." + imp.Name
			}
			if sf := v.ModuleFile(m.Path, imp.Level, sub); sf != "" {
				if sm, err := v.Module(sf); err == nil && sm != nil {
					if rest == "" {
						return sm.Name
					}
					return absName(v, sm, rest[1:], depth+1)
				}
			}
			return ""
		}
	}
	mod, ok := gym.AbsoluteModule(m, imp.Level, imp.Module)
	if !ok {
		return ""
	}
	if mod == "" {
		return chase(v, imp.Name+rest, depth)
	}
	return chase(v, mod+"."+imp.Name+rest, depth)
}

// chase follows an absolute dotted name into the repository module it
// starts with, when that module is not the framework's, so that
// re-exports resolve to where the name comes from.
func chase(v *gym.View, abs string, depth int) string {
	parts := strings.Split(abs, ".")
	for n := len(parts); n >= 1; n-- {
		prefix := strings.Join(parts[:n], ".")
		file := v.ModuleFile("", 0, prefix)
		if file == "" {
			continue
		}
		if v.IsFrameworkModule(prefix) || n == len(parts) {
			return abs
		}
		mod, err := v.Module(file)
		if err != nil || mod == nil {
			return abs
		}
		if s := absName(v, mod, strings.Join(parts[n:], "."), depth+1); s != "" && !strings.HasPrefix(s, "builtins.") {
			return s
		}
		return abs
	}
	return abs
}

// Framework returns the name the framework exports (for example
// "ResourcesSessionLostError", "lost_session_verification",
// "ResourcesSessionFences", "SESSION_ID_KEY") that the dotted name refers
// to at module scope of m, through imports and aliases, whether the
// framework package is inside the repository or installed elsewhere; ""
// when it is not a framework name (or is a framework module).
//
// An attribute of an exported name keeps its path:
// "brs.ResourcesSessionFences.fence" gives "ResourcesSessionFences.fence".
// Where the module path ends is known from the files when the framework is
// part of the repository; for an installed framework the exported name is
// taken to start at the first component that begins with an upper-case
// letter, else to be the last component ("nemo_gym.x.lost_session_verification").
//
// Callers compare the result with the names they look for; for an
// installed framework a module bound by a from-import
// (`from nemo_gym import base_resources_server as brs`) gives its last
// component, which no contract name equals.
func Framework(v *gym.View, m *pyscan.Module, dotted string) string {
	if m == nil {
		return ""
	}
	if !strings.Contains(dotted, ".") {
		// A name that a plain `import a.b as c` binds is a module.
		if b := m.Binding(dotted); b != nil && b.Kind == pyscan.BindImport {
			for _, imp := range m.Imports {
				if imp.Span == b.Span && imp.Bound == dotted && !imp.IsFrom() {
					return ""
				}
			}
		}
	}
	return frameworkName(v, Absolute(v, m, dotted), 0)
}

func frameworkName(v *gym.View, abs string, depth int) string {
	if abs == "" || depth > maxNameDepth {
		return ""
	}
	parts := strings.Split(abs, ".")
	if !v.IsFrameworkModule(parts[0]) {
		return ""
	}
	for n := len(parts); n >= 1; n-- {
		prefix := strings.Join(parts[:n], ".")
		file := v.ModuleFile("", 0, prefix)
		if file == "" {
			continue
		}
		if n == len(parts) {
			return "" // a module
		}
		name := strings.Join(parts[n:], ".")
		mod, err := v.Module(file)
		if err != nil || mod == nil {
			return name
		}
		// A re-export (`from .base import X` in the package): follow it.
		if b := mod.Binding(parts[n]); b != nil && b.Kind == pyscan.BindImport {
			if s := absName(v, mod, name, depth+1); s != "" && s != abs {
				if r := frameworkName(v, s, depth+1); r != "" {
					return r
				}
			}
		} else if b == nil && hasStar(mod) {
			if s := absName(v, mod, name, depth+1); s != "" && s != abs && !strings.HasPrefix(s, "builtins.") {
				if r := frameworkName(v, s, depth+1); r != "" {
					return r
				}
			}
		}
		return name
	}
	// The framework is installed elsewhere.
	for i := 1; i < len(parts); i++ {
		if r := []rune(parts[i]); len(r) > 0 && unicode.IsUpper(r[0]) {
			return strings.Join(parts[i:], ".")
		}
	}
	if len(parts) < 2 {
		return ""
	}
	return parts[len(parts)-1]
}

// FrameworkCall reports whether a call's callee is the framework name
// `name` (see FrameworkCallee).
func FrameworkCall(v *gym.View, c gym.ClassRef, call *pyscan.Call, name string) bool {
	return call != nil && FrameworkCallee(v, c, call.Callee.Dotted, name)
}

// FrameworkCallee reports whether a callee written as `callee` in a method
// of class c (or, with c.Class nil, at any place of module c.Module) is the
// framework name `name`.
//
// A plain name matches when Framework resolves the callee to it
// ("lost_session_verification", "brs.lost_session_verification").
//
// A method of a framework class, "Class.method", matches a call of
// Class.method itself, or `<receiver>.method(...)` where the receiver is a
// name or attribute chain (`self._fences.fence(...)`, `fences.fence(...)`)
// and the class knows the framework class: the module of c, or of any of
// its repository ancestors, imports Class, or one of their methods or
// class attributes constructs or annotates with it. The receiver's type is
// not inferred further; a method of the same name on another object in
// such a class is taken to be the framework's.
func FrameworkCallee(v *gym.View, c gym.ClassRef, callee, name string) bool {
	if callee == "" || c.Module == nil {
		return false
	}
	if Framework(v, c.Module, callee) == name {
		return true
	}
	i := strings.LastIndexByte(name, '.')
	j := strings.LastIndexByte(callee, '.')
	if i < 0 || j < 0 || callee[j+1:] != name[i+1:] {
		return false
	}
	return knowsClass(v, c, name[:i])
}

// knowsClass reports whether class c (or its module) refers to the
// framework class cls; see FrameworkCallee.
func knowsClass(v *gym.View, c gym.ClassRef, cls string) bool {
	var classes []gym.ClassRef
	if c.Class != nil {
		mro, _ := v.MRO(c)
		for _, a := range mro {
			if a.Kind == gym.Own && a.Class.Class != nil {
				classes = append(classes, a.Class)
			}
		}
	} else {
		classes = []gym.ClassRef{c}
	}
	mods := map[*pyscan.Module]bool{}
	for _, k := range classes {
		m := k.Module
		if !mods[m] {
			mods[m] = true
			for _, imp := range m.Imports {
				if imp.Bound != "" && imp.ModuleScope && Framework(v, m, imp.Bound) == cls {
					return true
				}
			}
		}
		if k.Class == nil {
			continue
		}
		for _, at := range k.Class.Attrs {
			if at.Annotation != "" && Framework(v, m, leadingDotted(at.Annotation)) == cls {
				return true
			}
			if at.Value != nil && Framework(v, m, at.Value.Dotted) == cls {
				return true
			}
		}
		for _, fn := range k.Class.Methods {
			for _, call := range fn.Calls {
				if call.Callee.Dotted != "" && Framework(v, m, call.Callee.Dotted) == cls {
					return true
				}
			}
		}
	}
	return false
}

// leadingDotted returns the name or attribute chain an expression's text
// starts with ("ResourcesSessionFences[str]" gives
// "ResourcesSessionFences"), or "".
func leadingDotted(text string) string {
	text = strings.TrimSpace(text)
	text = strings.Trim(text, `"'`)
	end := 0
	for end < len(text) {
		ch := text[end]
		if ch == '.' || ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' {
			end++
			continue
		}
		break
	}
	d := strings.Trim(text[:end], ".")
	if d == "" || d[0] >= '0' && d[0] <= '9' {
		return ""
	}
	return d
}

// pyBuiltins are the names of Python's builtins module.
var pyBuiltins = map[string]bool{
	"ArithmeticError": true, "AssertionError": true, "AttributeError": true, "BaseException": true,
	"BaseExceptionGroup": true, "BlockingIOError": true, "BrokenPipeError": true, "BufferError": true,
	"BytesWarning": true, "ChildProcessError": true, "ConnectionAbortedError": true,
	"ConnectionError": true, "ConnectionRefusedError": true, "ConnectionResetError": true,
	"DeprecationWarning": true, "EOFError": true, "Ellipsis": true, "EncodingWarning": true,
	"EnvironmentError": true, "Exception": true, "ExceptionGroup": true, "False": true,
	"FileExistsError": true, "FileNotFoundError": true, "FloatingPointError": true,
	"FutureWarning": true, "GeneratorExit": true, "IOError": true, "ImportError": true,
	"ImportWarning": true, "IndentationError": true, "IndexError": true, "InterruptedError": true,
	"IsADirectoryError": true, "KeyError": true, "KeyboardInterrupt": true, "LookupError": true,
	"MemoryError": true, "ModuleNotFoundError": true, "NameError": true, "None": true,
	"NotADirectoryError": true, "NotImplemented": true, "NotImplementedError": true, "OSError": true,
	"OverflowError": true, "PendingDeprecationWarning": true, "PermissionError": true,
	"ProcessLookupError": true, "RecursionError": true, "ReferenceError": true,
	"ResourceWarning": true, "RuntimeError": true, "RuntimeWarning": true, "StopAsyncIteration": true,
	"StopIteration": true, "SyntaxError": true, "SyntaxWarning": true, "SystemError": true,
	"SystemExit": true, "TabError": true, "TimeoutError": true, "True": true, "TypeError": true,
	"UnboundLocalError": true, "UnicodeDecodeError": true, "UnicodeEncodeError": true,
	"UnicodeError": true, "UnicodeTranslateError": true, "UnicodeWarning": true, "UserWarning": true,
	"ValueError": true, "Warning": true, "ZeroDivisionError": true, "abs": true, "aiter": true,
	"all": true, "anext": true, "any": true, "ascii": true, "bin": true, "bool": true,
	"breakpoint": true, "bytearray": true, "bytes": true, "callable": true, "chr": true,
	"classmethod": true, "compile": true, "complex": true, "copyright": true, "credits": true,
	"delattr": true, "dict": true, "dir": true, "divmod": true, "enumerate": true, "eval": true,
	"exec": true, "exit": true, "filter": true, "float": true, "format": true, "frozenset": true,
	"getattr": true, "globals": true, "hasattr": true, "hash": true, "help": true, "hex": true,
	"id": true, "input": true, "int": true, "isinstance": true, "issubclass": true, "iter": true,
	"len": true, "license": true, "list": true, "locals": true, "map": true, "max": true,
	"memoryview": true, "min": true, "next": true, "object": true, "oct": true, "open": true,
	"ord": true, "pow": true, "print": true, "property": true, "quit": true, "range": true,
	"repr": true, "reversed": true, "round": true, "set": true, "setattr": true, "slice": true,
	"sorted": true, "staticmethod": true, "str": true, "sum": true, "super": true, "tuple": true,
	"type": true, "vars": true, "zip": true,
}
