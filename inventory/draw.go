package inventory

import (
	"fmt"
	"html"
	"io"
	"strings"
)

// The Mermaid and DOT writers of the graph (graph.go).

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

// mermaidLabel is a quoted Mermaid label of lines.
func mermaidLabel(lines []string) string {
	esc := make([]string, len(lines))
	for i, l := range lines {
		esc[i] = mermaidText.Replace(oneLine(l))
	}
	return `"` + strings.Join(esc, "<br/>") + `"`
}

// mermaidShapes are the brackets of each kind of box.
var mermaidShapes = map[string][2]string{
	kindServer: {"[", "]"}, kindParent: {"[[", "]]"}, kindConfigs: {"[/", "/]"}, kindInstance: {"([", "])"},
}

// mermaidArrows are the arrows of each kind of edge.
var mermaidArrows = map[string]string{edgeExtends: "-->", edgeConfig: "-.->", edgeReference: "==>"}

// mermaidArrowWords say how each kind of arrow looks, for the legend.
var mermaidArrowWords = map[string]string{edgeExtends: "solid arrow", edgeConfig: "dotted arrow", edgeReference: "thick arrow"}

// mermaid writes a Mermaid flowchart: a subgraph per cluster whose boxes
// invisible links (~~~) put in a grid, and a legend subgraph.
func mermaid(w io.Writer, rows []Server, note string) error {
	g := buildGraph(rows, note)
	var b strings.Builder
	b.WriteString("flowchart TB\n")
	if g.note != "" {
		b.WriteString("  %% " + strings.ReplaceAll(oneLine(g.note), "%%", "% %") + "\n")
	}
	b.WriteString("  subgraph legend[\"legend\"]\n    direction LR\n")
	for i, s := range graphStyles {
		shape := mermaidShapes[kindServer]
		switch s.name {
		case "parent":
			shape = mermaidShapes[kindParent]
		case "configs":
			shape = mermaidShapes[kindConfigs]
		case "instance":
			shape = mermaidShapes[kindInstance]
		}
		fmt.Fprintf(&b, "    l%d%s%s%s:::%s\n", i, shape[0], mermaidLabel([]string{s.legend}), shape[1], s.name)
	}
	var arrows []string
	for _, e := range edgeLegend {
		arrows = append(arrows, mermaidArrowWords[e.kind]+": "+e.text)
	}
	fmt.Fprintf(&b, "    l%d[%s]:::legendtext\n  end\n", len(graphStyles), mermaidLabel(arrows))
	for k, c := range g.clusters {
		fmt.Fprintf(&b, "  subgraph g%d[%s]\n", k, mermaidLabel([]string{c.label}))
		for _, i := range c.nodes {
			n := g.nodes[i]
			shape := mermaidShapes[n.kind]
			fmt.Fprintf(&b, "    %s%s%s%s:::%s\n", n.id, shape[0], mermaidLabel(n.label()), shape[1], n.style)
		}
		b.WriteString("  end\n")
	}
	for _, c := range g.clusters {
		for _, e := range c.gridEdges() {
			fmt.Fprintf(&b, "  %s ~~~ %s\n", g.nodes[e[0]].id, g.nodes[e[1]].id)
		}
	}
	for _, e := range g.edges {
		arrow := mermaidArrows[e.kind]
		if e.label != "" {
			arrow += "|" + mermaidLabel([]string{e.label}) + "|"
		}
		fmt.Fprintf(&b, "  %s %s %s\n", g.nodes[e.from].id, arrow, g.nodes[e.to].id)
	}
	for _, s := range graphStyles {
		fmt.Fprintf(&b, "  classDef %s fill:%s,stroke:%s,color:#1f2328", s.name, s.fill, s.stroke)
		if s.dashed {
			b.WriteString(",stroke-dasharray:4 3")
		}
		b.WriteString("\n")
	}
	b.WriteString("  classDef legendtext fill:#ffffff,stroke:#d0d7de,color:#1f2328\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// dotString quotes s as a DOT string: backslashes and quotes escaped (so
// no escape sequence of the repository's reaches Graphviz), one line.
func dotString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(oneLine(s)) + `"`
}

// dotArrows are the attributes of each kind of edge; none constrains the
// layout, which the grids make.
var dotArrows = map[string]string{
	edgeExtends:   `color="` + edgeStyles[edgeExtends] + `", arrowhead=onormal`,
	edgeConfig:    `color="` + edgeStyles[edgeConfig] + `", style=dashed`,
	edgeReference: `color="` + edgeStyles[edgeReference] + `", penwidth=2`,
}

// dotArrowWords say how each kind of arrow looks, for the legend.
var dotArrowWords = map[string]string{edgeExtends: "solid, hollow head", edgeConfig: "dashed", edgeReference: "thick"}

// dotLegend is the legend: an HTML-like table of the box colours and the
// arrows (fixed text, escaped all the same).
func dotLegend() string {
	var b strings.Builder
	cell := func(s graphStyle) string {
		style := ""
		if s.dashed {
			style = ` style="dashed"`
		}
		return fmt.Sprintf(`<td bgcolor="%s" color="%s"%s>%s</td>`, s.fill, s.stroke, style, html.EscapeString(s.legend))
	}
	row := func(title string, cells []string) {
		fmt.Fprintf(&b, `<tr><td align="left"><b>%s</b></td><td align="left"><table border="0" cellborder="1" cellspacing="3" cellpadding="3"><tr>%s</tr></table></td></tr>`,
			title, strings.Join(cells, ""))
	}
	b.WriteString(`<table border="0" cellborder="0" cellspacing="0" cellpadding="1">`)
	var cells []string
	for _, s := range graphStyles[:statusStyles] {
		cells = append(cells, cell(s))
	}
	row("workers", cells)
	cells = nil
	for _, s := range graphStyles[statusStyles:] {
		cells = append(cells, cell(s))
	}
	row("other boxes", cells)
	cells = nil
	for _, e := range edgeLegend {
		cells = append(cells, fmt.Sprintf(`<td border="0"><font color="%s">%s: %s</font></td>`, edgeStyles[e.kind], dotArrowWords[e.kind], html.EscapeString(e.text)))
	}
	row("arrows", cells)
	b.WriteString(`</table>`)
	return b.String()
}

// dot writes a Graphviz digraph: a cluster per server type whose boxes
// invisible edges put in a grid, and a legend cluster.
func dot(w io.Writer, rows []Server, note string) error {
	g := buildGraph(rows, note)
	var b strings.Builder
	b.WriteString("digraph servers {\n  nodesep=0.2;\n  ranksep=0.3;\n  fontname=\"Helvetica\";\n")
	b.WriteString("  node [shape=box, style=\"filled,rounded\", fontname=\"Helvetica\", fontsize=11];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=9, constraint=false];\n")
	if g.note != "" {
		b.WriteString("  // " + oneLine(g.note) + "\n")
	}
	b.WriteString("  subgraph cluster_legend {\n    label=\"legend\";\n    style=\"rounded\";\n    color=\"#d0d7de\";\n")
	b.WriteString("    legend [shape=plain, style=\"\", label=<" + dotLegend() + ">];\n  }\n")
	styles := map[string]graphStyle{}
	for _, s := range graphStyles {
		styles[s.name] = s
	}
	for k, c := range g.clusters {
		fmt.Fprintf(&b, "  subgraph cluster_%d {\n    label=%s;\n    labeljust=l;\n    style=\"rounded\";\n    color=\"#d0d7de\";\n", k, dotString(c.label))
		for _, i := range c.nodes {
			n := g.nodes[i]
			s := styles[n.style]
			lines := n.label()
			esc := make([]string, len(lines))
			for i, l := range lines {
				esc[i] = strings.TrimSuffix(strings.TrimPrefix(dotString(l), `"`), `"`)
			}
			style := "filled,rounded"
			if s.dashed {
				style += ",dashed"
			}
			shape := "box"
			switch n.kind {
			case kindConfigs:
				shape, style = "note", strings.Replace(style, ",rounded", "", 1)
			case kindParent:
				style = strings.Replace(style, ",rounded", "", 1)
			}
			fmt.Fprintf(&b, "    %s [label=\"%s\", shape=%s, style=\"%s\", fillcolor=\"%s\", color=\"%s\"];\n",
				n.id, strings.Join(esc, `\n`), shape, style, s.fill, s.stroke)
		}
		for _, e := range append(c.gridEdges(), c.rowEdges()...) {
			fmt.Fprintf(&b, "    %s -> %s [style=invis, constraint=true];\n", g.nodes[e[0]].id, g.nodes[e[1]].id)
		}
		b.WriteString("  }\n")
	}
	// The legend above the grids: it does not widen them.
	for _, c := range g.clusters {
		for _, i := range c.nodes[:min(c.columns, len(c.nodes))] {
			fmt.Fprintf(&b, "  legend -> %s [style=invis, constraint=true];\n", g.nodes[i].id)
		}
	}
	for _, e := range g.edges {
		attrs := dotArrows[e.kind]
		if e.label != "" {
			attrs += ", xlabel=" + dotString(e.label)
		}
		if len(e.configs) > 0 {
			attrs += ", tooltip=" + dotString(strings.Join(e.configs, ", "))
		}
		fmt.Fprintf(&b, "  %s -> %s [%s];\n", g.nodes[e.from].id, g.nodes[e.to].id, attrs)
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
