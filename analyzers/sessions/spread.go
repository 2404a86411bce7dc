package sessions

import "github.com/gymlint/gymlint/diag"

// LostSessionKeywordSpread is rule GL308.
var LostSessionKeywordSpread = &diag.Rule{
	Code: "GL308", Name: "lost-session-keyword-spread", Analyzer: Analyzer, Severity: diag.Error,
	Summary: "lost_session_verification(...) is spread as keyword arguments next to another mapping, which raises TypeError when that mapping carries a reward.",
	Doc: `## What it does
Reports a call that spreads the framework's ` + "`lost_session_verification(...)`" + ` with ` + "`**`" + ` next to another
` + "`**mapping`" + `, such as ` + "`BaseVerifyResponse(**body.model_dump(), **lost_session_verification(\"gone\"))`" + `,
anywhere in a module of a resources server: its entrypoint, the modules it imports from the
repository, and the modules of its server class's ancestors. The name is matched as the framework
exports it, through imports and aliases. A spread of a local variable that holds the result is not
followed.

It offers a fix when the spreads are next to each other (separated only by commas and white
space): they become one spread of the merged mappings, ` + "`**(x | lost_session_verification(...))`" + `, with the
lost-session fields last so that they win. An operand that is not a plain name, attribute, call or
subscript is put in parentheses.

## Why it matters
Python refuses a keyword given twice: when ` + "`x`" + ` already has a ` + "`reward`" + ` (a request model that allows extra
fields, a dump of an earlier response), or ` + "`mask_sample`" + `, ` + "`failure_kind`" + ` or ` + "`failure_reason`" + `, the call raises
` + "`TypeError: got multiple values for keyword argument 'reward'`" + `. The verify then fails with HTTP 500, and
the episode is dispatched again instead of being masked, only for the sessions whose request happens
to carry such a field.

## Example
` + "```python" + `
        if session_id not in self.sessions:
            return BaseVerifyResponse(**body.model_dump(), **lost_session_verification("session is gone"))
` + "```" + `

## How to fix
Merge the mappings, the lost-session fields last:
` + "```python" + `
            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("session is gone")))
` + "```",
}
