package output

import (
	"strings"
	"testing"

	"github.com/gymlint/gymlint/lint"
)

func TestPlainText(t *testing.T) {
	for _, tc := range []struct{ md, want string }{
		{"## What it does\nReports a server.", "What it does\nReports a server."},
		{"# Title #\n### Deep ###", "Title\nDeep"},
		{"#hashtag is not a heading", "#hashtag is not a heading"},
		{"Add `app = X.run_webserver()` to it.", "Add app = X.run_webserver() to it."},
		{"A ``code with ` inside`` span", "A code with ` inside span"},
		{"`` `ticks` ``", "`ticks`"},
		{"an unclosed ` backtick", "an unclosed ` backtick"},
		{"A **native server** and the __main__ guard", "A native server and the __main__ guard"},
		{"`**not bold**` stays", "**not bold** stays"},
		{"snake_case_name and a * b * c", "snake_case_name and a * b * c"},
		{"See [the README](https://example.com/r#x) now", "See the README (https://example.com/r#x) now"},
		{"[not a link] (x)", "[not a link] (x)"},
		{"<https://example.com> and a <b>", "https://example.com and a <b>"},
		{`a \*literal\* and \_x\_ and C:\path`, `a *literal* and _x_ and C:\path`},
		{"> quoted **text**", "quoted text"},
		{"- a `bullet`\n  - nested", "- a bullet\n  - nested"},
		{"Before:\n```python\nclass A(B):  # `kept`\n\n    x = **1**\n```\nAfter.", "Before:\n    class A(B):  # `kept`\n\n        x = **1**\nAfter."},
		{"~~~\n## not a heading\n~~~", "    ## not a heading"},
		{"````\n```\ninner\n````", "    ```\n    inner"},
		{"CRLF\r\n## too\r\n", "CRLF\ntoo\n"},
		{"Its **server\ntype** and `a\nb` span lines", "Its server\ntype and a\nb span lines"},
		{"one **open\n\nparagraph** each", "one **open\n\nparagraph** each"},
	} {
		if got := PlainText(tc.md); got != tc.want {
			t.Errorf("PlainText(%q)\n got %q\nwant %q", tc.md, got, tc.want)
		}
	}
}

// TestPlainTextRuleDocs runs the converter on every rule's doc: no
// heading marks, fences or code-span backticks survive outside code.
func TestPlainTextRuleDocs(t *testing.T) {
	for _, r := range lint.Rules() {
		got := PlainText(r.Doc)
		for _, line := range strings.Split(got, "\n") {
			if strings.HasPrefix(line, "    ") {
				continue // code, kept as written
			}
			if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "```") {
				t.Errorf("%s: Markdown left in the plain text: %q", r.Code, line)
			}
		}
		if r.Code == "GL150" && !strings.Contains(got, "Its server\ntype is that type") {
			t.Errorf("GL150: strong text over a line break is left marked:\n%s", got)
		}
		if strings.Contains(r.Doc, "## How to fix") && !strings.Contains(got, "\nHow to fix\n") {
			t.Errorf("%s: the heading text is lost:\n%s", r.Code, got)
		}
	}
}
