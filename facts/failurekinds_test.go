package facts_test

import (
	"strings"
	"testing"

	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
)

const vocabModule = "nemo_gym/failures.py"

func vocabOf(t *testing.T, src string) *facts.Vocabulary {
	t.Helper()
	f := build(t, map[string]string{vocabModule: src})
	m, err := f.View().Module(vocabModule)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range m.Classes {
		if c.Name == "BaseVerifyResponse" {
			return facts.FailureKinds(f.View(), gym.ClassRef{Module: m, Class: c})
		}
	}
	t.Fatal("no BaseVerifyResponse")
	return nil
}

const validator = `

class BaseVerifyResponse:
    @classmethod
    def _warn_on_unregistered_failure_kind(cls, value):
        if value is not None and value not in FAILURE_KINDS:
            warn(value)
        return value
`

// TestFailureKinds: the vocabulary is the collection the validator tests
// membership of, its items literals or string constants; an open
// collection (added to, bound twice) or an item that is not a string
// gives none.
func TestFailureKinds(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"frozenset of constants", "SESSION_LOST = \"session_lost\"\nSESSION_EXPIRED = \"session_expired\"\nFAILURE_KINDS = frozenset({SESSION_LOST, SESSION_EXPIRED, \"timeout\"})\n" + validator, "session_lost session_expired timeout"},
		{"tuple", "FAILURE_KINDS = (\"a\", \"b\")\n" + validator, "a b"},
		{"dict keys", "FAILURE_KINDS = {\"a\": \"lost\", \"b\": \"gone\"}\n" + validator, "a b"},
		{"added to", "FAILURE_KINDS = {\"a\"}\n\n\ndef register_failure_kind(k):\n    FAILURE_KINDS.add(k)\n" + validator, "<nil>"},
		{"bound twice", "FAILURE_KINDS = {\"a\"}\nFAILURE_KINDS = FAILURE_KINDS | {\"b\"}\n" + validator, "<nil>"},
		{"computed item", "import os\nFAILURE_KINDS = {\"a\", os.environ[\"K\"]}\n" + validator, "<nil>"},
		{"computed collection", "FAILURE_KINDS = load_kinds()\n" + validator, "<nil>"},
		{"no validator", "FAILURE_KINDS = {\"a\"}\n\n\nclass BaseVerifyResponse:\n    pass\n", "<nil>"},
	} {
		got := "<nil>"
		if voc := vocabOf(t, tc.src); voc != nil {
			got = strings.Join(voc.Kinds, " ")
			if voc.Name != "FAILURE_KINDS" || !voc.Has(voc.Kinds[0]) || voc.Has("zzz") {
				t.Errorf("%s: vocabulary %+v", tc.name, voc)
			}
		}
		if got != tc.want {
			t.Errorf("%s: kinds %s, want %s", tc.name, got, tc.want)
		}
	}
}
