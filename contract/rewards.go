package contract

import "github.com/gymlint/gymlint/pyscan"

// The facts of the verify response's contract: the multi-reward base and
// the failure vocabulary.
const (
	// MultiRewardResponse: the framework exports BaseMultiRewardVerifyResponse.
	MultiRewardResponse Fact = "multi-reward-response"
	// FailureVocabulary: the framework's BaseVerifyResponse validates
	// failure_kind against a registered vocabulary
	// (_warn_on_unregistered_failure_kind).
	FailureVocabulary Fact = "failure-kind-vocabulary"
)

func init() {
	exported[MultiRewardResponseClass] = MultiRewardResponse
	classPrefixes = append(classPrefixes, MultiRewardResponseClass)
	defNames = append(defNames, FailureValidator)
	Facts = append(Facts,
		Info{MultiRewardResponse, "the framework exports BaseMultiRewardVerifyResponse", "the multi-reward verify response", "no class BaseMultiRewardVerifyResponse"},
		Info{FailureVocabulary, "the framework's BaseVerifyResponse warns on a failure_kind outside its registered vocabulary", "the failure-kind vocabulary", "BaseVerifyResponse has no " + FailureValidator},
	)
}

// readResponseFacts reads the facts of the verify response from a
// framework module.
func readResponseFacts(m *pyscan.Module, set func(Fact, *pyscan.Module, pyscan.Span)) {
	for _, c := range m.Classes {
		if c.Name != VerifyResponseClass {
			continue
		}
		if fn := c.Method(FailureValidator); fn != nil {
			set(FailureVocabulary, m, fn.NameSpan)
		}
	}
}
