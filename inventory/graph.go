package inventory

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The graph formats draw the inventory: a node per server (coloured by how
// it answers several workers), one per repository parent class of a
// server, and one per config file that starts a server. Edges go from a
// config to the servers it starts (labelled with the lines of the
// entries) and from a class to its direct repository bases ("extends").
//
// Labels are built from class names and paths, which a repository
// chooses: every label is escaped for its format, control characters
// become spaces, and node ids are gymlint's own (n0, n1, ...).

// node is a box of the graph.
type node struct {
	id    string
	kind  string   // "server", "parent" or "config"
	lines []string // the label, one entry a line
	style string   // a key of graphStyles
}

// edge is an arrow of the graph.
type edge struct {
	from, to int // node indexes
	label    string
}

type graph struct {
	nodes []node
	edges []edge
	note  string
}

// graphStyle is how a kind of node is drawn: fill, border, and whether
// the border is dashed.
type graphStyle struct {
	name, fill, stroke string
	dashed             bool
}

// graphStyles, by key: one per worker status, then parents and configs.
var graphStyles = []graphStyle{
	{"app", "#d1f2d9", "#1a7f37", false},
	{"refuses_always", "#ffe2c2", "#bc4c00", false},
	{"refuses_when", "#fff1b8", "#9a6700", false},
	{"no_app", "#f3e1ff", "#8250df", false},
	{"undeclared", "#ffd1d1", "#cf222e", false},
	{"exempt", "#eaeef2", "#57606a", false},
	{"unknown", "#ffffff", "#57606a", true}, // no server class, syntax error, unreadable, unknown
	{"parent", "#f6f8fa", "#8c959f", false},
	{"config", "#ddf4ff", "#0969da", false},
}

// statusStyle is the style of a server row's worker status.
func statusStyle(workers string) string {
	switch strings.TrimSuffix(workers, " (+app)") {
	case "app":
		return "app"
	case "refuses always":
		return "refuses_always"
	case "refuses when":
		return "refuses_when"
	case "no app":
		return "no_app"
	case "undeclared":
		return "undeclared"
	case "exempt", "starts no server":
		return "exempt"
	}
	return "unknown"
}

// buildGraph turns the rows into nodes and edges, in the rows' order.
func buildGraph(rows []Server, note string) *graph {
	g := &graph{note: note}
	byKey := map[string]int{}
	add := func(key string, n node) int {
		if i, ok := byKey[key]; ok {
			return i
		}
		n.id = "n" + strconv.Itoa(len(g.nodes))
		byKey[key] = len(g.nodes)
		g.nodes = append(g.nodes, n)
		return len(g.nodes) - 1
	}
	classKey := func(path, class string, line int) string {
		return "class\x00" + path + "\x00" + class + "\x00" + strconv.Itoa(line)
	}
	edges := map[[2]int]int{} // from, to -> index in g.edges
	addEdge := func(from, to int, label string) {
		k := [2]int{from, to}
		if i, ok := edges[k]; ok {
			if label != "" && g.edges[i].label != label {
				g.edges[i].label += ", " + strings.TrimPrefix(label, "line ")
				g.edges[i].label = strings.Replace(g.edges[i].label, "line ", "lines ", 1)
			}
			return
		}
		edges[k] = len(g.edges)
		g.edges = append(g.edges, edge{from: from, to: to, label: label})
	}
	// Servers first, so a parent that is also a server is drawn as one.
	server := make([]int, len(rows))
	for i, r := range rows {
		title := r.Class
		if title == "" {
			title = r.Path
		}
		lines := []string{title, fmt.Sprintf("%s:%d", r.Path, r.Line), "workers: " + r.Workers}
		if r.Class == "" {
			lines = []string{title, "workers: " + r.Workers}
		}
		key := classKey(r.Path, r.Class, r.Line)
		if r.Class == "" {
			key = "module\x00" + r.Path
		}
		server[i] = add(key, node{kind: "server", lines: lines, style: statusStyle(r.Workers)})
	}
	for i, r := range rows {
		ids := make([]int, len(r.Parents))
		for j, p := range r.Parents {
			ids[j] = add(classKey(p.Path, p.Class, p.Line), node{kind: "parent",
				lines: []string{p.Class, fmt.Sprintf("%s:%d", p.Path, p.Line)}, style: "parent"})
		}
		for j, p := range r.Parents {
			if p.Direct {
				addEdge(server[i], ids[j], "extends")
			}
			for _, b := range p.Bases {
				if b >= 0 && b < len(ids) {
					addEdge(ids[j], ids[b], "extends")
				}
			}
		}
	}
	for i, r := range rows {
		for _, c := range r.Configs {
			file, line := c, ""
			if k := strings.LastIndexByte(c, ':'); k >= 0 {
				file, line = c[:k], c[k+1:]
			}
			from := add("config\x00"+file, node{kind: "config", lines: []string{file}, style: "config"})
			label := ""
			if line != "" {
				label = "line " + line
			}
			addEdge(from, server[i], label)
		}
	}
	return g
}

// oneLine makes s a single line of printable text.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
}

// mermaidText escapes label text for a quoted Mermaid label: Mermaid's
// entity codes for the characters that end a label, start an entity or
// HTML, or switch to a Markdown string.
var mermaidText = strings.NewReplacer(
	"#", "#35;", `"`, "#quot;", "&", "#amp;", "<", "#lt;", ">", "#gt;",
	"`", "#96;", "|", "#124;", "[", "#91;", "]", "#93;", "{", "#123;", "}", "#125;",
)

// MermaidMaxText is Mermaid's default maxTextSize: renderers that keep the
// default (GitHub's among them) refuse a longer diagram.
const MermaidMaxText = 50000

// mermaid writes a Mermaid flowchart.
func mermaid(w io.Writer, rows []Server, note string) error {
	g := buildGraph(rows, note)
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	if g.note != "" {
		b.WriteString("  %% " + strings.ReplaceAll(oneLine(g.note), "%%", "% %") + "\n")
	}
	label := func(lines []string) string {
		esc := make([]string, len(lines))
		for i, l := range lines {
			esc[i] = mermaidText.Replace(oneLine(l))
		}
		return `"` + strings.Join(esc, "<br/>") + `"`
	}
	used := map[string]bool{}
	for _, n := range g.nodes {
		open, close := "[", "]"
		switch n.kind {
		case "parent":
			open, close = "[[", "]]"
		case "config":
			open, close = "[/", "/]"
		}
		fmt.Fprintf(&b, "  %s%s%s%s:::%s\n", n.id, open, label(n.lines), close, n.style)
		used[n.style] = true
	}
	for _, e := range g.edges {
		if e.label != "" {
			fmt.Fprintf(&b, "  %s -->|%s| %s\n", g.nodes[e.from].id, label([]string{e.label}), g.nodes[e.to].id)
		} else {
			fmt.Fprintf(&b, "  %s --> %s\n", g.nodes[e.from].id, g.nodes[e.to].id)
		}
	}
	for _, s := range graphStyles {
		if !used[s.name] {
			continue
		}
		fmt.Fprintf(&b, "  classDef %s fill:%s,stroke:%s,color:#1f2328", s.name, s.fill, s.stroke)
		if s.dashed {
			b.WriteString(",stroke-dasharray:4 3")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// dotString quotes s as a DOT string: backslashes and quotes escaped (so
// no escape sequence of the repository's reaches Graphviz), one line.
func dotString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(oneLine(s)) + `"`
}

// dot writes a Graphviz digraph.
func dot(w io.Writer, rows []Server, note string) error {
	g := buildGraph(rows, note)
	var b strings.Builder
	b.WriteString("digraph servers {\n  rankdir=LR;\n  node [shape=box, style=\"filled,rounded\", fontname=\"Helvetica\", fontsize=11];\n  edge [fontname=\"Helvetica\", fontsize=9];\n")
	if g.note != "" {
		b.WriteString("  // " + oneLine(g.note) + "\n")
	}
	styles := map[string]graphStyle{}
	for _, s := range graphStyles {
		styles[s.name] = s
	}
	for _, n := range g.nodes {
		s := styles[n.style]
		esc := make([]string, len(n.lines))
		for i, l := range n.lines {
			esc[i] = strings.TrimSuffix(strings.TrimPrefix(dotString(l), `"`), `"`)
		}
		style := "filled,rounded"
		if s.dashed {
			style += ",dashed"
		}
		shape := "box"
		switch n.kind {
		case "config":
			shape, style = "note", strings.Replace(style, ",rounded", "", 1)
		case "parent":
			style = strings.Replace(style, ",rounded", "", 1)
		}
		fmt.Fprintf(&b, "  %s [label=\"%s\", shape=%s, style=\"%s\", fillcolor=\"%s\", color=\"%s\"];\n",
			n.id, strings.Join(esc, `\n`), shape, style, s.fill, s.stroke)
	}
	for _, e := range g.edges {
		if e.label != "" {
			fmt.Fprintf(&b, "  %s -> %s [label=%s];\n", g.nodes[e.from].id, g.nodes[e.to].id, dotString(e.label))
		} else {
			fmt.Fprintf(&b, "  %s -> %s;\n", g.nodes[e.from].id, g.nodes[e.to].id)
		}
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
