package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/internal/repofs"
)

const resolveUsage = `usage: gymlint resolve [--format yaml|json] [--root DIR] FILE...

Prints the config that Gym composes from FILE... given together (as
"gym env start --config FILE ..." does): the files their config_paths list,
recursively, merged so that an including file overrides what it includes and
a later file an earlier one, then _inherit_from, _copy and _delete_key
applied. Each value is followed by the place it is written (file:line), and
the files that came in through config_paths by the chain of includes that
brought them. ${...} interpolations are printed as written, marked, not
evaluated. Paths in config_paths are relative to the repository root (DIR,
default: the current directory), as Gym reads them from its working
directory; nothing outside DIR is read. Problems (a missing include, a
cycle, an _inherit_from of an instance that is not there) are listed after
the config; the exit status is 1 when there is one that stops Gym.

Flags:
`

// resolve is `gymlint resolve`.
func resolve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gymlint resolve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "yaml", "output format: yaml or json")
	rootFlag := fs.String("root", ".", "the repository root that config_paths entries are relative to")
	fs.Usage = func() {
		fmt.Fprint(stderr, resolveUsage)
		fs.PrintDefaults()
	}
	files, code, ok := parseFlags(fs, args)
	if !ok {
		return code
	}
	if *format != "yaml" && *format != "json" {
		fmt.Fprintf(stderr, "gymlint: unknown --format %q (known: yaml, json)\n", *format)
		return ExitError
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "gymlint resolve: expected at least one config file")
		fs.Usage()
		return ExitError
	}
	fsys, err := repofs.New(*rootFlag, repofs.Options{})
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
			fmt.Fprintf(stderr, "gymlint: %s is outside the root %s (see --root)\n", f, *rootFlag)
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
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(resolvedJSON(run, rels))
	} else {
		err = writeResolvedYAML(stdout, run, rels)
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

type jsonNode struct {
	Origin        string      `json:"origin"`
	Kind          string      `json:"kind"`
	Tag           string      `json:"tag,omitempty"`
	Value         *string     `json:"value,omitempty"`
	Interpolation bool        `json:"interpolation,omitempty"`
	Inherited     string      `json:"inherited_from,omitempty"`
	Copied        string      `json:"copied_from,omitempty"`
	Pairs         []jsonPair  `json:"pairs,omitempty"`
	Items         []*jsonNode `json:"items,omitempty"`
}

type jsonPair struct {
	Key       string    `json:"key"`
	KeyOrigin string    `json:"key_origin"`
	Value     *jsonNode `json:"value"`
}

type jsonRun struct {
	Files    []string                 `json:"files"`
	Merge    []string                 `json:"merge_order"`
	Includes map[string][]jsonInclude `json:"includes"`
	Config   *jsonNode                `json:"config"`
	Problems []jsonProblem            `json:"problems"`
}

func resolvedJSON(r *configscan.Run, files []string) jsonRun {
	out := jsonRun{Files: files, Merge: r.Files, Includes: map[string][]jsonInclude{}, Problems: []jsonProblem{}}
	if out.Merge == nil {
		out.Merge = []string{}
	}
	for f, o := range r.Includes {
		var ch []jsonInclude
		for _, in := range o.Chain {
			ch = append(ch, jsonInclude{File: in.File, Line: in.Pos.Line, Entry: in.Entry})
		}
		out.Includes[f] = ch
	}
	for _, p := range r.Problems {
		out.Problems = append(out.Problems, jsonProblem{At: originAt(p.Origin, p.Pos), Kind: p.Kind, Message: p.Message, Help: p.Help, Fatal: p.Fatal})
	}
	var conv func(n *configscan.Node) *jsonNode
	conv = func(n *configscan.Node) *jsonNode {
		j := &jsonNode{Origin: originAt(n.Origin, n.Pos), Kind: n.Kind.String(), Tag: n.Tag}
		if mv, ok := r.Moves[n]; ok {
			at := mv.From + " (" + originAt(mv.Origin, mv.Pos) + ")"
			if mv.Directive == "_copy" {
				j.Copied = at
			} else {
				j.Inherited = at
			}
		}
		switch n.Kind {
		case configscan.ScalarNode:
			v := n.Value
			j.Value = &v
			j.Interpolation = n.Interpolation()
		case configscan.MappingNode:
			j.Pairs = []jsonPair{}
			for _, p := range n.Pairs {
				j.Pairs = append(j.Pairs, jsonPair{Key: p.Key, KeyOrigin: originAt(p.KeyOrigin, p.KeyPos), Value: conv(p.Value)})
			}
		case configscan.SequenceNode:
			j.Items = []*jsonNode{}
			for _, it := range n.Items {
				j.Items = append(j.Items, conv(it))
			}
		}
		return j
	}
	if r.Root != nil {
		out.Config = conv(r.Root)
	}
	return out
}

func writeResolvedYAML(w io.Writer, r *configscan.Run, files []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# gymlint resolve %s\n", strings.Join(files, " "))
	if len(r.Files) > 0 {
		b.WriteString("# merged in this order (a later file overrides an earlier one):\n")
		for _, f := range r.Files {
			fmt.Fprintf(&b, "#   %s", f)
			if o := r.Includes[f]; o != nil {
				var via []string
				for _, in := range o.Chain {
					via = append(via, in.File+":"+strconv.Itoa(in.Pos.Line))
				}
				fmt.Fprintf(&b, "  (included via %s)", strings.Join(via, " -> "))
			}
			b.WriteString("\n")
		}
	}
	if r.Root != nil {
		writeYAMLNode(&b, r, r.Root, 0)
	}
	if len(r.Problems) > 0 {
		b.WriteString("# problems:\n")
		for _, p := range r.Problems {
			stop := ""
			if p.Fatal {
				stop = " [stops the run]"
			}
			fmt.Fprintf(&b, "#   %s: %s: %s%s\n", originAt(p.Origin, p.Pos), p.Kind, oneLine(p.Message), stop)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
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

func writeYAMLNode(b *strings.Builder, r *configscan.Run, n *configscan.Node, indent int) {
	pad := strings.Repeat("  ", indent)
	switch n.Kind {
	case configscan.MappingNode:
		if len(n.Pairs) == 0 {
			b.WriteString(pad + "{}" + note(r, n) + "\n")
			return
		}
		for _, p := range n.Pairs {
			key := yamlScalar(p.Key, "!!str")
			switch v := p.Value; {
			case v.Kind == configscan.MappingNode && len(v.Pairs) > 0, v.Kind == configscan.SequenceNode && len(v.Items) > 0:
				b.WriteString(pad + key + ":" + keyNote(r, p) + "\n")
				writeYAMLNode(b, r, v, indent+1)
			default:
				b.WriteString(pad + key + ": " + inline(v) + note(r, v) + "\n")
			}
		}
	case configscan.SequenceNode:
		for _, it := range n.Items {
			if (it.Kind == configscan.MappingNode && len(it.Pairs) > 0) || (it.Kind == configscan.SequenceNode && len(it.Items) > 0) {
				b.WriteString(pad + "-" + note(r, it) + "\n")
				writeYAMLNode(b, r, it, indent+1)
				continue
			}
			b.WriteString(pad + "- " + inline(it) + note(r, it) + "\n")
		}
	default:
		b.WriteString(pad + inline(n) + note(r, n) + "\n")
	}
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
