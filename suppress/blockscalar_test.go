package suppress

import (
	"regexp"
	"testing"
)

// startsBlockScalar says what the regexp it replaced says, on the shapes
// of YAML lines and on the edges of each part.
func TestStartsBlockScalar(t *testing.T) {
	re := regexp.MustCompile(`(^|\s)[|>][-+0-9]*$`)
	for _, code := range []string{
		"", "|", ">", "|-", ">+", "|2", ">-2", "|+10", "key: |", "key: >-", "key:|", "key: |x",
		"- |", "-|", "a |b", "prompt: >\t", "a\t|", "a\v>", "a\f|-", "x: '|'", "x: |-+-9", "||", "x ||", "> ",
		"x: [a, b]", "plain text", "|a|", "x: >9x", "é |", "é|",
	} {
		if got, want := startsBlockScalar(code), re.MatchString(code); got != want {
			t.Errorf("startsBlockScalar(%q) = %v, the regexp says %v", code, got, want)
		}
	}
}
