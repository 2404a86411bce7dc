package facts

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Words are the fallbacks that decide from an identifier's words: where
// name resolution cannot tell what a name stands for (a lock kept in an
// attribute whose constructor gymlint does not see, a session id in a
// request field, a helper that releases a sandbox), a rule looks at the
// words of the name, as ruff's logging rules fall back to a receiver named
// `logger`. Every such table is here, once, with what it stands in for and
// which rules use it; each rule asks for it only after resolution fails.
// A repository extends a kind with the `words:` table of .gymlint.yaml
// (settings.Settings.Words, gym.Options.Words): its words are added to the
// defaults, never replace them.
//
// How a word matches depends on the kind (WordKind.Match):
//   - MatchSubstring: the word is in the lower-cased identifier;
//   - MatchWord: the word is one of the identifier's lower-cased words,
//     split at underscores; a configured word with an underscore in it
//     (clean_up) matches as a substring;
//   - MatchNounKey: the identifier is the word followed by id, key or
//     handle (env_id, envId, sandbox_handle);
//   - MatchExact: the identifier is the word, case and all;
//   - MatchFold: the identifier is the word, in any case;
//   - MatchKeyWord: the word is one of a key's words, split at anything
//     but letters and digits and where a lower-case letter meets an
//     upper-case one (rayActors, num_ray_workers, RAY_ADDRESS; not array).
type Words struct {
	sets map[string]map[string]bool
	// substrings are the words matched as substrings, by kind: every word
	// of a MatchSubstring kind, and the words with an underscore of a
	// MatchWord kind.
	substrings map[string][]string
}

// Match is how the words of a kind match an identifier.
type Match int

// The ways a word matches (see Words).
const (
	MatchSubstring Match = iota
	MatchWord
	MatchNounKey
	MatchExact
	MatchFold
	MatchKeyWord
)

// WordKind is one table of words.
type WordKind struct {
	// Name is the key under `words:` in .gymlint.yaml.
	Name string
	// Match is how a word matches.
	Match Match
	// Defaults are the words gymlint knows without configuration.
	Defaults []string
	// StandsFor says what a match stands in for; UsedBy, which rules and
	// facts ask.
	StandsFor, UsedBy string
	// Configurable says the `words:` table may extend the kind. The Go
	// kinds are not (yet): the Go analyzers run under go vet too, where no
	// view carries the configuration.
	Configurable bool
}

// The kinds, by name.
const (
	WordLock        = "lock"
	WordSessionNoun = "session-noun"
	WordSessionEdge = "session-edge"
	WordRelease     = "release"
	WordAdHocClose  = "ad-hoc-close"
	WordLogger      = "logger"
	WordNotBody     = "not-body"
	WordGoDecode    = "go-decode"
	WordGoInput     = "go-input-check"
	WordGoSession   = "go-session"
	WordGoSessionID = "go-session-id"
	WordRaySetting  = "ray-setting"
	WordCredential  = "credential"
)

// WordKinds are every table of words, in the order `gymlint config` and
// the README list them.
var WordKinds = []WordKind{
	{Name: WordLock, Match: MatchSubstring, Defaults: []string{"lock"}, Configurable: true,
		StandsFor: "an attribute or local that holds a lock, when its constructor is not seen (self._session_lock)",
		UsedBy:    "facts.Facts.Locks: GL310 unserialized-seed-close"},
	{Name: WordSessionNoun, Match: MatchNounKey, Configurable: true,
		Defaults: []string{"session", "environment", "env", "episode", "rollout", "sandbox", "instance", "game",
			"conversation", "trajectory", "traj", "run", "container", "thread", "chat", "state", "world"},
		StandsFor: "a request-body field that carries a session id (env_id, sandbox_handle); id, sid and eid always do",
		UsedBy:    "facts.Facts.SessionLike: GL105 unrouted-session-state and the session rules' per-session state"},
	{Name: WordSessionEdge, Match: MatchWord, Configurable: true,
		Defaults:  []string{"seed", "reset", "init", "close", "end", "discard", "release", "cleanup", "teardown", "shutdown"},
		StandsFor: "a method that starts or ends a session, not a tool route (reset_game, end_episode)",
		UsedBy:    "GL307 verify-ignores-lost-session, GL309 lost-session-as-observation"},
	{Name: WordRelease, Match: MatchWord, Configurable: true,
		Defaults: []string{"close", "aclose", "stop", "kill", "terminate", "shutdown", "release", "delete", "destroy",
			"cleanup", "teardown", "dispose", "clean_up", "tear_down"},
		StandsFor: "a call that releases a resource, by its callee's last name (sandbox.kill(), client.aclose())",
		UsedBy:    "what a close releases: GL302, GL303, GL304, GL317, GL320"},
	{Name: WordAdHocClose, Match: MatchExact, Configurable: true,
		Defaults:  []string{"close_session", "close", "end_session", "cleanup_session", "delete_session", "release_session", "cleanup", "teardown"},
		StandsFor: "a method that closes a session by hand, which the Environment Server never calls",
		UsedBy:    "GL302 seed-without-close (its message names the method)"},
	{Name: WordLogger, Match: MatchExact, Configurable: true,
		Defaults:  []string{"logger", "log", "LOG", "LOGGER", "_logger", "_log", "logging"},
		StandsFor: "the receiver of a logging call (logger.info(...)) that sets nothing up",
		UsedBy:    "GL102 late-worker-refusal (calls harmless before the refusal)"},
	{Name: WordNotBody, Match: MatchExact, Configurable: true,
		Defaults:  []string{"self", "cls", "request", "req", "response"},
		StandsFor: "a parameter that is not the request body, whatever its annotation",
		UsedBy:    "facts.KeyOf: where a key comes from (GL105 and the hazard and session rules)"},
	{Name: WordRaySetting, Match: MatchKeyWord, Defaults: []string{"ray"}, Configurable: true,
		StandsFor: "a config key (or a bare scalar value) that sets Ray up for a server (ray_address, numRayWorkers)",
		UsedBy:    "GL205 unneeded-ray-enabled (a Ray setting in the configs makes the declaration needed)"},
	{Name: WordCredential, Match: MatchWord, Configurable: true,
		Defaults:  []string{"key", "keys", "apikey", "apikeys", "token", "tokens", "secret", "secrets", "credential", "credentials"},
		StandsFor: "a config field or server attribute that holds API credentials to rotate through (api_keys, tokens)",
		UsedBy:    "facts.Facts.Rotations: GL117 per-worker-key-rotation"},
	{Name: WordGoDecode, Match: MatchSubstring,
		Defaults:  []string{"decode", "unmarshal", "bind", "readjson", "parsejson", "readbody", "parsebody"},
		StandsFor: "a Go call that decodes the request body, by its callee's name",
		UsedBy:    "gostate (Go): the request bodies its state scan traces (GL150, the Go session rules) and GL350 go-seed-server-error"},
	{Name: WordGoInput, Match: MatchSubstring,
		Defaults:  []string{"decode", "unmarshal", "parse", "valid"},
		StandsFor: "a Go call that decodes, parses or validates input, by its callee's name",
		UsedBy:    "gostate (Go): GL350 go-seed-server-error"},
	{Name: WordGoSession, Match: MatchSubstring,
		Defaults:  []string{"session"},
		StandsFor: "a Go request field (or its JSON tag) that carries the session id",
		UsedBy:    "gostate (Go): the session keys of GL150 and the Go session rules"},
	{Name: WordGoSessionID, Match: MatchFold,
		Defaults:  []string{"sid"},
		StandsFor: "a Go identifier that is itself the session id",
		UsedBy:    "gostate (Go): the session keys of GL150 and the Go session rules"},
}

// KindOf returns the kind with this name, or nil.
func KindOf(name string) *WordKind {
	for i := range WordKinds {
		if WordKinds[i].Name == name {
			return &WordKinds[i]
		}
	}
	return nil
}

// ConfigurableKinds are the names of the kinds `words:` may extend.
func ConfigurableKinds() []string {
	var out []string
	for _, k := range WordKinds {
		if k.Configurable {
			out = append(out, k.Name)
		}
	}
	return out
}

// DefaultWords are the words without configuration.
var DefaultWords = mustWords(nil)

func mustWords(extra map[string][]string) *Words {
	w, err := NewWords(extra)
	if err != nil {
		panic(err)
	}
	return w
}

// NewWords returns the default words with extra added, by kind name. A
// kind that does not exist or is not configurable, or an empty word, is
// an error.
func NewWords(extra map[string][]string) (*Words, error) {
	w := &Words{sets: map[string]map[string]bool{}, substrings: map[string][]string{}}
	for _, k := range WordKinds {
		w.add(k, k.Defaults)
	}
	names := make([]string, 0, len(extra))
	for n := range extra {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		k := KindOf(n)
		if k == nil || !k.Configurable {
			return nil, fmt.Errorf("words: unknown kind %q (one of %s)", n, strings.Join(ConfigurableKinds(), ", "))
		}
		for _, word := range extra[n] {
			if strings.TrimSpace(word) == "" || strings.ContainsAny(word, " \t\n") {
				return nil, fmt.Errorf("words: %s: %q is not one identifier word", n, word)
			}
		}
		w.add(*k, extra[n])
	}
	return w, nil
}

func (w *Words) add(k WordKind, words []string) {
	set := w.sets[k.Name]
	if set == nil {
		set = map[string]bool{}
		w.sets[k.Name] = set
	}
	for _, word := range words {
		key := word
		if k.Match != MatchExact { // every other kind matches without case
			key = strings.ToLower(word)
		}
		if set[key] {
			continue
		}
		set[key] = true
		if k.Match == MatchSubstring || (k.Match == MatchWord && strings.Contains(key, "_")) {
			w.substrings[k.Name] = append(w.substrings[k.Name], key)
		}
	}
}

// Has reports whether identifier name matches a word of the kind.
func (w *Words) Has(kind, name string) bool {
	k := KindOf(kind)
	if k == nil {
		return false
	}
	set := w.sets[kind]
	switch k.Match {
	case MatchExact:
		return set[name]
	case MatchFold:
		return set[strings.ToLower(name)]
	case MatchKeyWord:
		return keyWords(name, set)
	case MatchSubstring:
		return w.containsOne(kind, strings.ToLower(name))
	case MatchWord:
		l := strings.ToLower(name)
		for _, part := range strings.Split(l, "_") {
			if set[part] {
				return true
			}
		}
		return w.containsOne(kind, l)
	case MatchNounKey:
		l := strings.ToLower(name)
		for noun := range set {
			rest, ok := strings.CutPrefix(l, noun)
			if !ok {
				continue
			}
			switch strings.TrimPrefix(rest, "_") {
			case "id", "key", "handle":
				return true
			}
		}
	}
	return false
}

// IsWord reports whether s, without the space around it, is a word of the
// kind, in any case: a scalar value that is the word itself.
func (w *Words) IsWord(kind, s string) bool {
	return w.sets[kind][strings.ToLower(strings.TrimSpace(s))]
}

// keyWords reports whether one of key's words (MatchKeyWord) is in set.
func keyWords(key string, set map[string]bool) bool {
	var word []rune
	flush := func() bool {
		w := strings.ToLower(string(word))
		word = word[:0]
		return set[w]
	}
	for _, r := range key {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			if flush() {
				return true
			}
		case unicode.IsUpper(r) && len(word) > 0 && unicode.IsLower(word[len(word)-1]):
			if flush() {
				return true
			}
			word = append(word, r)
		default:
			word = append(word, r)
		}
	}
	return flush()
}

func (w *Words) containsOne(kind, lower string) bool {
	return slices.ContainsFunc(w.substrings[kind], func(s string) bool { return strings.Contains(lower, s) })
}

// List returns the words of a kind, sorted.
func (w *Words) List(kind string) []string {
	out := make([]string, 0, len(w.sets[kind]))
	for word := range w.sets[kind] {
		out = append(out, word)
	}
	sort.Strings(out)
	return out
}

// Words are the identifier words of this view: the defaults with the
// configuration's `words:` added (gym.Options.Words, checked when the
// configuration was loaded).
func (f *Facts) Words() *Words {
	f.wordsOnce.Do(func() {
		f.words = DefaultWords
		if len(f.v.Options.Words) > 0 {
			if w, err := NewWords(f.v.Options.Words); err == nil {
				f.words = w
			}
		}
	})
	return f.words
}
