package core

import (
	"embed"

	"github.com/gymlint/gymlint/diag"
)

// ruleDocs holds the documentation of this package's rules, one Markdown
// file a rule (docs/CODE.md: What it does, Why it matters, Example, How to
// fix), which docs/rules.md at the repository's root is generated from.
//
//go:embed docs/*.md
var ruleDocs embed.FS

// ruleDoc is the documentation of the rule with this code, read from
// docs/CODE.md when the package is initialised.
func ruleDoc(code string) string { return diag.ReadDoc(ruleDocs, code) }
