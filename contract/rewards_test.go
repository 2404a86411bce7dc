package contract

import (
	"slices"
	"testing"
)

// The verify response's facts: the multi-reward base is a class of that
// name; the vocabulary is the validator of BaseVerifyResponse, not a
// method of that name on another class or a name in a comment.
func TestResponseFacts(t *testing.T) {
	fw := detect(t, map[string]string{
		"nemo_gym/__init__.py": "",
		"nemo_gym/responses.py": "FAILURE_KINDS = frozenset({\"session_lost\"})\n\n\n" +
			"class BaseVerifyResponse:\n    @classmethod\n    def _warn_on_unregistered_failure_kind(cls, value):\n        return value\n\n\n" +
			"class BaseMultiRewardVerifyResponse(BaseVerifyResponse):\n    reward_components: dict\n",
	}, Options{})
	want := []string{FailureVocabulary, MultiRewardResponse}
	if got := facts(fw); !slices.Equal(got, want) {
		t.Errorf("facts = %v, want %v", got, want)
	}
	fw = detect(t, map[string]string{
		"nemo_gym/__init__.py": "",
		"nemo_gym/responses.py": "# BaseMultiRewardVerifyResponse is planned\n\n\n" +
			"class Other:\n    def _warn_on_unregistered_failure_kind(cls, value):\n        return value\n\n\n" +
			"class BaseVerifyResponse:\n    pass\n",
	}, Options{})
	if got := facts(fw); len(got) != 0 {
		t.Errorf("look-alikes give facts %v", got)
	}
	for _, f := range []Fact{MultiRewardResponse, FailureVocabulary} {
		if InfoOf(f) == nil {
			t.Errorf("no Info for %s", f)
		}
	}
}
