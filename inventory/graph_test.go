package inventory

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hostilePath is a file name a repository may choose: every character
// that ends a label or starts an escape in Mermaid or DOT, and a newline.
const hostilePath = "resources_servers/we\"ird\\n#35;<b>x</b>|[a]{b}`c`&amp;\nnext.py"

// hostileRows are inventory rows with hostile names, a class hierarchy
// (a diamond) and configs, one of them naming two servers.
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
	// flowchart, note, 3 servers + 3 parents + 1 config,
	// 5 extends edges + 2 config edges, classDefs: refuses_when, undeclared,
	// unknown, parent, config.
	if len(lines) != 2+7+7+5 {
		t.Errorf("mermaid has %d lines:\n%s", len(lines), m)
	}
	for _, l := range lines[2:] {
		if strings.HasPrefix(l, "  classDef ") {
			continue
		}
		// Outside the label delimiters no quote may appear.
		if n := strings.Count(l, `"`); n != 2 && n != 0 {
			t.Errorf("mermaid line with %d quotes: %q", n, l)
		}
	}
	for _, raw := range []string{"<b>", "`c`", "|[a]", "&amp;", "#35;<"} {
		if strings.Contains(m, raw) {
			t.Errorf("mermaid keeps %q unescaped:\n%s", raw, m)
		}
	}
	if !strings.Contains(m, "we#quot;ird\\n#35;35;#lt;b#gt;x#lt;/b#gt;#124;#91;a#93;#123;b#125;#96;c#96;#amp;amp; next.py") {
		t.Errorf("mermaid label of the hostile path:\n%s", m)
	}
	if !strings.Contains(m, `-->|"lines 4, 9"|`) || !strings.Contains(m, `-->|"line 20"|`) {
		t.Errorf("a config naming a server twice has one edge with both lines:\n%s", m)
	}
	if strings.Count(m, `-->|"extends"|`) != 5 {
		t.Errorf("want 5 extends edges (the diamond and the second server's):\n%s", m)
	}

	d := render(t, "dot", hostileRows(), note)
	if !strings.Contains(d, `we\"ird\\n#35;<b>x</b>|[a]{b}`+"`c`"+`&amp; next.py`) {
		t.Errorf("dot label of the hostile path:\n%s", d)
	}
	for _, l := range strings.Split(d, "\n") {
		if strings.Count(l, `"`)-strings.Count(l, `\"`) == 1 {
			t.Errorf("dot line with an unbalanced quote: %q", l)
		}
	}
	if strings.Count(d, "\n") != 4+1+7+7+1 {
		t.Errorf("dot has %d lines:\n%s", strings.Count(d, "\n"), d)
	}
}

func TestGraphColours(t *testing.T) {
	for workers, style := range map[string]string{
		"app": "app", "refuses always (+app)": "refuses_always", "refuses when": "refuses_when", "no app": "no_app",
		"undeclared": "undeclared", "exempt": "exempt", "syntax error": "unknown", "unreadable": "unknown", "no server class": "unknown",
	} {
		m := render(t, "mermaid", []Server{{Class: "S", Path: "a/b/app.py", Line: 1, Workers: workers}}, "")
		if !strings.Contains(m, ":::"+style+"\n") || !strings.Contains(m, "classDef "+style+" ") {
			t.Errorf("%s: want style %s:\n%s", workers, style, m)
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

// graphInputs are the drawings the renderers check: the fixture's goldens
// and the hostile rows.
func graphInputs(t *testing.T, format string) map[string]string {
	golden, err := os.ReadFile(filepath.Join("..", "testdata", "refusalrepo.servers."+format))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"refusalrepo": string(golden), "hostile": render(t, format, hostileRows(), "contract: note")}
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
		want := "EnvPoolServer"
		if name == "hostile" {
			want = "Ünïcode_Server"
		}
		if !strings.Contains(svg, want) || strings.Count(svg, `class="node"`) != strings.Count(src, "fillcolor=") {
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
		want := "EnvPoolServer"
		if name == "hostile" {
			want = "Ünïcode_Server"
		}
		if !strings.Contains(svg, want) || strings.Contains(svg, "Syntax error") {
			t.Errorf("%s: the SVG lacks %q or is an error drawing:\n%.2000s", name, want, svg)
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
