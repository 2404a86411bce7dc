package configscan

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// yamlNodes counts the nodes of yaml.v3's trees of data's documents, as
// Parse has yaml.v3 build them (an alias is one node), and whether data
// parsed.
func yamlNodes(data []byte) (int, bool) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	total := 0
	for {
		var doc yaml.Node
		if err := decode(dec, &doc); err != nil {
			return total, err.Error() == "EOF"
		}
		stack := []*yaml.Node{&doc}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			total++
			stack = append(stack, n.Content...)
		}
	}
}

// TestEstimateValuesBounds checks that EstimateValues is never below the
// nodes yaml.v3 builds, nor below the values of Parse's File, on every
// YAML file of the test data, on the shapes that bring the most nodes per
// sign, and on random strings of YAML's signs.
func TestEstimateValuesBounds(t *testing.T) {
	inputs := map[string][]byte{}
	for p, data := range yamlCorpus(t) {
		inputs[p] = data
	}
	shapes := []string{
		"[" + strings.Repeat(":,", 50) + "]", "{" + strings.Repeat("a,", 50) + "}",
		strings.Repeat("? a\n", 50), strings.Repeat("? \n", 50), strings.Repeat("- ", 50) + "a",
		strings.Repeat("a:\n", 50), strings.Repeat("-\n", 50), strings.Repeat("...\n", 50),
		strings.Repeat("a\n...\n", 50), strings.Repeat("--- a\n", 50), strings.Repeat("---\n", 50),
		strings.Repeat("[", 50) + strings.Repeat("]", 50), "[" + strings.Repeat("a: 1, ", 50) + "]",
		strings.Repeat("- ? a\n  : b\n", 50), "a: &x [1, 2]\nb: *x\nc: *x\n", strings.Repeat("[a: ], ", 50),
		"- &a {k: 1}\n" + strings.Repeat("- *a\n", 50), "{? a, ? b: c, : d}", "[? a : b, : c]",
	}
	for i, s := range shapes {
		inputs[fmt.Sprintf("shape %d", i)] = []byte(s)
	}
	rnd := rand.New(rand.NewSource(1))
	const alphabet = ":?-,[]{}*&!|>'\"#.a b\n\n  "
	for i := range 20000 {
		b := make([]byte, 1+rnd.Intn(24))
		for j := range b {
			b[j] = alphabet[rnd.Intn(len(alphabet))]
		}
		inputs[fmt.Sprintf("random %d %q", i, b)] = b
	}
	parsed := 0
	for name, data := range inputs {
		est := EstimateValues(data, Options{})
		if n, ok := yamlNodes(data); ok {
			parsed++
			if int64(n) > est {
				t.Errorf("%s: yaml.v3 builds %d nodes, the estimate is %d", name, n, est)
			}
		}
		if v := Parse("f.yaml", data, Options{}).Values(); int64(v) > est {
			t.Errorf("%s: Parse holds %d values, the estimate is %d", name, v, est)
		}
	}
	if parsed < 5000 {
		t.Errorf("only %d inputs parsed", parsed)
	}
}

// flowList is a config whose server holds a flow list of n numbers: a
// value every two bytes, the densest YAML there is.
func flowList(name string, n int) []byte {
	return []byte(name + ":\n  resources_servers:\n    " + name + ":\n      entrypoint: app.py\n      blob: [" +
		strings.Repeat("1,", n) + "1]\n")
}

// TestParseRefusesTooManyValues checks that a file that may hold more
// values than Options.MaxValues is not parsed (a 4 MB flow list took 0.76
// GB to parse and hold), and says so; a file under the bound parses.
func TestParseRefusesTooManyValues(t *testing.T) {
	big := flowList("big", 2000)
	f := Parse("big.yaml", big, Options{MaxValues: 5000})
	if len(f.Docs) != 0 || len(f.Servers) != 0 || f.Values() != 0 || len(f.Problems) != 1 || f.Problems[0].Kind != KindTooLarge {
		t.Fatalf("docs %d, servers %d, values %d, problems %+v", len(f.Docs), len(f.Servers), f.Values(), f.Problems)
	}
	if p := f.Problems[0]; p.Pos.Line != 1 || !strings.HasPrefix(p.Message, "big.yaml was not analysed: it may hold up to 6021 YAML values (by a count of its indicators - : , ? [ { *), more than the 5000 that gymlint parses in one file") {
		t.Errorf("problem %+v", p)
	}
	g := Parse("big.yaml", big, Options{MaxValues: 7000})
	if len(g.Servers) != 1 || len(g.Problems) != 0 || g.Values() < 2000 {
		t.Errorf("under the bound: servers %d, values %d, problems %+v", len(g.Servers), g.Values(), g.Problems)
	}
}

// TestBudgetBoundsValues checks that the Files parsed within a Budget
// hold no more values together than it allows: a file it has no room for
// is not parsed, and what a File gives back on Release makes room again.
func TestBudgetBoundsValues(t *testing.T) {
	b := NewBudget(10000)
	var held []*File
	var refused []string
	for i := range 4 {
		name := fmt.Sprintf("c%d", i)
		f := Parse(name+".yaml", flowList(name, 2500), Options{Budget: b})
		if len(f.Problems) == 1 && f.Problems[0].Kind == KindBudget {
			refused = append(refused, name)
			if len(f.Docs) != 0 || f.Values() != 0 || !strings.Contains(f.Problems[0].Message, "the scan's budget of 10000 YAML values ran out") {
				t.Errorf("%s: docs %d, values %d, %+v", name, len(f.Docs), f.Values(), f.Problems)
			}
			continue
		}
		held = append(held, f)
	}
	total := 0
	for _, f := range held {
		total += f.Values()
	}
	if len(held) == 0 || len(refused) == 0 || total > 10000 || int64(total) != b.Used() {
		t.Fatalf("held %d files of %d values (budget used %d), refused %v", len(held), total, b.Used(), refused)
	}
	Release(held[0])
	Release(held[0])
	if b.Used() != int64(total-held[0].Values()) {
		t.Errorf("after a release: used %d, want %d", b.Used(), total-held[0].Values())
	}
	if f := Parse("again.yaml", flowList("again", 2500), Options{Budget: b}); len(f.Servers) != 1 {
		t.Errorf("after a release: %+v", f.Problems)
	}
}
