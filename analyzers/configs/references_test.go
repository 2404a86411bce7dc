package configs

import (
	"slices"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/contract"
)

// The server reference cases (testdata/src/server-references*) run
// through gymtest with the analyzer's other cases (TestCases).

// ServerRefs reads the references of a settings node: the shapes the
// cases cannot all show.
func TestServerRefs(t *testing.T) {
	dir, _ := settings(t, `a:
  responses_api_agents:
    simple_agent:
      entrypoint: app.py
      plain: {type: resources_servers, name: math}
      extra: {type: responses_api_models, name: policy_model, note: ignored}
      quoted: {type: "resources_servers", name: "math"}
      no_name: {type: resources_servers}
      no_type: {name: math}
      null_name: {type: resources_servers, name: null}
      number: {type: resources_servers, name: 7}
      listed: {type: [resources_servers], name: math}
      other_type: {type: tools, name: math}
      interpolated_type: {type: "${t}", name: math}
      spaced_missing: {type: resources_servers, name: " ??? "}
      nested: {inner: {type: resources_servers, name: math}}
      scalar: resources_servers
`)
	var got []string
	for _, r := range ServerRefs(dir, contract.DefaultRefTypes) {
		got = append(got, r.Field+"="+r.Type+"/"+r.Name+"@"+r.Value.Pos.String())
	}
	want := []string{"plain=resources_servers/math@5:46", "extra=responses_api_models/policy_model@6:49", "quoted=resources_servers/math@7:49"}
	if !slices.Equal(got, want) {
		t.Errorf("refs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if refs := ServerRefs(dir, []string{"responses_api_models"}); len(refs) != 1 || refs[0].Field != "extra" {
		t.Errorf("refs of one type: %+v", refs)
	}
}

// ratio and closeMatches give what Python's difflib gives (the values
// below are its own).
func TestCloseMatches(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want float64
	}{
		{"mathh", "math", 0.8888888888888888},
		{"airline_env", "airport_env", 0.6363636363636364},
		{"policy_modle", "policy_model", 0.9166666666666666},
		{"abc", "", 0},
		{"", "", 1},
		// b has 200 elements or more: its popular elements start no match.
		{strings.Repeat("ab", 110), strings.Repeat("a", 150) + strings.Repeat("b", 100), 0.00425531914893617},
	} {
		if got := ratio([]rune(tc.a), []rune(tc.b)); got != tc.want {
			t.Errorf("ratio(%.20q, %.20q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	if got := closeMatches("mathh", []string{"math", "maths", "grader", "mat", "math_v2"}, 3, 0.6); !slices.Equal(got, []string{"math", "maths", "mat"}) {
		t.Errorf("close matches %v", got)
	}
	// Equal scores: the greater string first, as difflib's heap gives them.
	if got := closeMatches("ab", []string{"aa", "ba", "bb"}, 3, 0.5); !slices.Equal(got, []string{"bb", "ba", "aa"}) {
		t.Errorf("ties %v", got)
	}
}
