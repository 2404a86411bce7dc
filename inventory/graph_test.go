package inventory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// hostileName is a file name a repository may choose: every character
// that ends a label or starts an escape in Mermaid or DOT, and a newline.
const hostileName = "we\"ird\\n#35;<b>x</b>|[a]{b}`c`&amp;\nnext.py"

// hostilePath is the hostile file in a server directory.
const hostilePath = "resources_servers/weird/" + hostileName

// hostileRows are inventory rows with hostile names, a class hierarchy
// (a diamond) outside the server directories and configs, one of them
// in weird's directory naming the second server.
func hostileRows() []Server {
	return []Server{
		{Type: "resources_servers", Dir: "weird", Class: "Ünïcode_Server", Path: hostilePath, Line: 3,
			Configs: []string{"resources_servers/weird/configs/a\"b.yaml:4", "resources_servers/weird/configs/a\"b.yaml:9"},
			Workers: "refuses when (+app)",
			Parents: []Parent{
				{Class: "Left", Path: "lib/base.py", Line: 5, Direct: true, Bases: []int{2}},
				{Class: "Right", Path: "lib/base.py", Line: 9, Direct: true, Bases: []int{2}},
				{Class: "Root", Path: "lib/base.py", Line: 1, Bases: []int{}},
			}},
		{Type: "resources_servers", Dir: "plain", Class: "end", Path: "resources_servers/plain/app.py", Line: 2,
			Configs: []string{"resources_servers/weird/configs/a\"b.yaml:20"}, Workers: "undeclared",
			Parents: []Parent{{Class: "Root", Path: "lib/base.py", Line: 1, Direct: true, Bases: []int{}}}},
		{Type: "resources_servers", Dir: "lib", Path: "resources_servers/lib/app.py", Line: 1, Workers: "no server class"},
	}
}

func render(t *testing.T, format string, rows []Server, note string) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, format, rows, note); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestGraphEscaping checks that names a repository chooses cannot end a
// label, start an escape or add a line in either format.
func TestGraphEscaping(t *testing.T) {
	note := "contract: %% a note\nwith a line break"
	m := render(t, "mermaid", hostileRows(), note)
	lines := strings.Split(strings.TrimSuffix(m, "\n"), "\n")
	if lines[1] != "  %% contract: % % a note with a line break" {
		t.Errorf("mermaid note %q", lines[1])
	}
	for _, l := range lines[2:] {
		if strings.HasPrefix(l, "  classDef ") {
			continue
		}
		// Outside the label delimiters no quote may appear.
		if n := strings.Count(l, `"`); n%2 != 0 || n > 4 {
			t.Errorf("mermaid line with %d quotes: %q", n, l)
		}
	}
	for _, raw := range []string{"<b>", "`c`", "|[a]", "&amp;", "#35;<"} {
		if strings.Contains(m, raw) {
			t.Errorf("mermaid keeps %q unescaped:\n%s", raw, m)
		}
	}
	if !strings.Contains(m, "weird/we#quot;ird\\n#35;35;#lt;b#gt;x#lt;/b#gt;#124;#91;a#93;#123;b#125;#96;c#96;#amp;amp; next.py:3") {
		t.Errorf("mermaid label of the hostile path:\n%s", m)
	}
	// The diamond outside the server directories (4 arrows), the second
	// server's base, and weird's config that names the second server.
	if strings.Count(m, " --> ") != 5 || strings.Count(m, " -.-> ") != 1 {
		t.Errorf("want 5 extends arrows and 1 config arrow:\n%s", m)
	}

	d := render(t, "dot", hostileRows(), note)
	if !strings.Contains(d, `weird/we\"ird\\n#35;<b>x</b>|[a]{b}`+"`c`"+`&amp; next.py:3`) {
		t.Errorf("dot label of the hostile path:\n%s", d)
	}
	if !strings.Contains(d, `tooltip="resources_servers/weird/configs/a\"b.yaml:20"`) {
		t.Errorf("dot tooltip of the config arrow:\n%s", d)
	}
	for _, l := range strings.Split(d, "\n") {
		if strings.Contains(l, "label=<") {
			continue // the legend: gymlint's own text
		}
		if strings.Count(l, `"`)-strings.Count(l, `\"`) == 1 {
			t.Errorf("dot line with an unbalanced quote: %q", l)
		}
	}
	if strings.Count(d, "arrowhead=onormal") != 5 || strings.Count(d, "style=dashed") != 1 {
		t.Errorf("want 5 extends arrows and 1 config arrow:\n%s", d)
	}
}

func TestGraphColours(t *testing.T) {
	for workers, style := range map[string]string{
		"app": "app", "refuses always (+app)": "refuses_always", "refuses when": "refuses_when", "no app": "no_app",
		"undeclared": "undeclared", "exempt": "exempt", "starts no server": "exempt", "syntax error": "unknown", "unreadable": "unknown", "no server class": "unknown",
	} {
		rows := []Server{{Type: "resources_servers", Dir: "b", Class: "S", Path: "resources_servers/b/app.py", Line: 1, Workers: workers}}
		m := render(t, "mermaid", rows, "")
		if !regexp.MustCompile(`(?m)^    n0\[.*\]:::`+style+`$`).MatchString(m) || !strings.Contains(m, "classDef "+style+" ") {
			t.Errorf("%s: want style %s:\n%s", workers, style, m)
		}
		d := render(t, "dot", rows, "")
		for _, s := range graphStyles {
			if s.name == style && !strings.Contains(d, fmt.Sprintf(`n0 [label="S\nb/app.py:1\nworkers: %s", shape=box, style="filled,rounded%s", fillcolor="%s", color="%s"]`,
				workers, map[bool]string{true: ",dashed"}[s.dashed], s.fill, s.stroke)) {
				t.Errorf("%s: dot node of style %s:\n%s", workers, style, d)
			}
		}
	}
}

// TestGraphLegend checks that both formats carry a legend of every worker
// status, the other boxes and the arrows, whatever the rows.
func TestGraphLegend(t *testing.T) {
	m := render(t, "mermaid", nil, "")
	d := render(t, "dot", nil, "")
	for i, s := range graphStyles {
		if !strings.Contains(m, fmt.Sprintf(`    l%d`, i)) || !strings.Contains(m, mermaidText.Replace(s.legend)+`"`) || !strings.Contains(m, ":::"+s.name+"\n") {
			t.Errorf("mermaid legend lacks %s:\n%s", s.name, m)
		}
		if !strings.Contains(d, fmt.Sprintf(`<td bgcolor="%s" color="%s"`, s.fill, s.stroke)) || !strings.Contains(d, html.EscapeString(s.legend)+"</td>") {
			t.Errorf("dot legend lacks %s:\n%s", s.name, d)
		}
	}
	for _, e := range edgeLegend {
		if !strings.Contains(m, e.text) || !strings.Contains(d, e.text) {
			t.Errorf("a legend lacks the %s arrow", e.kind)
		}
	}
	if !strings.Contains(m, "  subgraph legend") || !strings.Contains(d, "subgraph cluster_legend") {
		t.Errorf("no legend cluster:\n%s\n%s", m, d)
	}
}

// edgeRows are rows with each kind of relation the graph draws or leaves
// out: a class of the server's own directory looked through to a class of
// another server directory, configs of its own directory (counted),
// configs outside server directories (a folder box), a config of another
// server's directory, an agent's references (not drawn) and an
// environment server's (one to a server not drawn).
func edgeRows() []Server {
	return []Server{
		{Type: "environment_servers", Dir: "episode", Class: "EpisodeServer", Path: "environment_servers/episode/app.py", Line: 4, Workers: "app",
			Configs: []string{"environment_servers/episode/configs/episode.yaml:3"},
			References: []Reference{
				{Field: "agent_server", Type: "responses_api_agents", Name: "gone_agent", Path: "responses_api_agents/gone/app.py"},
				{Field: "resources_server", Type: "resources_servers", Name: "child", Path: "resources_servers/child/app.py"},
			}},
		{Type: "resources_servers", Dir: "base_dir", Class: "BaseServer", Path: "resources_servers/base_dir/app.py", Line: 7, Workers: "undeclared",
			Configs: []string{"resources_servers/base_dir/configs/base_dir.yaml:3"}},
		{Type: "resources_servers", Dir: "child", Class: "ChildServer", Path: "resources_servers/child/app.py", Line: 9, Workers: "refuses always",
			Configs: []string{"resources_servers/child/configs/child.yaml:3", "benchmarks/suite/config.yaml:3", "benchmarks/suite/other.yaml:5", "benchmarks/suite/other.yaml:12"},
			Parents: []Parent{
				{Class: "ChildMixin", Path: "resources_servers/child/mixins.py", Line: 2, Direct: true, Bases: []int{1}},
				{Class: "BaseServer", Path: "resources_servers/base_dir/app.py", Line: 7, Bases: []int{}},
			}},
		{Type: "responses_api_agents", Dir: "simple_agent", Class: "SimpleAgent", Path: "responses_api_agents/simple_agent/app.py", Line: 5, Workers: "app",
			Configs:    []string{"responses_api_agents/simple_agent/configs/simple_agent.yaml:3", "resources_servers/child/configs/child.yaml:9"},
			References: []Reference{{Field: "resources_server", Type: "resources_servers", Name: "child", Path: "resources_servers/child/app.py"}}},
	}
}

// TestGraphEdges checks which relations become arrows and boxes.
func TestGraphEdges(t *testing.T) {
	g := buildGraph(edgeRows(), "")
	title := func(i int) string { return g.nodes[i].lines[0] }
	var got []string
	for _, e := range g.edges {
		s := title(e.from) + " " + e.kind + " " + title(e.to)
		if e.label != "" {
			s += " (" + e.label + ")"
		}
		if len(e.configs) > 0 {
			s += " " + strings.Join(e.configs, ", ")
		}
		got = append(got, s)
	}
	want := []string{
		"ChildServer extends BaseServer",
		"benchmarks/suite/ config ChildServer benchmarks/suite/config.yaml:3, benchmarks/suite/other.yaml:5, benchmarks/suite/other.yaml:12",
		"ChildServer config SimpleAgent resources_servers/child/configs/child.yaml:9",
		"EpisodeServer reference gone_agent (agent_server)",
		"EpisodeServer reference ChildServer (resources_server)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("edges:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var boxes []string
	for _, c := range g.clusters {
		for _, i := range c.nodes {
			boxes = append(boxes, c.label+": "+strings.Join(g.nodes[i].label(), " | "))
		}
	}
	wantBoxes := []string{
		"resources_servers (2 servers): BaseServer | base_dir/app.py:7 | workers: undeclared · 1 config",
		"resources_servers (2 servers): ChildServer | child/app.py:9 | workers: refuses always · 4 configs",
		"responses_api_agents (1 server): SimpleAgent | simple_agent/app.py:5 | workers: app · 2 configs",
		"responses_api_agents (1 server): gone_agent | gone/app.py",
		"environment_servers (1 server): EpisodeServer | episode/app.py:4 | workers: app · 1 config",
		"other folders: benchmarks/suite/ | 2 configs",
	}
	if !slices.Equal(boxes, wantBoxes) {
		t.Errorf("boxes:\n%s\nwant:\n%s", strings.Join(boxes, "\n"), strings.Join(wantBoxes, "\n"))
	}
	m := render(t, "mermaid", edgeRows(), "")
	for _, want := range []string{`==>|"resources_server"|`, `([`, ` -.-> `, ` --> `} {
		if !strings.Contains(m, want) {
			t.Errorf("mermaid lacks %q:\n%s", want, m)
		}
	}
}

// TestGraphTangle checks that arrows of different kinds between the same
// boxes stay apart.
func TestGraphTangle(t *testing.T) {
	g := buildGraph(tangleRows(), "")
	var got []string
	for _, e := range g.edges {
		got = append(got, g.nodes[e.from].lines[0]+" "+e.kind+" "+g.nodes[e.to].lines[0])
	}
	want := []string{
		"AServer extends BServer",
		"BServer config AServer", "EServer config AServer",
		"AServer config BServer",
		"EServer reference AServer",
	}
	if !slices.Equal(got, want) {
		t.Errorf("edges %q, want %q", got, want)
	}
}

// TestGridRows checks the grid's rows: one for a few boxes beside a
// legend wider than them, more as boxes are added, and a picture near
// gridAspect for the real repository's clusters.
func TestGridRows(t *testing.T) {
	if r := gridRows([]int{1, 1}, 0); r != 1 {
		t.Errorf("two boxes: %d rows, want 1", r)
	}
	prev := 0
	for _, n := range []int{10, 50, 100, 200, 400, 800, 1600} {
		r := gridRows([]int{n * 6 / 10, n * 3 / 10, n / 10}, n)
		if r < prev {
			t.Errorf("%d boxes: %d rows, fewer than %d for fewer boxes", n, r, prev)
		}
		prev = r
	}
	// The real NeMo Gym's clusters (175 servers, 38 folders of configs,
	// 231 arrows): 44 rows, measured 5,149 x 2,942 points.
	if r := gridRows([]int{120, 47, 8, 38}, 231); r < 38 || r > 50 {
		t.Errorf("NeMo Gym: %d rows", r)
	}
	g := buildGraph(edgeRows(), "")
	for _, c := range g.clusters {
		if want := max(0, len(c.nodes)-c.columns); len(c.gridEdges()) != want {
			t.Errorf("%s: %d grid edges, want %d", c.label, len(c.gridEdges()), want)
		}
		rows := (len(c.nodes) + c.columns - 1) / c.columns
		if want := len(c.nodes) - rows; len(c.rowEdges()) != want {
			t.Errorf("%s: %d row edges, want %d", c.label, len(c.rowEdges()), want)
		}
	}
}

// TestGraphRefusalRepoJSON draws the fixture's JSON inventory golden and
// compares with the graph goldens, so the three agree.
func TestGraphRefusalRepoJSON(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "refusalrepo.servers.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []Server
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"mermaid", "dot"} {
		want, err := os.ReadFile(filepath.Join("..", "testdata", "refusalrepo.servers."+format))
		if err != nil {
			t.Fatal(err)
		}
		note := "contract: RAY, SESSION METHODS judged by the latest contract: nemo_gym at ./nemo_gym predates the Ray declaration, the session close"
		if got := render(t, format, rows, note); got != string(want) {
			t.Errorf("%s from the JSON golden differs from the %s golden:\n%s", format, format, got)
		}
	}
}

// tangleRows are rows with arrows that Graphviz's concentrate=true (which
// the DOT output therefore does not set) merges or fails on ("in
// routesplines, cannot find NORMAL edge"): two servers whose directories'
// configs name each other, arrows of two kinds between the same boxes (a
// config and a class of the other directory; a config and a reference),
// and a labelled arrow.
func tangleRows() []Server {
	return []Server{
		{Type: "environment_servers", Dir: "e", Class: "EServer", Path: "environment_servers/e/app.py", Line: 1, Workers: "app",
			Configs:    []string{"environment_servers/e/configs/e.yaml:1"},
			References: []Reference{{Field: "resources_server", Type: "resources_servers", Name: "a", Path: "resources_servers/a/app.py"}}},
		{Type: "resources_servers", Dir: "a", Class: "AServer", Path: "resources_servers/a/app.py", Line: 1, Workers: "undeclared",
			Configs: []string{"resources_servers/a/configs/a.yaml:1", "resources_servers/b/configs/b.yaml:9", "environment_servers/e/configs/e.yaml:8"},
			Parents: []Parent{{Class: "BServer", Path: "resources_servers/b/app.py", Line: 1, Direct: true, Bases: []int{}}}},
		{Type: "resources_servers", Dir: "b", Class: "BServer", Path: "resources_servers/b/app.py", Line: 1, Workers: "app",
			Configs: []string{"resources_servers/b/configs/b.yaml:1", "resources_servers/a/configs/a.yaml:9"}},
	}
}

// graphInputs are the drawings the renderers check: the fixture's goldens,
// the hostile rows and the tangle.
func graphInputs(t *testing.T, format string) map[string]string {
	golden, err := os.ReadFile(filepath.Join("..", "testdata", "refusalrepo.servers."+format))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"refusalrepo": string(golden), "hostile": render(t, format, hostileRows(), "contract: note"),
		"tangle": render(t, format, tangleRows(), "")}
}

// TestDotRenders runs Graphviz on the DOT output when `dot` is installed.
func TestDotRenders(t *testing.T) {
	bin, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz's dot is not on PATH (Debian: apt-get install graphviz): the DOT output is not rendered")
	}
	for name, src := range graphInputs(t, "dot") {
		cmd := exec.Command(bin, "-Tsvg")
		cmd.Stdin = strings.NewReader(src)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil || errOut.Len() > 0 {
			t.Errorf("%s: dot -Tsvg: %v\n%s", name, err, errOut.String())
			continue
		}
		svg := out.String()
		want := map[string]string{"refusalrepo": "EnvPoolServer", "hostile": "Ünïcode_Server", "tangle": "AServer"}[name]
		// Every box and the legend is a node.
		if !strings.Contains(svg, want) || strings.Count(svg, `class="node"`) != strings.Count(src, "fillcolor=")+1 {
			t.Errorf("%s: the SVG lacks %q or a node:\n%s", name, want, svg)
		}
	}
}

// TestMermaidRenders runs mermaid-cli (mmdc, npm @mermaid-js/mermaid-cli)
// on the Mermaid output when it is installed and its browser starts.
func TestMermaidRenders(t *testing.T) {
	bin, err := exec.LookPath("mmdc")
	if err != nil {
		t.Skip("mermaid-cli's mmdc is not on PATH (npm i -g @mermaid-js/mermaid-cli): the Mermaid output is not rendered")
	}
	dir := t.TempDir()
	// mmdc drives a headless Chromium; as root it needs --no-sandbox. Use
	// the system's browser when puppeteer was installed without one.
	conf := map[string]any{"args": []string{"--no-sandbox"}}
	if p := os.Getenv("PUPPETEER_EXECUTABLE_PATH"); p != "" {
		conf["executablePath"] = p
	} else {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				conf["executablePath"] = p
				break
			}
		}
	}
	cb, _ := json.Marshal(conf)
	confPath := filepath.Join(dir, "puppeteer.json")
	if err := os.WriteFile(confPath, cb, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, src := range graphInputs(t, "mermaid") {
		in, out := filepath.Join(dir, name+".mmd"), filepath.Join(dir, name+".svg")
		if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := exec.Command(bin, "-q", "-p", confPath, "-i", in, "-o", out).CombinedOutput()
		if err != nil {
			msg := string(res)
			if strings.Contains(msg, "launch the browser") || strings.Contains(msg, "Could not find Chrom") || strings.Contains(msg, "Browser was not found") {
				t.Skipf("mmdc cannot start its browser, so the Mermaid output is not rendered: %s", firstLine(msg))
			}
			t.Errorf("%s: mmdc: %v\n%s", name, err, msg)
			continue
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		svg := string(b)
		want := map[string]string{"refusalrepo": "EnvPoolServer", "hostile": "Ünïcode_Server", "tangle": "AServer"}[name]
		if !strings.Contains(svg, want) || strings.Contains(svg, "Syntax error") {
			t.Errorf("%s: the SVG lacks %q or is an error drawing:\n%.2000s", name, want, svg)
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
