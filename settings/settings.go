// Package settings loads gymlint's own configuration: .gymlint.yaml at the
// scanned root or, when there is none, the [tool.gymlint] table of
// pyproject.toml there. It also reads one setting of other tools there,
// the modules ruff's or isort's configuration calls first party (isort.go),
// where the imports that fixes add belong.
//
// Recognised keys (all optional):
//
//	server_types: [resources_servers, responses_api_agents, responses_api_models, environment_servers]
//	framework_package: nemo_gym
//	framework_path: third_party/nemo_gym   # where the framework is, when not at the root
//	contract: auto                # or latest (see package contract)
//	max_file_size: 1048576        # bytes; may only lower the default, 4194304
//	exempt:
//	  - path: resources_servers/gymnasium/base.py
//	    reason: Base-class module that configs name; it starts no server.
//	disable: [GL205, unneeded-ray-enabled]   # rule codes, code prefixes (GL2), names or analyzer names
//	enable: [workers, sessions]              # if given, only these rules
//	severity: {GL106: error, undeclared-workers: warning}
//	per_path_ignores:
//	  - paths: ["benchmarks/**"]
//	    rules: [GL101]
//	    reason: Benchmarks are never run with several workers.
//	exclude: ["output/**", "**/scratch"]    # not read as configs or entrypoints, findings in them dropped
//	extra_roots: [plugins]                  # plugin server roots, relative and inside the root only
//
// Unknown keys, wrong types and an exemption without a reason are errors
// that name the file, the line and the key.
//
// schema/gymlint.schema.json is the JSON Schema of these keys, for
// editors (gymlint config --schema): a key, a kind of words or a limit
// added here goes there too, and package schema's tests say where the two
// differ.
package settings

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/internal/repofs"
)

// FileName is the name of the configuration file at the root.
const FileName = ".gymlint.yaml"

// maxSize bounds the configuration file.
const maxSize = 1 << 20

// MaxFileSizeLimit bounds max_file_size (and --max-file-size): a file
// larger than 1 GiB is not a source file a scan should hold in memory.
const MaxFileSizeLimit = 1 << 30

// Settings is the effective configuration.
type Settings struct {
	File             string // the file read, "" when there is none
	ServerTypes      []string
	FrameworkPackage string
	// FrameworkPath is the configured framework_path: a root-relative
	// directory that is the framework package or holds it; "": none.
	FrameworkPath string
	// Contract is the configured contract mode; "": auto.
	Contract    contract.Mode
	MaxFileSize int64
	Exempt      []gym.Exemption

	// Rule selection, resolved to rule codes (sorted, without duplicates).
	Enable  []string // nil: every rule
	Disable []string
	// Named are the rules the selection names one by one, by code or name
	// (not by a code prefix, an analyzer or ALL), in enable or, on the
	// command line, --select and --extend-select: a rule so chosen that
	// the contract leaves out is said by name (contract.Notes).
	Named []string
	// Severity overrides the severity of rules, by code.
	Severity map[string]diag.Severity
	// PerPathIgnores drop the findings of rules in files that match globs.
	PerPathIgnores []PathIgnore
	// Exclude are root-relative globs (pathmatch.Excluded): the files that
	// match, or lie in a directory that matches, are not walked as configs
	// or entrypoints, and their findings are dropped.
	Exclude []string
	// ExtraRoots are plugin server roots searched before the root for a
	// server directory a config names (as NEMO_GYM_EXTRA_ROOTS is):
	// root-relative directories inside the root. A repository cannot name
	// a directory outside itself: that is only for the user's
	// --extra-root and NEMO_GYM_EXTRA_ROOTS.
	ExtraRoots []string
	// Words are identifier words added to gymlint's fallbacks, by kind
	// (facts.Words): `words: {release: [evict], session-noun: [match]}`.
	// nil: the defaults alone.
	Words map[string][]string

	// KnownFirstParty are the modules the repository's isort configuration
	// calls first party: known-first-party of ruff's or isort's settings
	// (ReadKnownFirstParty), not a gymlint key. Load and LoadFile read it
	// from the root, whatever gymlint's own configuration is.
	KnownFirstParty []string

	// Shadowed names a second configuration that was not read because File
	// takes precedence (pyproject.toml's [tool.gymlint] beside .gymlint.yaml).
	Shadowed string

	// Unread are configuration files that exist but could not be read
	// (see Load): the defaults stand in for them, and the scan reports
	// each as GL002 unreadable-file.
	Unread []Unread
}

// Keys are the recognised top-level keys.
var Keys = []string{"server_types", "framework_package", "framework_path", "contract", "max_file_size", "exempt", "enable", "disable", "severity", "per_path_ignores", "exclude", "extra_roots", "words"}

// Error is a configuration error with its place.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// Load reads .gymlint.yaml at root, if it exists, and otherwise the
// [tool.gymlint] table of pyproject.toml at root, if there is one.
//
// A configuration file that exists but cannot be read as a file (a named
// pipe, a device, a directory, a symbolic link that leaves the root or
// loops, one larger than 1 MiB, or one the system refuses) is not an
// error: Load returns the defaults, with the file in Unread, and the scan
// reports it (GL002). What the file says, once read, is checked: a syntax
// error, an unknown key or a wrong value is Load's error (an *Error).
//
// Load also reads the isort configuration of the repository
// (ReadKnownFirstParty) into KnownFirstParty.
func Load(root string) (*Settings, error) {
	s, err := load(root)
	if err != nil {
		return nil, err
	}
	s.KnownFirstParty = ReadKnownFirstParty(root)
	return s, nil
}

// load is Load but for KnownFirstParty.
func load(root string) (*Settings, error) {
	data, found, err := readConfig(root, FileName)
	if u, ok := err.(*unreadError); ok {
		return &Settings{Unread: []Unread{u.Unread}}, nil
	}
	if err != nil {
		return nil, err
	}
	if found {
		s, err := Parse(FileName, data)
		if err != nil {
			return nil, err
		}
		if py, ok, _ := readConfig(root, PyProject); ok && bytes.Contains(py, []byte("tool.gymlint")) {
			s.Shadowed = PyProject
		}
		return s, nil
	}
	data, found, err = readConfig(root, PyProject)
	if u, ok := err.(*unreadError); ok {
		return &Settings{Unread: []Unread{u.Unread}}, nil
	}
	if err != nil || !found {
		return &Settings{}, err
	}
	s, _, err := ParseTOML(PyProject, data)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Unread is a configuration file that exists but was not read, and why.
type Unread struct {
	File string // its name at the root
	// Msg says what the file is and what to do, in a sentence that starts
	// with the file's name.
	Msg string
}

// unreadError is readConfig's error for a file that cannot be read as a
// file (as opposed to one whose content is wrong).
type unreadError struct{ Unread }

func (e *unreadError) Error() string { return e.Msg }

// unread says that the file name is what (not a file gymlint reads), and
// what to do about it.
func unread(name, what, todo string) *unreadError {
	return &unreadError{Unread{File: name, Msg: name + " " + what + ": gymlint did not read it and uses the default configuration; " + todo}}
}

const (
	toRegular = "make it a regular file"
	toTarget  = "point it at a file in the repository, or remove it"
)

// cannotRead is the unreadError of a file the system refuses to read.
func cannotRead(name string, err error) *unreadError {
	if u := errors.Unwrap(err); u != nil {
		err = u // the path is the file's name
	}
	return unread(name, fmt.Sprintf("cannot be read (%v)", err), "make it a regular file that gymlint may read")
}

func tooLarge(name string) *unreadError {
	return unread(name, fmt.Sprintf("is larger than %d bytes (1 MiB)", maxSize), "keep the configuration under 1 MiB")
}

// readConfig reads the file name at root; found is false when it does not
// exist. A symbolic link is followed when its target is a regular file
// inside root. Anything else that is not a regular file is an
// *unreadError, found without opening it (a named pipe would block).
func readConfig(root, name string) (data []byte, found bool, err error) {
	p := filepath.Join(root, name)
	st, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, cannotRead(name, err)
	}
	if st.Mode()&os.ModeSymlink != 0 {
		if st, err = followLink(root, name, p); err != nil {
			return nil, true, err
		}
	}
	if u := notRegular(name, st.Mode()); u != nil {
		return nil, true, u
	}
	if st.Size() > maxSize {
		return nil, true, tooLarge(name)
	}
	// O_NONBLOCK: should the file have been replaced by a named pipe since
	// the check, opening it does not wait for a writer.
	fh, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, true, cannotRead(name, err)
	}
	defer fh.Close()
	if st, err = fh.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, true, unread(name, "is not a regular file", toRegular)
	}
	data, err = io.ReadAll(io.LimitReader(fh, maxSize+1))
	if err != nil {
		return nil, true, cannotRead(name, err)
	}
	if len(data) > maxSize {
		return nil, true, tooLarge(name)
	}
	return data, true, nil
}

// followLink resolves the symbolic link p (root/name) and returns what its
// target is, or an *unreadError when it loops, dangles or leaves root.
func followLink(root, name, p string) (os.FileInfo, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err == nil {
		realRoot, err = filepath.Abs(realRoot)
	}
	if err != nil {
		return nil, unread(name, fmt.Sprintf("is a symbolic link that cannot be resolved (%v)", err), toTarget)
	}
	target, err := filepath.EvalSymlinks(p)
	switch {
	case errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return nil, unread(name, "is a symbolic link to a file that does not exist", toTarget)
	case err != nil && (errors.Is(err, syscall.ELOOP) || strings.Contains(err.Error(), "too many links")):
		return nil, unread(name, "is a symbolic link loop", toTarget)
	case err != nil:
		return nil, unread(name, fmt.Sprintf("is a symbolic link that cannot be resolved (%v)", errors.Unwrap(err)), toTarget)
	}
	if target, err = filepath.Abs(target); err != nil {
		return nil, unread(name, fmt.Sprintf("is a symbolic link that cannot be resolved (%v)", err), toTarget)
	}
	if rel, err := filepath.Rel(realRoot, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, unread(name, "is a symbolic link that leaves the repository (gymlint never reads outside the root)", "make it a file, or a link to one, in the repository")
	}
	st, err := os.Stat(target)
	if err != nil {
		return nil, cannotRead(name, err)
	}
	return st, nil
}

// notRegular says what a file that is not a regular file is, or nil.
func notRegular(name string, m os.FileMode) *unreadError {
	what := "is not a regular file"
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		what = "is a directory, not a regular file"
	case m&os.ModeNamedPipe != 0:
		what = "is a named pipe (FIFO), not a regular file"
	case m&os.ModeSocket != 0:
		what = "is a socket, not a regular file"
	case m&os.ModeDevice != 0:
		what = "is a device, not a regular file"
	}
	return unread(name, what, toRegular)
}

// Parse reads configuration from bytes; name is used in errors and positions.
func Parse(name string, data []byte) (s *Settings, err error) {
	s = &Settings{File: name}
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, &Error{File: name, Msg: fmt.Sprintf("cannot read the configuration: %v", r)}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return s, nil
		}
		pos, msg := configscan.SyntaxError(err, data)
		return nil, &Error{File: name, Line: pos.Line, Msg: msg}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &Error{File: name, Line: extra.Line, Msg: "more than one YAML document; put everything in one"}
	}
	if len(doc.Content) == 0 {
		return s, nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return s, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, &Error{File: name, Line: root.Line, Msg: "the configuration must be a mapping of keys"}
	}
	if err := s.fromMapping(name, data, root); err != nil {
		return nil, err
	}
	return s, nil
}

// fromMapping reads the keys of the configuration mapping root (from YAML,
// or from pyproject.toml's [tool.gymlint] converted to YAML nodes).
func (s *Settings) fromMapping(name string, data []byte, root *yaml.Node) error {
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if first, dup := seen[k.Value]; dup {
			return &Error{File: name, Line: k.Line, Msg: fmt.Sprintf("key %q appears twice (first at line %d)", k.Value, first)}
		}
		seen[k.Value] = k.Line
		switch k.Value {
		case "server_types":
			list, err := stringList(name, k.Value, v)
			if err != nil {
				return err
			}
			if len(list) == 0 {
				return &Error{File: name, Line: v.Line, Msg: "server_types must list at least one server type"}
			}
			s.ServerTypes = list
		case "framework_package":
			str, err := scalar(name, k.Value, v)
			if err != nil {
				return err
			}
			if str == "" || strings.ContainsAny(str, "/ ") {
				return &Error{File: name, Line: v.Line, Msg: "framework_package must be a Python package name such as nemo_gym"}
			}
			s.FrameworkPackage = str
		case "framework_path":
			str, err := scalar(name, k.Value, v)
			if err != nil {
				return err
			}
			c, ok := repofs.Clean(str)
			if !ok || c == "." {
				return &Error{File: name, Line: v.Line, Msg: fmt.Sprintf("framework_path must be a directory inside the repository, relative to its root, not %q", str)}
			}
			s.FrameworkPath = c
		case "contract":
			str, err := scalar(name, k.Value, v)
			if err != nil {
				return err
			}
			m, ok := contract.ParseMode(str)
			if !ok {
				return &Error{File: name, Line: v.Line, Msg: fmt.Sprintf("contract must be auto or latest, not %q", str)}
			}
			s.Contract = m
		case "max_file_size":
			str, err := scalar(name, k.Value, v)
			if err != nil {
				return err
			}
			n, perr := strconv.ParseInt(str, 10, 64)
			if perr != nil || n <= 0 || n > MaxFileSizeLimit {
				return &Error{File: name, Line: v.Line, Msg: fmt.Sprintf("max_file_size must be a positive number of bytes, at most %d (1 GiB), not %q", MaxFileSizeLimit, str)}
			}
			if n > repofs.DefaultMaxFileSize {
				// The size limit bounds the memory of the scan on the
				// machine that runs it: the repository may lower it, not
				// raise it (as it cannot raise --parse-budget).
				return &Error{File: name, Line: v.Line, Msg: fmt.Sprintf("max_file_size may only lower the size limit, to at most %d bytes (the default), not %d: a repository must not make gymlint read larger files; raise the limit with --max-file-size", repofs.DefaultMaxFileSize, n)}
			}
			s.MaxFileSize = n
		case "exempt":
			if v.Kind != yaml.SequenceNode {
				return &Error{File: name, Line: v.Line, Msg: "exempt must be a list of {path, reason} entries"}
			}
			for _, item := range v.Content {
				x, err := exemption(name, item)
				if err != nil {
					return err
				}
				x.Pos = bytePos(data, x.Pos.Line, x.Pos.Col)
				s.Exempt = append(s.Exempt, x)
			}
		case "enable":
			codes, err := ruleList(name, k.Value, v)
			if err != nil {
				return err
			}
			if len(codes) == 0 {
				return &Error{File: name, Line: v.Line, Msg: "enable must list at least one rule (leave it out to enable every rule)"}
			}
			s.Enable = codes
			var keys []string
			for _, it := range v.Content {
				keys = append(keys, it.Value)
			}
			s.Named = NamedRules(keys)
		case "disable":
			codes, err := ruleList(name, k.Value, v)
			if err != nil {
				return err
			}
			s.Disable = codes
		case "severity":
			sev, err := severities(name, v)
			if err != nil {
				return err
			}
			s.Severity = sev
		case "per_path_ignores":
			if v.Kind != yaml.SequenceNode {
				return &Error{File: name, Line: v.Line, Msg: "per_path_ignores must be a list of {paths, rules, reason} entries"}
			}
			for _, item := range v.Content {
				pi, err := pathIgnore(name, item)
				if err != nil {
					return err
				}
				s.PerPathIgnores = append(s.PerPathIgnores, pi)
			}
		case "exclude":
			list, err := stringList(name, k.Value, v)
			if err != nil {
				return err
			}
			for j, g := range list {
				g = CleanExclude(g)
				if msg := checkGlob(g); msg != "" {
					return &Error{File: name, Line: v.Content[j].Line, Msg: fmt.Sprintf("exclude: %q %s", list[j], msg)}
				}
				s.Exclude = append(s.Exclude, g)
			}
		case "extra_roots":
			list, err := stringList(name, k.Value, v)
			if err != nil {
				return err
			}
			for j, r := range list {
				c, ok := repofs.Clean(strings.TrimSuffix(r, "/"))
				if !ok || c == "." {
					line := v.Line
					if j < len(v.Content) {
						line = v.Content[j].Line
					}
					return &Error{File: name, Line: line, Msg: fmt.Sprintf("extra_roots: %q must be a directory inside the repository, relative to its root (a root outside it is given with --extra-root or NEMO_GYM_EXTRA_ROOTS)", r)}
				}
				s.ExtraRoots = append(s.ExtraRoots, c)
			}
		case "words":
			w, err := words(name, v)
			if err != nil {
				return err
			}
			s.Words = w
		default:
			return &Error{File: name, Line: k.Line, Msg: fmt.Sprintf("unknown key %q (known: %s)", k.Value, strings.Join(Keys, ", "))}
		}
	}
	return nil
}

func exemption(name string, n *yaml.Node) (gym.Exemption, error) {
	if n.Kind != yaml.MappingNode {
		return gym.Exemption{}, &Error{File: name, Line: n.Line, Msg: "each exempt entry must be a mapping with path and reason"}
	}
	x := gym.Exemption{Source: name, Pos: diag.Pos{Line: n.Line, Col: n.Column}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		str, err := scalar(name, "exempt."+k.Value, v)
		if err != nil {
			return x, err
		}
		switch k.Value {
		case "path":
			x.Path = str
			x.Pos = diag.Pos{Line: v.Line, Col: v.Column}
		case "reason":
			x.Reason = strings.TrimSpace(str)
		default:
			return x, &Error{File: name, Line: k.Line, Msg: fmt.Sprintf("unknown key %q in an exempt entry (known: path, reason)", k.Value)}
		}
	}
	if x.Path == "" {
		return x, &Error{File: name, Line: n.Line, Msg: "exempt entry has no path"}
	}
	if x.Reason == "" {
		return x, &Error{File: name, Line: n.Line, Msg: fmt.Sprintf("exempt entry %s has no reason: say why the module starts no server", x.Path)}
	}
	return x, nil
}

// words reads the words: mapping, a list of identifier words for each
// kind that facts.Words lets the configuration extend.
func words(name string, v *yaml.Node) (map[string][]string, error) {
	if v.Kind != yaml.MappingNode {
		return nil, &Error{File: name, Line: v.Line, Msg: "words must be a mapping of a kind to a list of words (kinds: " + strings.Join(facts.ConfigurableKinds(), ", ") + ")"}
	}
	out := map[string][]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if kind := facts.KindOf(k.Value); kind == nil || !kind.Configurable {
			return nil, &Error{File: name, Line: k.Line, Msg: fmt.Sprintf("words: unknown kind %q (known: %s)", k.Value, strings.Join(facts.ConfigurableKinds(), ", "))}
		}
		list, err := stringList(name, "words: "+k.Value, val)
		if err != nil {
			return nil, err
		}
		for j, w := range list {
			if strings.TrimSpace(w) == "" || strings.ContainsAny(w, " \t\n") {
				return nil, &Error{File: name, Line: val.Content[j].Line, Msg: fmt.Sprintf("words: %s: %q is not one identifier word", k.Value, w)}
			}
		}
		out[k.Value] = append(out[k.Value], list...)
	}
	if _, err := facts.NewWords(out); err != nil {
		return nil, &Error{File: name, Line: v.Line, Msg: err.Error()}
	}
	return out, nil
}

func scalar(name, key string, v *yaml.Node) (string, error) {
	if v.Kind != yaml.ScalarNode {
		return "", &Error{File: name, Line: v.Line, Msg: fmt.Sprintf("%s must be a single value", key)}
	}
	return v.Value, nil
}

func stringList(name, key string, v *yaml.Node) ([]string, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, &Error{File: name, Line: v.Line, Msg: fmt.Sprintf("%s must be a list", key)}
	}
	var out []string
	for _, it := range v.Content {
		s, err := scalar(name, key+" entries", it)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// bytePos converts yaml.v3's position (1-based line, 1-based column in
// characters) into gymlint's (byte offset, line, byte column).
func bytePos(data []byte, line, col int) diag.Pos {
	off, l := 0, 1
	for l < line && off < len(data) {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		l++
	}
	start := off
	for c := 1; c < col && off < len(data) && data[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(data[off:])
		off += size
	}
	return diag.Pos{Offset: off, Line: line, Col: off - start + 1}
}
