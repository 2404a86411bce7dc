package facts_test

import (
	"strings"
	"testing"

	"github.com/gymlint/gymlint/facts"
)

// The default words match as the rules have always matched them: whole
// underscore words for release and session-edge (clean_up and tear_down as
// substrings), a noun before id/key/handle for session-noun, the name
// itself for the exact kinds.
func TestDefaultWords(t *testing.T) {
	w := facts.DefaultWords
	cases := []struct {
		kind string
		in   map[string]bool
	}{
		{facts.WordRelease, map[string]bool{
			"close": true, "aclose": true, "kill_sandbox": true, "_teardown": true, "clean_up_env": true,
			"tear_down": true, "closet": false, "stopwatch": false, "remove": false, "dispose_of": true, "KILL": true,
		}},
		{facts.WordSessionEdge, map[string]bool{
			"end_session": true, "reset": true, "_init_env": true, "send": false, "seed": true, "seeding": false,
		}},
		{facts.WordLock, map[string]bool{"_session_lock": true, "Locks": true, "clock": true, "mutex": false}},
		{facts.WordSessionNoun, map[string]bool{
			"env_id": true, "envId": true, "sandbox_handle": true, "session_key": true, "task_id": false,
			"env_ids": false, "id": false, "environment": false,
		}},
		{facts.WordLogger, map[string]bool{"logger": true, "LOG": true, "Log": false, "log_": false}},
		{facts.WordAdHocClose, map[string]bool{"close_session": true, "teardown": true, "Close": false}},
		{facts.WordNotBody, map[string]bool{"self": true, "request": true, "body": false}},
		{facts.WordGoDecode, map[string]bool{"json.NewDecoder": true, "ShouldBindJSON": true, "Encode": false}},
		{facts.WordGoInput, map[string]bool{"validateSeed": true, "ParseInt": true, "run": false}},
		{facts.WordGoSession, map[string]bool{"SessionID": true, "resources_session_id": true, "EnvID": false}},
		{facts.WordGoSessionID, map[string]bool{"sid": true, "SID": true, "side": false, "sids": false}},
		{facts.WordRaySetting, map[string]bool{
			"ray": true, "RAY_ADDRESS": true, "ray_address": true, "num_ray_workers": true, "rayActors": true,
			"VLLM_RAY_DP_PACK_STRATEGY": true, "harbor-ray-cpus": true, "useRay": true, "use.ray": true,
			"array": false, "xray": false, "gray_level": false, "rays": false, "Arrays": false, "": false, "stray_ray2": false,
		}},
	}
	for _, c := range cases {
		for name, want := range c.in {
			if got := w.Has(c.kind, name); got != want {
				t.Errorf("%s: Has(%q) = %v, want %v", c.kind, name, got, want)
			}
		}
	}
}

// The configuration adds words to a kind, in that kind's way of matching,
// and keeps the defaults; a kind it may not extend, or a word that is not
// one identifier word, is an error that names the kinds.
func TestConfiguredWords(t *testing.T) {
	w, err := facts.NewWords(map[string][]string{
		facts.WordRelease:     {"Evict", "power_off"},
		facts.WordSessionNoun: {"Match"},
		facts.WordLogger:      {"log2"},
		facts.WordLock:        {"mutex"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind, name string
		want       bool
	}{
		{facts.WordRelease, "evict_env", true},    // a word, lower-cased
		{facts.WordRelease, "evicted", false},     // not a whole word
		{facts.WordRelease, "do_power_off", true}, // an underscore word is a substring
		{facts.WordRelease, "kill", true},         // the defaults stand
		{facts.WordSessionNoun, "match_id", true},
		{facts.WordSessionNoun, "matchId", true},
		{facts.WordSessionNoun, "match", false},
		{facts.WordLogger, "log2", true},
		{facts.WordLogger, "LOG2", false},
		{facts.WordLock, "_state_mutex", true},
	} {
		if got := w.Has(c.kind, c.name); got != c.want {
			t.Errorf("%s: Has(%q) = %v, want %v", c.kind, c.name, got, c.want)
		}
		if facts.DefaultWords.Has(c.kind, c.name) && !c.want {
			t.Errorf("%s: the default words match %q", c.kind, c.name)
		}
	}
	for in, want := range map[string]bool{"ray": true, " Ray ": true, "ray_cluster": false, "": false} {
		if got := facts.DefaultWords.IsWord(facts.WordRaySetting, in); got != want {
			t.Errorf("IsWord(ray-setting, %q) = %v, want %v", in, got, want)
		}
	}
	if facts.DefaultWords.Has(facts.WordRelease, "evict_env") {
		t.Error("NewWords changed the defaults")
	}
	for _, bad := range []map[string][]string{
		{"locks": {"x"}},
		{facts.WordGoDecode: {"slurp"}},
		{facts.WordRelease: {""}},
		{facts.WordRelease: {"two words"}},
	} {
		_, err := facts.NewWords(bad)
		if err == nil {
			t.Errorf("NewWords(%v): no error", bad)
		} else if !strings.Contains(err.Error(), "words:") {
			t.Errorf("NewWords(%v): %v", bad, err)
		}
	}
}

// Every kind is documented: what it stands for, who uses it, and words.
func TestWordKindsDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range facts.WordKinds {
		if seen[k.Name] || k.StandsFor == "" || k.UsedBy == "" || len(k.Defaults) == 0 {
			t.Errorf("%s: duplicate or undocumented kind", k.Name)
		}
		seen[k.Name] = true
	}
}
