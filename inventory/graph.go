package inventory

import (
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/configscan"
)

// The graph formats draw the inventory so that a whole repository stays
// readable:
//
//   - a cluster per server type (resources_servers, responses_api_agents,
//     responses_api_models, environment_servers, then any other), its
//     boxes laid out as a grid: every cluster has the same number of rows,
//     chosen from the number of boxes so that the picture is about half
//     again as wide as it is high (gridRows);
//   - a box per server (class, file and line, worker status and how many
//     configs name it), coloured by worker status;
//   - a legend of the colours, the boxes and the arrows;
//   - arrows only where they say something: an "extends" arrow from a
//     class to a repository class it inherits from another directory
//     (classes of its own directory are looked through, framework classes
//     are not drawn); a "config" arrow to a server from the server
//     directory (or, outside server directories, the folder of configs)
//     whose config names it, when that is not its own directory; and a
//     "reference" arrow from an environment server to the servers its
//     configs bind it to ({type, name} settings, Reference).
//
// A class another directory inherits from that is not a server drawn here,
// a folder of configs outside the server directories, and an instance an
// environment server references that is not drawn here get a box of their
// own, in the cluster of their server type (or in "other folders").
//
// Labels are built from class names and paths, which a repository
// chooses: every label is escaped for its format, control characters
// become spaces, and node ids are gymlint's own (n0, n1, ...).

// The kinds of boxes.
const (
	kindServer   = "server"
	kindParent   = "parent"   // a repository class another directory inherits from
	kindConfigs  = "configs"  // a folder of configs outside the server directories
	kindInstance = "instance" // a referenced instance whose server is not drawn
)

// The kinds of arrows.
const (
	edgeExtends   = "extends"
	edgeConfig    = "config"
	edgeReference = "reference"
)

// environmentServers is the server type whose references are drawn:
// environment servers run an episode against the resources server and the
// agent their configs name.
const environmentServers = "environment_servers"

// elsewhere is the cluster of the boxes outside every server type.
const elsewhere = ""

// node is a box of the graph.
type node struct {
	id    string
	kind  string
	lines []string // the label, one entry a line
	style string   // a key of graphStyles
	group string   // the cluster: a server type, or elsewhere
	files []string // a folder of configs': the config files
}

// edge is an arrow of the graph.
type edge struct {
	from, to int // node indexes
	kind     string
	label    string   // a reference's field
	configs  []string // a config arrow's entries, path:line (a DOT tooltip)
}

// cluster is a server type's group of boxes, in drawing order.
type cluster struct {
	name    string
	label   string
	nodes   []int
	columns int
}

type graph struct {
	nodes    []node
	edges    []edge
	clusters []*cluster
	rows     int // of every cluster's grid
	note     string
}

// graphStyle is how a kind of node is drawn: fill, border, and whether
// the border is dashed; legend is what the legend calls it.
type graphStyle struct {
	name, fill, stroke string
	dashed             bool
	legend             string
}

// graphStyles, by key: one per worker status, then the other boxes.
var graphStyles = []graphStyle{
	{"app", "#d1f2d9", "#1a7f37", false, "app"},
	{"refuses_always", "#ffe2c2", "#bc4c00", false, "refuses always"},
	{"refuses_when", "#fff1b8", "#9a6700", false, "refuses when"},
	{"no_app", "#f3e1ff", "#8250df", false, "no app"},
	{"undeclared", "#ffd1d1", "#cf222e", false, "undeclared"},
	{"exempt", "#eaeef2", "#57606a", false, "exempt, starts no server"},
	{"unknown", "#ffffff", "#57606a", true, "no server class, syntax error, unreadable"},
	{"parent", "#f6f8fa", "#8c959f", false, "a class servers of other dirs extend"},
	{"configs", "#ddf4ff", "#0969da", false, "a folder of configs outside server dirs"},
	{"instance", "#ffffff", "#8c959f", true, "a referenced server not drawn here"},
}

// statusStyles is how many of graphStyles are worker statuses.
const statusStyles = 7

// edgeStyles are the colours of the arrows, by kind.
var edgeStyles = map[string]string{edgeExtends: "#57606a", edgeConfig: "#0969da", edgeReference: "#8250df"}

// edgeLegend says what each kind of arrow means, in legend order.
var edgeLegend = []struct{ kind, text string }{
	{edgeExtends, "inherits from a class of another dir"},
	{edgeConfig, "a config there names this server"},
	{edgeReference, "a reference of an environment server"},
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

// dirs finds the server directory of a path: the longest directory of a
// drawn server that holds it, else type/name when the path lies under a
// server type, else "" (no server directory).
type dirs struct {
	known []string // longest first
	types []string
}

func newDirs(rows []Server, types []string) *dirs {
	d := &dirs{types: types}
	for _, r := range rows {
		if dir := rowDir(r); !slices.Contains(d.known, dir) {
			d.known = append(d.known, dir)
		}
	}
	slices.SortStableFunc(d.known, func(a, b string) int { return len(b) - len(a) })
	return d
}

// rowDir is the directory of a row's server: its type/dir when the
// entrypoint lies in it, else the entrypoint's folder.
func rowDir(r Server) string {
	if d := r.Type + "/" + r.Dir; r.Type != "" && r.Dir != "" && strings.HasPrefix(r.Path, d+"/") {
		return d
	}
	return path.Dir(r.Path)
}

func (d *dirs) of(p string) string {
	for _, k := range d.known {
		if strings.HasPrefix(p, k+"/") {
			return k
		}
	}
	if parts := strings.Split(p, "/"); len(parts) >= 3 && slices.Contains(d.types, parts[0]) {
		return parts[0] + "/" + parts[1]
	}
	return ""
}

// groupOf is the cluster of a path: its first folder when that is a
// server type, else elsewhere.
func (d *dirs) groupOf(p string) string {
	first, _, _ := strings.Cut(p, "/")
	if slices.Contains(d.types, first) {
		return first
	}
	return elsewhere
}

// buildGraph turns the rows into nodes and edges, in the rows' order.
func buildGraph(rows []Server, note string) *graph {
	g := &graph{note: note}
	types := slices.Clone(configscan.DefaultServerTypes)
	for _, r := range rows {
		if r.Type != "" && !slices.Contains(types, r.Type) {
			types = append(types, r.Type)
		}
	}
	d := newDirs(rows, types)
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
	type edgeKey struct {
		from, to int
		kind     string
	}
	edges := map[edgeKey]int{} // index in g.edges
	addEdge := func(from, to int, e edge) {
		if from == to {
			return
		}
		k := edgeKey{from, to, e.kind}
		if i, ok := edges[k]; ok {
			old := &g.edges[i]
			for _, c := range e.configs {
				if !slices.Contains(old.configs, c) {
					old.configs = append(old.configs, c)
				}
			}
			if e.label != "" && !slices.Contains(strings.Split(old.label, ", "), e.label) {
				old.label = strings.TrimPrefix(old.label+", "+e.label, ", ")
			}
			return
		}
		e.from, e.to = from, to
		edges[k] = len(g.edges)
		g.edges = append(g.edges, e)
	}
	// Servers first, so that a parent or a referenced instance that is a
	// server is drawn as one.
	server := make([]int, len(rows))
	byPath := map[string][]int{}
	firstOfDir := map[string]int{}
	for i, r := range rows {
		group := r.Type
		if group == "" || !strings.HasPrefix(r.Path, group+"/") {
			group = d.groupOf(r.Path)
		}
		title, where := r.Class, fmt.Sprintf("%s:%d", r.Path, r.Line)
		if r.Class == "" {
			title, where = path.Base(r.Path), r.Path
		}
		if group != elsewhere {
			where = strings.TrimPrefix(where, group+"/")
		}
		status := "workers: " + r.Workers
		switch n := len(r.Configs); n {
		case 0:
		case 1:
			status += " · 1 config"
		default:
			status += fmt.Sprintf(" · %d configs", n)
		}
		key := classKey(r.Path, r.Class, r.Line)
		if r.Class == "" {
			key = "module\x00" + r.Path
		}
		server[i] = add(key, node{kind: kindServer, lines: []string{title, where, status}, style: statusStyle(r.Workers), group: group})
		byPath[r.Path] = append(byPath[r.Path], server[i])
		if _, ok := firstOfDir[rowDir(r)]; !ok {
			firstOfDir[rowDir(r)] = server[i]
		}
	}
	// Inheritance across directories.
	for i, r := range rows {
		ids := make([]int, len(r.Parents))
		nodeOf := func(j int) int {
			if ids[j] == 0 {
				p := r.Parents[j]
				where := fmt.Sprintf("%s:%d", p.Path, p.Line)
				group := d.groupOf(p.Path)
				if group != elsewhere {
					where = strings.TrimPrefix(where, group+"/")
				}
				ids[j] = add(classKey(p.Path, p.Class, p.Line), node{kind: kindParent,
					lines: []string{p.Class, where}, style: "parent", group: group}) + 1
			}
			return ids[j] - 1
		}
		// frontier draws an arrow from the box from, in directory dir, to
		// each class it inherits from another directory, looking through
		// the classes of dir; a class so reached that is not a drawn
		// server gets its own frontier.
		var frontier func(from int, dir string, bases []int, seen map[int]bool)
		frontier = func(from int, dir string, bases []int, seen map[int]bool) {
			for _, b := range bases {
				if b < 0 || b >= len(r.Parents) || seen[b] {
					continue
				}
				seen[b] = true
				p := r.Parents[b]
				if d.of(p.Path) == dir && dir != "" {
					frontier(from, dir, p.Bases, seen)
					continue
				}
				to := nodeOf(b)
				addEdge(from, to, edge{kind: edgeExtends})
				if g.nodes[to].kind == kindParent {
					frontier(to, d.of(p.Path), p.Bases, map[int]bool{b: true})
				}
			}
		}
		var direct []int
		for j, p := range r.Parents {
			if p.Direct {
				direct = append(direct, j)
			}
		}
		frontier(server[i], rowDir(r), direct, map[int]bool{})
	}
	// Configs of other directories.
	for i, r := range rows {
		own := rowDir(r)
		for _, c := range r.Configs {
			file := c
			if k := strings.LastIndexByte(c, ':'); k >= 0 {
				file = c[:k]
			}
			dir := d.of(file)
			if dir == own {
				continue
			}
			from, ok := firstOfDir[dir]
			if !ok {
				folder := path.Dir(file)
				group := d.groupOf(file)
				title := folder + "/"
				if group != elsewhere {
					title = strings.TrimPrefix(title, group+"/")
				}
				from = add("configs\x00"+folder, node{kind: kindConfigs, lines: []string{title}, style: "configs", group: group})
				if n := &g.nodes[from]; !slices.Contains(n.files, file) {
					n.files = append(n.files, file)
				}
			}
			addEdge(from, server[i], edge{kind: edgeConfig, configs: []string{c}})
		}
	}
	// References of environment servers.
	for i, r := range rows {
		if r.Type != environmentServers {
			continue
		}
		for _, ref := range r.References {
			targets := byPath[ref.Path]
			if len(targets) == 0 {
				where := ref.Path
				group := d.groupOf(ref.Path)
				if group != elsewhere {
					where = strings.TrimPrefix(where, group+"/")
				}
				targets = []int{add("instance\x00"+ref.Type+"\x00"+ref.Name, node{kind: kindInstance, lines: []string{ref.Name, where}, style: "instance", group: group})}
			}
			for _, t := range targets {
				addEdge(server[i], t, edge{kind: edgeReference, label: ref.Field})
			}
		}
	}
	g.layout(types)
	return g
}

// label is a node's label lines, as drawn: a folder of configs says how
// many.
func (n node) label() []string {
	if n.kind != kindConfigs {
		return n.lines
	}
	count := "1 config"
	if len(n.files) != 1 {
		count = fmt.Sprintf("%d configs", len(n.files))
	}
	return append(slices.Clone(n.lines), count)
}

// The grid's estimate of the picture's size (gridRows), in points, from
// Graphviz renderings of real and generated repositories: a column of
// boxes with its gaps (a box with a three-line label in an 11-point font
// is about 250 points wide), a row, and the width the arrows between the
// grids take on their way (they bend around boxes and clusters, and the
// arrows that go up loop around the side; with splines=line they would
// take none, but cross the boxes).
const (
	gridColumnWidth = 290.0
	gridRowHeight   = 70.0
	gridEdgeWidth   = 13.0
	// The legend, above the grids, is about this wide and high.
	legendWidth  = 760.0
	legendHeight = 100.0
	// gridAspect is the width over height the grid aims at: a screen's
	// (16:10).
	gridAspect = 1.6
)

// gridRows is the number of rows of every cluster's grid, for clusters of
// sizes boxes and edges arrows between boxes: the one whose estimated
// picture (the legend above the grids) is nearest gridAspect (the fewer
// rows on a tie).
func gridRows(sizes []int, edges int) int {
	most := 1
	for _, n := range sizes {
		most = max(most, n)
	}
	best, bestScore := 1, math.Inf(1)
	for rows := 1; rows <= most; rows++ {
		columns := 0
		for _, n := range sizes {
			columns += (n + rows - 1) / rows
		}
		w := max(legendWidth, float64(columns)*gridColumnWidth+float64(edges)*gridEdgeWidth)
		h := legendHeight + float64(rows)*gridRowHeight
		if score := math.Abs(math.Log(w / h / gridAspect)); score < bestScore {
			best, bestScore = rows, score
		}
	}
	return best
}

// layout puts the boxes into their clusters, in the order of types then
// elsewhere, and chooses the grid.
func (g *graph) layout(types []string) {
	byName := map[string]*cluster{}
	for _, t := range append(slices.Clone(types), elsewhere) {
		c := &cluster{name: t}
		byName[t] = c
		g.clusters = append(g.clusters, c)
	}
	for i, n := range g.nodes {
		byName[n.group].nodes = append(byName[n.group].nodes, i)
	}
	g.clusters = slices.DeleteFunc(g.clusters, func(c *cluster) bool { return len(c.nodes) == 0 })
	var sizes []int
	for _, c := range g.clusters {
		sizes = append(sizes, len(c.nodes))
	}
	g.rows = gridRows(sizes, len(g.edges))
	for _, c := range g.clusters {
		c.columns = (len(c.nodes) + g.rows - 1) / g.rows
		servers := 0
		for _, i := range c.nodes {
			if g.nodes[i].kind == kindServer {
				servers++
			}
		}
		name := c.name
		if name == elsewhere {
			name = "other folders"
		}
		switch servers {
		case 0:
			c.label = name
		case 1:
			c.label = name + " (1 server)"
		default:
			c.label = fmt.Sprintf("%s (%d servers)", name, servers)
		}
	}
}

// gridEdges are the invisible arrows that make a cluster's grid: each box
// above the one a row below it (the box columns further on).
func (c *cluster) gridEdges() [][2]int {
	var out [][2]int
	for k := 0; k+c.columns < len(c.nodes); k++ {
		out = append(out, [2]int{c.nodes[k], c.nodes[k+c.columns]})
	}
	return out
}

// rowEdges are the invisible arrows that keep each row of a cluster's grid
// in path order, left to right: each box to the next of its row. Graphviz
// keeps an edge between two boxes of a rank as their order; Mermaid would
// put its target a row lower, so only DOT has them.
func (c *cluster) rowEdges() [][2]int {
	var out [][2]int
	for k := 0; k+1 < len(c.nodes); k++ {
		if (k+1)%c.columns != 0 {
			out = append(out, [2]int{c.nodes[k], c.nodes[k+1]})
		}
	}
	return out
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
