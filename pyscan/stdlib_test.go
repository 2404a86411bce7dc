package pyscan

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var (
	stdlibFlag = flag.Bool("stdlib", false,
		"run TestStdlibAgreement: compare pyscan's syntax errors with CPython's on the library of every Python interpreter found (slow)")
	stdlibPythons = flag.String("stdlib.pythons", "",
		"comma-separated Python interpreters for TestStdlibAgreement (default: python3 on PATH, ~/.pyenv/versions/*/bin/python3, /usr/bin/python3.*, /usr/local/bin/python3.*)")
	stdlibReport = flag.String("stdlib.report", "",
		"write every disagreement TestStdlibAgreement finds to this file, one a line")
	stdlibLineEnds = flag.Bool("stdlib.lineends", false,
		"TestStdlibAgreement also parses every file both accept with its line ends made CRLF and lone CR, which CPython reads alike, and checks that pyscan gives the same model, positions included")
)

// TestStdlibAgreement compares pyscan's acceptance with CPython's on a
// large corpus: the library of every Python 3 interpreter on the machine
// (its standard library, tests included, and its site directories). Each
// file is judged by its own interpreter (testdata/stdlib_verdicts.py runs
// ast.parse and compile on it) and by pyscan (a SyntaxError, which the
// view reports as GL001, or none); the test counts the files where the
// two disagree, in both directions, by category:
//
//   - "pyscan rejects valid": CPython compiles the file, pyscan reports a
//     syntax error. A wrong answer on valid input (GL001, and every rule
//     skipped for the module): each one fails the test, whether the
//     walker or tree-sitter-python's grammar is to blame (a grammar that
//     does not know the newest syntax says so here).
//   - "pyscan accepts invalid": CPython rejects the file, pyscan reports
//     nothing. Listed by the stage of CPython that rejects it (its parser,
//     or its compiler's later stages, which no parser is asked to see) and
//     its message: tree-sitter-python is more lenient than CPython (Python
//     2 code, see TestGrammarLeniency), and pyscan does not check encoding
//     declarations. Precision comes first, so these do not fail the test.
//   - "line ends" (with -stdlib.lineends): a file both accept, made CRLF
//     or lone CR (CPython reads the three alike), gets a syntax error or
//     another model (kinds, lines and columns, names, values) from pyscan.
//     Each one fails the test.
//
// Opt in with -stdlib (the corpus is some 30,000 files and takes minutes):
//
//	go test ./pyscan -run TestStdlibAgreement -stdlib -v [-stdlib.report=FILE]
func TestStdlibAgreement(t *testing.T) {
	if !*stdlibFlag {
		t.Skip("opt-in: run with -stdlib to compare pyscan with every Python interpreter's library")
	}
	pythons := findPythons()
	if len(pythons) == 0 {
		t.Skip("no Python 3 interpreter found")
	}
	script, err := filepath.Abs(filepath.Join("testdata", "stdlib_verdicts.py"))
	if err != nil {
		t.Fatal(err)
	}
	// One run per distinct library: the interpreters a shim and its
	// target name twice are asked once.
	type corpus struct {
		python, version, roots string
	}
	var corpora []corpus
	seen := map[string]bool{}
	for _, py := range pythons {
		out, err := exec.Command(py, "-c", "import sys, sysconfig; print('%d.%d.%d' % sys.version_info[:3]); print(sysconfig.get_paths()['stdlib'])").Output()
		if err != nil {
			t.Logf("%s: not usable (%v)", py, err)
			continue
		}
		f := strings.Fields(string(out))
		if len(f) != 2 || !strings.HasPrefix(f[0], "3.") {
			continue
		}
		root, err := filepath.EvalSymlinks(f[1])
		if err != nil || seen[root] {
			continue
		}
		seen[root] = true
		corpora = append(corpora, corpus{python: py, version: f[0], roots: root})
	}
	if len(corpora) == 0 {
		t.Skip("no usable Python 3 interpreter found")
	}

	type result struct {
		c        corpus
		verdicts []stdlibVerdict
		err      error
	}
	results := make([]result, len(corpora))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, c := range corpora {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			var stderr bytes.Buffer
			cmd := exec.Command(c.python, script)
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				results[i] = result{c: c, err: fmt.Errorf("%v: %s", err, stderr.Bytes())}
				return
			}
			vs, roots, err := parseVerdicts(out)
			c.roots = roots
			results[i] = result{c: c, verdicts: vs, err: err}
		}()
	}
	wg.Wait()

	var total stdlibTally
	var report bytes.Buffer
	for _, r := range results {
		if r.err != nil {
			t.Errorf("%s: %v", r.c.python, r.err)
			continue
		}
		tally := compareStdlib(r.verdicts)
		t.Logf("Python %s (%s): %s", r.c.version, r.c.roots, tally.summary())
		for _, d := range tally.disagree {
			fmt.Fprintf(&report, "%s\t%s\n", r.c.version, d)
		}
		total.add(tally)
	}
	t.Logf("all: %s", total.summary())
	for _, k := range countKeys(total.cats) {
		t.Logf("  %6d  %s", total.cats[k], k)
	}
	if *stdlibReport != "" {
		if err := os.WriteFile(*stdlibReport, report.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if total.files < 1000 {
		t.Errorf("only %d files compared", total.files)
	}
	for _, k := range countKeys(total.cats) {
		switch {
		case strings.HasPrefix(k, "pyscan rejects valid: "):
			t.Errorf("%d files CPython compiles get a syntax error from pyscan: %s (see -stdlib.report)", total.cats[k], k)
		case strings.HasPrefix(k, "line ends: "):
			t.Errorf("%d files CPython reads alike with other line ends get another model from pyscan: %s (see -stdlib.report)", total.cats[k], k)
		}
	}
}

// findPythons returns the interpreters -stdlib.pythons names, or the ones
// found in the usual places.
func findPythons() []string {
	if *stdlibPythons != "" {
		return strings.Split(*stdlibPythons, ",")
	}
	var out []string
	if p, err := exec.LookPath("python3"); err == nil {
		out = append(out, p)
	}
	home, _ := os.UserHomeDir()
	for _, pat := range []string{
		filepath.Join(home, ".pyenv", "versions", "*", "bin", "python3"),
		"/usr/bin/python3.*", "/usr/local/bin/python3.*",
	} {
		ms, _ := filepath.Glob(pat)
		for _, m := range ms {
			// python3.11-config and the like are not interpreters.
			if base := filepath.Base(m); strings.Count(base, "-") == 0 {
				out = append(out, m)
			}
		}
	}
	return out
}

// stdlibVerdict is one line of stdlib_verdicts.py's output.
type stdlibVerdict struct {
	verdict, path string
	line, col     int
	msg           string
}

func parseVerdicts(out []byte) ([]stdlibVerdict, string, error) {
	var vs []stdlibVerdict
	roots := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), "\t", 5)
		if f[0] == "#python" && len(f) == 3 {
			roots = f[2]
			continue
		}
		if len(f) != 5 {
			return nil, "", fmt.Errorf("bad line %q", sc.Text())
		}
		line, _ := strconv.Atoi(f[2])
		col, _ := strconv.Atoi(f[3])
		vs = append(vs, stdlibVerdict{verdict: f[0], path: f[1], line: line, col: col, msg: f[4]})
	}
	return vs, roots, sc.Err()
}

// stdlibTally counts one corpus's comparison.
type stdlibTally struct {
	files, agree  int
	bothAccept    int
	bothReject    int
	pyscanRejects int // CPython compiles it, pyscan reports a syntax error
	pyscanAccepts int // CPython rejects it, pyscan reports none
	cats          map[string]int
	disagree      []string
}

func (t *stdlibTally) add(o stdlibTally) {
	t.files += o.files
	t.agree += o.agree
	t.bothAccept += o.bothAccept
	t.bothReject += o.bothReject
	t.pyscanRejects += o.pyscanRejects
	t.pyscanAccepts += o.pyscanAccepts
	if t.cats == nil {
		t.cats = map[string]int{}
	}
	for k, v := range o.cats {
		t.cats[k] += v
	}
}

func (t *stdlibTally) summary() string {
	return fmt.Sprintf("%d files: %d agree (%d both accept, %d both reject), %d disagree (%d valid files pyscan rejects, %d invalid files pyscan accepts)",
		t.files, t.agree, t.bothAccept, t.bothReject, t.files-t.agree, t.pyscanRejects, t.pyscanAccepts)
}

func compareStdlib(vs []stdlibVerdict) stdlibTally {
	tally := stdlibTally{cats: map[string]int{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	work := make(chan stdlibVerdict)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := NewParser(Options{})
			defer p.Close()
			for v := range work {
				src, err := os.ReadFile(v.path)
				if err != nil {
					continue
				}
				m := p.Parse("m.py", src)
				cat, detail := classifyStdlib(v, m, src)
				if cat == "" && *stdlibLineEnds && m.SyntaxError == nil && v.verdict == "ok" {
					cat, detail = lineEndsDiffer(p, m, src)
				}
				mu.Lock()
				tally.files++
				valid := v.verdict == "ok"
				switch {
				case valid && m.SyntaxError == nil:
					tally.agree++
					tally.bothAccept++
				case !valid && m.SyntaxError != nil:
					tally.agree++
					tally.bothReject++
				case valid:
					tally.pyscanRejects++
				default:
					tally.pyscanAccepts++
				}
				if cat != "" {
					tally.cats[cat]++
					tally.disagree = append(tally.disagree, v.path+"\t"+cat+"\t"+detail)
				}
				mu.Unlock()
			}
		}()
	}
	for _, v := range vs {
		work <- v
	}
	close(work)
	wg.Wait()
	sort.Strings(tally.disagree)
	return tally
}

var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'`)

var digits = regexp.MustCompile(`\d+`)

// classifyStdlib names the category of a disagreement ("" when pyscan and
// CPython agree) and describes it.
func classifyStdlib(v stdlibVerdict, m *Module, src []byte) (string, string) {
	switch valid := v.verdict == "ok"; {
	case valid && m.SyntaxError != nil:
		se := m.SyntaxError
		pos := m.Pos(se.Span.Start)
		detail := fmt.Sprintf("%d:%d %s | %s", pos.Line, pos.Col, se.Message, lineAt(src, m, se.Span.Start))
		return "pyscan rejects valid: " + quoted.ReplaceAllString(se.Message, "…"), detail
	case !valid && m.SyntaxError == nil:
		msg := quoted.ReplaceAllString(v.msg, "…")
		msg = digits.ReplaceAllString(msg, "N")
		stage := map[string]string{"parse": "CPython's parser", "compile": "CPython's compiler"}[v.verdict]
		if stage == "" {
			stage = "CPython fails"
		}
		return "pyscan accepts invalid: " + stage + ": " + msg, fmt.Sprintf("%d:%d %s", v.line, v.col, v.msg)
	}
	return "", ""
}

func lineAt(src []byte, m *Module, off int32) string {
	s := m.LineStart(off)
	e := m.LineEndsAfter(off)
	l := strings.TrimRight(string(src[s:e]), "\r\n")
	if len(l) > 120 {
		l = l[:120] + "..."
	}
	return l
}

func countKeys(m map[string]int) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// lineEndsDiffer parses src again with its line ends made "\r\n", then a
// lone "\r" (when it has no "\r" of its own), and names the category of
// the first difference from m's model ("" for none): CPython reads the
// three alike, strings' values included.
func lineEndsDiffer(p *Parser, m *Module, src []byte) (string, string) {
	if bytes.IndexByte(src, '\r') >= 0 {
		return "", ""
	}
	want := modelShape(m)
	for _, nl := range []string{"\r\n", "\r"} {
		alt := bytes.ReplaceAll(src, []byte("\n"), []byte(nl))
		am := p.Parse("m.py", alt)
		name := map[string]string{"\r\n": "CRLF", "\r": "lone CR"}[nl]
		if se := am.SyntaxError; se != nil {
			return "line ends: pyscan rejects it with " + name + ": " + quoted.ReplaceAllString(se.Message, "…"),
				fmt.Sprintf("%s %s", lc(am, se.Span.Start), se.Message)
		}
		if d := diffLines(modelShape(am), want); d != "" {
			return "line ends: the model differs with " + name, strings.ReplaceAll(d, "\n", " | ")
		}
	}
	return "", ""
}

// modelShape lists every node of the model with its kind, its span as
// lines and columns, and the text-free values that identify it.
func modelShape(m *Module) []string {
	var out []string
	InspectBody(m.Body, func(n Node, _ []Node) bool {
		sp := n.Range()
		line := fmt.Sprintf("%T %s-%s", n, lc(m, sp.Start), lc(m, sp.End))
		switch n := n.(type) {
		case *Name:
			line += " " + n.Id
		case *Attribute:
			line += " ." + n.Attr
		case *Constant:
			line += " " + strconv.Quote(n.Value)
		case *FString:
			for _, p := range n.Parts {
				line += " " + strconv.Quote(p.Lit)
			}
		}
		out = append(out, line)
		return true
	})
	for _, c := range m.Comments {
		out = append(out, "comment "+lc(m, c.Start)+"-"+lc(m, c.End))
	}
	return out
}
