package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/internal/repofs"
)

const resolveAbout = `Prints the config that Gym composes from FILE... given together (as
"gym env start --config FILE ..." does): the files their config_paths list,
recursively, merged so that an including file overrides what it includes and
a later file an earlier one, then _inherit_from, _copy and _delete_key
applied. Each value is followed by the place it is written (file:line), and
the files that came in through config_paths by the chain of includes that
brought them. ${...} interpolations are printed as written, marked, not
evaluated. Paths in config_paths are relative to the repository root, as
Gym reads them from its working directory: the root the check finds from the
first FILE (the nearest directory, FILE's own first, with .gymlint.yaml, a
pyproject.toml with [tool.gymlint] or the Gym layout; else the current
directory's), or --root DIR; nothing outside it is read. Problems (a missing include, a
cycle, an _inherit_from of an instance that is not there) are listed after
the config; the exit status is 1 when there is one that stops Gym. Values
nested more than 32 levels deep are printed in flow style ({...}, [...]),
so that the output stays proportional to the config.
`

// resolveFormats are the formats of gymlint resolve.
var resolveFormats = []string{"yaml", "json"}

// resolveCmd is `gymlint resolve`.
func resolveCmd(fs *flag.FlagSet, stdout, stderr io.Writer) func(args []string) int {
	format := fs.String("format", "yaml", "output format: "+strings.Join(resolveFormats, ", "))
	rootFlag := fs.String("root", "", "the repository root `DIR` that config_paths entries are relative to (default: found from the first FILE, see above)")
	return func(files []string) int {
		if !slices.Contains(resolveFormats, *format) {
			return usageError(stderr, fs, "unknown --format %q (known: %s)", *format, strings.Join(resolveFormats, ", "))
		}
		if len(files) == 0 {
			return usageError(stderr, fs, "expected at least one config file")
		}
		return resolve(*format, *rootFlag, files, stdout, stderr)
	}
}

// resolveRoot is the root that config_paths entries are relative to:
// rootFlag when given; else the repository root that the first file lies
// in, found as the check finds it (engine.FindRoot); else, when nothing
// marks one above the file, the current directory's, which is where Gym
// reads them from.
func resolveRoot(rootFlag, first string) (string, error) {
	if rootFlag != "" {
		return rootFlag, nil
	}
	if r, err := engine.FindRoot(first); err == nil && r.Marker != "" {
		return displayRoot(r.Dir, "", first), nil
	}
	r, err := engine.FindRoot(".")
	if err != nil {
		return "", err
	}
	return displayRoot(r.Dir, "", "."), nil
}

// resolve prints the config that files compose, in format, with the
// root rootFlag (see resolveRoot).
func resolve(format, rootFlag string, files []string, stdout, stderr io.Writer) int {
	root, err := resolveRoot(rootFlag, files[0])
	if err != nil {
		fmt.Fprintf(stderr, "gymlint: %v\n", err)
		return ExitError
	}
	fsys, err := repofs.New(root, repofs.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "gymlint: %v\n", err)
		return ExitError
	}
	absRoot, _ := filepath.Abs(fsys.Root())
	var rels []string
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			fmt.Fprintf(stderr, "gymlint: %v\n", err)
			return ExitError
		}
		rel, err := filepath.Rel(absRoot, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			fmt.Fprintf(stderr, "gymlint: %s is outside the root %s (see --root)\n", f, root)
			return ExitError
		}
		rels = append(rels, filepath.ToSlash(rel))
	}
	load := func(p string) (*configscan.File, error) {
		data, err := fsys.Read(p)
		if err != nil {
			if errors.Is(err, repofs.ErrNotExist) {
				return nil, fmt.Errorf("%s: %w", p, iofs.ErrNotExist)
			}
			return nil, err
		}
		return configscan.Parse(p, data, configscan.Options{}), nil
	}
	run := configscan.ComposeFiles(rels, configscan.ComposeOptions{Load: load})
	w := bufio.NewWriterSize(stdout, 64<<10)
	if format == "json" {
		err = writeResolvedJSON(w, run, rels)
	} else {
		err = writeResolvedYAML(w, run, rels)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		fmt.Fprintf(stderr, "gymlint: writing output: %v\n", err)
		return ExitError
	}
	if run.Fatal {
		return ExitFindings
	}
	return ExitClean
}

func originAt(o *configscan.Origin, p configscan.Pos) string {
	if o == nil {
		return "?"
	}
	return o.File + ":" + strconv.Itoa(p.Line)
}

type jsonInclude struct {
	File  string `json:"file"`
	Line  int    `json:"line"`
	Entry string `json:"entry"`
}

type jsonProblem struct {
	At      string `json:"at"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Help    string `json:"help,omitempty"`
	Fatal   bool   `json:"fatal"`
}

// The output of a deep config. A value nested N levels deep sits under N
// keys, and block YAML and indented JSON write each of its lines after an
// indentation that grows with the depth, so N levels would cost N² bytes
// (a 200 KB config of 9,000 levels printed 400 MB, and its JSON failed:
// encoding/json's indenter refuses more than 10,000 levels). Instead the
// indentation stops growing at maxIndentDepth levels: deeper YAML is
// written in flow style ({...} and [...], one value a line with its note)
// at the indentation of that depth, which YAML allows (a flow collection
// only has to be indented more than its key), and deeper JSON lines keep
// that indentation (JSON ignores whitespace). The output grows linearly
// with the config, and both still read back as the same config. Configs
// that are not so deep print as they did.
const maxIndentDepth = 32

// maxJSONIndent is maxIndentDepth in JSON levels: each level of the config
// is three (a node, its pairs, a pair), under the top-level object's two.
const maxJSONIndent = 3*maxIndentDepth + 2

// writeResolvedJSON writes the run as one JSON object (files,
// merge_order, includes, config, problems), streamed: the config is not
// converted into a second tree first.
func writeResolvedJSON(w *bufio.Writer, r *configscan.Run, files []string) error {
	merge := r.Files
	if merge == nil {
		merge = []string{}
	}
	includes := map[string][]jsonInclude{}
	for f, o := range r.Includes {
		var ch []jsonInclude
		for _, in := range o.Chain {
			ch = append(ch, jsonInclude{File: in.File, Line: in.Pos.Line, Entry: in.Entry})
		}
		includes[f] = ch
	}
	problems := []jsonProblem{}
	for _, p := range r.Problems {
		problems = append(problems, jsonProblem{At: originAt(p.Origin, p.Pos), Kind: p.Kind, Message: p.Message, Help: p.Help, Fatal: p.Fatal})
	}
	j := &jsonWriter{w: w, r: r}
	// The fields other than the config are small: encoding/json writes
	// them, indented as they sit in the object.
	j.field(1, true, "files")
	j.value(files)
	j.field(1, false, "merge_order")
	j.value(merge)
	j.field(1, false, "includes")
	j.value(includes)
	j.field(1, false, "config")
	if r.Root == nil {
		w.WriteString("null")
	} else {
		j.node(r.Root, 1)
	}
	j.field(1, false, "problems")
	j.value(problems)
	w.WriteString("\n}\n")
	return j.err
}

// jsonWriter writes what json.Encoder with SetIndent("", "  ") writes for
// the run, but for the indentation of deep values (see maxIndentDepth).
type jsonWriter struct {
	w   *bufio.Writer
	r   *configscan.Run
	err error
}

// newline starts a line at depth.
func (j *jsonWriter) newline(depth int) {
	j.w.WriteByte('\n')
	for range min(depth, maxJSONIndent) {
		j.w.WriteString("  ")
	}
}

// field writes the key of an object's field at depth, after a comma
// unless it is the first.
func (j *jsonWriter) field(depth int, first bool, key string) {
	if first {
		j.w.WriteByte('{')
	} else {
		j.w.WriteByte(',')
	}
	j.newline(depth)
	j.str(key)
	j.w.WriteString(": ")
}

func (j *jsonWriter) str(s string) { j.value(s) }

// value writes a small value with encoding/json, indented as a field of
// the top-level object.
func (j *jsonWriter) value(v any) {
	b, err := json.MarshalIndent(v, "  ", "  ")
	if err != nil && j.err == nil {
		j.err = err
	}
	j.w.Write(b)
}

// node writes n, whose opening brace is at depth.
func (j *jsonWriter) node(n *configscan.Node, depth int) {
	d := depth + 1
	j.field(d, true, "origin")
	j.str(originAt(n.Origin, n.Pos))
	j.field(d, false, "kind")
	j.str(n.Kind.String())
	if n.Tag != "" {
		j.field(d, false, "tag")
		j.str(n.Tag)
	}
	if n.Kind == configscan.ScalarNode {
		j.field(d, false, "value")
		j.str(n.Value)
		if n.Interpolation() {
			j.field(d, false, "interpolation")
			j.w.WriteString("true")
		}
	}
	if mv, ok := j.r.Moves[n]; ok {
		at := mv.From + " (" + originAt(mv.Origin, mv.Pos) + ")"
		if mv.Directive == "_copy" {
			j.field(d, false, "copied_from")
		} else {
			j.field(d, false, "inherited_from")
		}
		j.str(at)
	}
	switch {
	case n.Kind == configscan.MappingNode && len(n.Pairs) > 0:
		j.field(d, false, "pairs")
		j.w.WriteByte('[')
		for i, p := range n.Pairs {
			if i > 0 {
				j.w.WriteByte(',')
			}
			j.newline(d + 1)
			j.field(d+2, true, "key")
			j.str(p.Key)
			j.field(d+2, false, "key_origin")
			j.str(originAt(p.KeyOrigin, p.KeyPos))
			j.field(d+2, false, "value")
			j.node(p.Value, d+2)
			j.newline(d + 1)
			j.w.WriteByte('}')
		}
		j.newline(d)
		j.w.WriteByte(']')
	case n.Kind == configscan.SequenceNode && len(n.Items) > 0:
		j.field(d, false, "items")
		j.w.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				j.w.WriteByte(',')
			}
			j.newline(d + 1)
			j.node(it, d+1)
		}
		j.newline(d)
		j.w.WriteByte(']')
	}
	j.newline(depth)
	j.w.WriteByte('}')
}

func writeResolvedYAML(w *bufio.Writer, r *configscan.Run, files []string) error {
	fmt.Fprintf(w, "# gymlint resolve %s\n", strings.Join(files, " "))
	if len(r.Files) > 0 {
		w.WriteString("# merged in this order (a later file overrides an earlier one):\n")
		for _, f := range r.Files {
			fmt.Fprintf(w, "#   %s", f)
			if o := r.Includes[f]; o != nil {
				var via []string
				for _, in := range o.Chain {
					via = append(via, in.File+":"+strconv.Itoa(in.Pos.Line))
				}
				fmt.Fprintf(w, "  (included via %s)", strings.Join(via, " -> "))
			}
			w.WriteString("\n")
		}
	}
	if r.Root != nil {
		writeYAMLNode(w, r, r.Root, 0)
	}
	if len(r.Problems) > 0 {
		w.WriteString("# problems:\n")
		for _, p := range r.Problems {
			stop := ""
			if p.Fatal {
				stop = " [stops the run]"
			}
			fmt.Fprintf(w, "#   %s: %s: %s%s\n", originAt(p.Origin, p.Pos), p.Kind, oneLine(p.Message), stop)
		}
	}
	return nil
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// note is the comment after a value: where it is written, and what brought
// it.
func note(r *configscan.Run, n *configscan.Node) string {
	return noteAt(r, n, originAt(n.Origin, n.Pos))
}

// keyNote is the note of a mapping or list value, which starts on the
// line after its key: the key's place, where the reader looks.
func keyNote(r *configscan.Run, p configscan.Pair) string {
	return noteAt(r, p.Value, originAt(p.KeyOrigin, p.KeyPos))
}

func noteAt(r *configscan.Run, n *configscan.Node, at string) string {
	s := "  # " + at
	if n.Interpolation() {
		s += " (interpolation, not resolved)"
	}
	if mv, ok := r.Moves[n]; ok {
		s += fmt.Sprintf(" (%s: %s at %s)", mv.Directive, mv.From, originAt(mv.Origin, mv.Pos))
	}
	return s
}

// nonEmpty reports whether n is a mapping or list with something in it,
// which block style writes on the lines after its key.
func nonEmpty(n *configscan.Node) bool {
	return n.Kind == configscan.MappingNode && len(n.Pairs) > 0 || n.Kind == configscan.SequenceNode && len(n.Items) > 0
}

// writeYAMLNode writes n in block style at indent levels, and what lies
// maxIndentDepth levels deep in flow style.
func writeYAMLNode(w *bufio.Writer, r *configscan.Run, n *configscan.Node, indent int) {
	pad := strings.Repeat("  ", indent)
	switch n.Kind {
	case configscan.MappingNode:
		if len(n.Pairs) == 0 {
			w.WriteString(pad + "{}" + note(r, n) + "\n")
			return
		}
		for _, p := range n.Pairs {
			key := yamlScalar(p.Key, "!!str")
			switch v := p.Value; {
			case nonEmpty(v) && indent+1 >= maxIndentDepth:
				w.WriteString(pad + key + ": ")
				writeFlow(w, r, v, keyNote(r, p), pad+"  ")
				w.WriteString("\n")
			case nonEmpty(v):
				w.WriteString(pad + key + ":" + keyNote(r, p) + "\n")
				writeYAMLNode(w, r, v, indent+1)
			default:
				w.WriteString(pad + key + ": " + inline(v) + note(r, v) + "\n")
			}
		}
	case configscan.SequenceNode:
		for _, it := range n.Items {
			switch {
			case nonEmpty(it) && indent+1 >= maxIndentDepth:
				w.WriteString(pad + "- ")
				writeFlow(w, r, it, note(r, it), pad+"  ")
				w.WriteString("\n")
			case nonEmpty(it):
				w.WriteString(pad + "-" + note(r, it) + "\n")
				writeYAMLNode(w, r, it, indent+1)
			default:
				w.WriteString(pad + "- " + inline(it) + note(r, it) + "\n")
			}
		}
	default:
		w.WriteString(pad + inline(n) + note(r, n) + "\n")
	}
}

// writeFlow writes the non-empty mapping or list n in flow style: its
// opening bracket and the note, then each entry on a line of its own at
// pad, whatever its depth, and the closing bracket at pad (the caller
// ends its line).
func writeFlow(w *bufio.Writer, r *configscan.Run, n *configscan.Node, open string, pad string) {
	closing := "]"
	if n.Kind == configscan.MappingNode {
		w.WriteString("{" + open + "\n")
		closing = "}"
		for _, p := range n.Pairs {
			w.WriteString(pad + yamlScalar(p.Key, "!!str") + ": ")
			if v := p.Value; nonEmpty(v) {
				writeFlow(w, r, v, keyNote(r, p), pad)
				w.WriteString(",\n")
			} else {
				w.WriteString(flowInline(v) + "," + note(r, v) + "\n")
			}
		}
	} else {
		w.WriteString("[" + open + "\n")
		for _, it := range n.Items {
			w.WriteString(pad)
			if nonEmpty(it) {
				writeFlow(w, r, it, note(r, it), pad)
				w.WriteString(",\n")
			} else {
				w.WriteString(flowInline(it) + "," + note(r, it) + "\n")
			}
		}
	}
	w.WriteString(pad + closing)
}

// flowInline is inline for a value inside a flow collection, where a
// comma, a bracket or ": " would end a plain scalar: a scalar that is not
// a string and holds one is quoted (strings are already).
func flowInline(n *configscan.Node) string {
	s := inline(n)
	if n.Kind == configscan.ScalarNode && n.Tag != "!!str" && (strings.ContainsAny(s, ",[]{}#") || strings.Contains(s, ": ") || strings.HasSuffix(s, ":")) {
		return strconv.Quote(n.Value)
	}
	return s
}

// inline renders a scalar, or an empty mapping or list.
func inline(n *configscan.Node) string {
	switch n.Kind {
	case configscan.NullNode:
		return "null"
	case configscan.MappingNode:
		return "{}"
	case configscan.SequenceNode:
		return "[]"
	}
	return yamlScalar(n.Value, n.Tag)
}

// yamlScalar writes a scalar so that it reads back with the same tag: a
// string that would read as something else, or holds special characters,
// is double-quoted.
func yamlScalar(v, tag string) string {
	if tag != "!!str" {
		if strings.ContainsAny(v, "\n\"") {
			return strconv.Quote(v)
		}
		return v
	}
	plain := v != "" && !strings.ContainsAny(v, ":#{}[],&*!|>'\"%@`\n\t\\") &&
		strings.TrimSpace(v) == v && !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "?")
	if plain {
		switch strings.ToLower(v) {
		case "null", "~", "true", "false", "yes", "no", "on", "off", "y", "n":
			plain = false
		}
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			plain = false
		}
	}
	if plain {
		return v
	}
	return strconv.Quote(v)
}
