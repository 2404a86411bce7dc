package gym

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// wordText is Python-like text of about n bytes: imports, classes and
// functions with names of their own, comments and strings, some of it
// outside ASCII.
func wordText(n int) (string, []string) {
	var b strings.Builder
	var words []string
	for i := 0; b.Len() < n; i++ {
		mod, cls, fn := fmt.Sprintf("helpers_%d", i), fmt.Sprintf("Grader%dServer", i), fmt.Sprintf("score_%d", i)
		words = append(words, mod, cls, fn, "import", "from", "self", "return", "résumé")
		fmt.Fprintf(&b, "from pkg.%s import (\n    %s,\n)\n\n\nclass %s(Base):\n", mod, fn, cls)
		fmt.Fprintf(&b, "    # résumé of the grade\n    def %s(self, x: int) -> float:\n        return %s(x) * 0.5  # \"quoted\"\n\n", fn, fn)
	}
	return b.String(), words
}

// Every word of a text tests present, whatever text the set held before.
func TestWordSetHoldsEveryWord(t *testing.T) {
	var ws wordSet
	for _, n := range []int{0, 10, 3000, 200 << 10, 500} {
		text, words := wordText(n)
		ws.of([]byte(text))
		for _, w := range words {
			if !ws.has(w) {
				t.Fatalf("text of %d bytes: %q is not found", len(text), w)
			}
		}
		// The parts of words and runs that are not words.
		for _, w := range []string{"", "pkg", "Base", "x", "int", "float", "0", "5", "quoted"} {
			if w != "" && !ws.has(w) && n > 0 {
				t.Fatalf("text of %d bytes: %q is not found", len(text), w)
			}
		}
		if ws.has("") {
			t.Fatal("the empty word is found")
		}
	}
}

// A word that is not in the text is found rarely, whether or not the set
// held it for the text before: the filter is cleared and sized to the
// text.
func TestWordSetFalsePositivesAreRare(t *testing.T) {
	var ws wordSet
	big, bigWords := wordText(300 << 10)
	ws.of([]byte(big))
	small, _ := wordText(2000)
	ws.of([]byte(small))
	in := map[string]bool{}
	for _, w := range strings.FieldsFunc(small, func(r rune) bool { return r < 0x80 && !wordBytes[byte(r)] }) {
		in[w] = true
	}
	fp, asked := 0, 0
	for _, w := range bigWords {
		if !in[w] {
			asked++
			if ws.has(w) {
				fp++
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		w := fmt.Sprintf("w%x", r.Uint64())
		asked++
		if ws.has(w) {
			fp++
		}
	}
	// One in 400 expected; a set left uncleared finds every word of the
	// big text.
	if fp*100 > asked {
		t.Fatalf("%d of %d absent words found", fp, asked)
	}
}

func BenchmarkWordSet(b *testing.B) {
	text, _ := wordText(30 << 10)
	data := []byte(text)
	var ws wordSet
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		ws.of(data)
	}
}
