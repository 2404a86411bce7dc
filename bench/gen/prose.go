package gen

import "strings"

// Prose for comments, docstrings and prompt templates. Real Gym code is
// about 12% comments and 21% string literals by bytes; without prose the
// generated code would have far more tokens per byte than real code and
// cost more to parse per byte.

var proseStarts = []string{
	"Keep", "Return", "Normalize", "Skip", "Look up", "Cache", "Compare", "Retry", "Parse",
	"Record", "Reject", "Collect", "Merge", "Group", "Count", "Resolve", "Strip", "Validate",
	"Clamp", "Sort", "Deduplicate", "Truncate", "Forward", "Log",
}

var proseObjects = []string{
	"the %s", "every %s", "each %s in the batch", "the %s from the request body",
	"the %s that the model returned", "the last %s of the episode", "any stale %s",
	"the %s and its metadata", "the raw %s",
}

var proseTails = []string{
	"so that retries stay idempotent", "before scoring", "when the judge is unavailable",
	"because the upstream API may return null", "to keep the reward in [0, 1]",
	"for the metrics endpoint", "if the session has expired", "per session",
	"in the order the tools were called", "before it reaches the policy model",
	"so that the verifier sees the same input as the agent", "as the reference implementation does",
	"to avoid a second round trip", "unless strict mode is on", "",
}

func sentence(r *rng) string {
	s := pick(r, proseStarts) + " " + strings.Replace(pick(r, proseObjects), "%s", pick(r, nouns), 1)
	if t := pick(r, proseTails); t != "" {
		s += " " + t
	}
	return s + "."
}

// comment writes a one- or two-line comment.
func comment(w *pyw, r *rng) {
	w.line("# " + sentence(r))
	if r.permille(300) {
		w.line("# " + sentence(r))
	}
}

// docstring writes a one-line or a Google-style multi-line docstring.
func docstring(w *pyw, r *rng, params []string) {
	if r.permille(550) {
		w.line(`"""` + sentence(r) + `"""`)
		return
	}
	w.line(`"""` + sentence(r))
	w.blank()
	w.line(sentence(r) + " " + sentence(r))
	if len(params) > 0 {
		w.blank()
		w.line("Args:")
		for _, p := range params {
			w.line("    " + p + ": " + sentence(r))
		}
	}
	w.blank()
	w.line("Returns:")
	w.line("    " + sentence(r))
	w.line(`"""`)
}

// promptConstant writes a module-level prompt template.
func promptConstant(w *pyw, r *rng, name string) {
	w.line(name + ` = """You are an assistant for ` + pick(r, nouns) + " and " + pick(r, nouns) + " tasks.")
	for i, n := 0, r.between(4, 30); i < n; i++ {
		w.raw(sentence(r) + " " + sentence(r) + "\n")
	}
	w.raw("Answer with the final " + pick(r, nouns) + " only.\n")
	w.raw(`"""` + "\n")
}
