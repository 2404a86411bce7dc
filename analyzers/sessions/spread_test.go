//go:build ignore

package sessions

import (
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
)

// applyFix applies the edits of a diagnostic's first fix to src.
func applyFix(t *testing.T, src string, d diag.Diagnostic) string {
	t.Helper()
	if len(d.Fixes) != 1 {
		t.Fatalf("want one fix, got %d", len(d.Fixes))
	}
	out := src
	edits := d.Fixes[0].Edits
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		if e.Path != d.Path {
			t.Fatalf("edit of %s in a finding of %s", e.Path, d.Path)
		}
		// Line and column must agree with the offsets.
		for _, p := range []diag.Pos{e.Start, e.End} {
			lineStart := strings.LastIndexByte(src[:p.Offset], '\n') + 1
			if line := strings.Count(src[:p.Offset], "\n") + 1; line != p.Line || p.Offset-lineStart+1 != p.Col {
				t.Errorf("position %+v does not match its offset (line %d, col %d)", p, line, p.Offset-lineStart+1)
			}
		}
		out = out[:e.Start.Offset] + e.NewText + out[e.End.Offset:]
	}
	return out
}

func TestLostSessionKeywordSpread(t *testing.T) {
	verify := func(ret string) map[string]string {
		return app("", seedWrites+`    async def verify(self, request: Request, body):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.sessions:
`+ret+`
        return BaseVerifyResponse(**body.model_dump(), reward=1.0)
`)
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []marked
		fixed []string // the source after each finding's fix, as a fragment; "" for no fix
	}{
		{
			name:  "spread next to the request's fields",
			files: verify(`            return BaseVerifyResponse(**body.model_dump(), **lost_session_verification("gone"))  # <- a`),
			want: []marked{{marker: "# <- a", col: "**body", contains: []string{
				`BaseVerifyResponse(...) spreads **lost_session_verification("gone") next to **body.model_dump() as keyword arguments`,
				"raises TypeError", "`BaseVerifyResponse(**(body.model_dump() | lost_session_verification(\"gone\")))`",
			}}},
			fixed: []string{`            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("gone")))  # <- a`},
		},
		{
			name: "over several lines, lost-session fields first, an alias",
			files: verify(`            return BaseVerifyResponse(
                **lsv("gone", failure_kind="expired"),
                **body.model_dump(),
            )`),
			want: []marked{{marker: `failure_kind="expired"`, col: "**lsv"}},
			fixed: []string{`            return BaseVerifyResponse(
                **(body.model_dump() | lsv("gone", failure_kind="expired")),
            )`},
		},
		{
			name:  "three mappings, one that needs parentheses",
			files: verify(`            return R(**base, **extra if body.x else {}, **brs.lost_session_verification("gone"))  # <- a`),
			want:  []marked{{marker: "# <- a", col: "**base"}},
			fixed: []string{`            return R(**(base | (extra if body.x else {}) | brs.lost_session_verification("gone")))  # <- a`},
		},
		{
			name: "a comment between the spreads: reported without a fix",
			files: verify(`            return R(
                **body.model_dump(),  # <- a
                # the lost-session fields win
                **lost_session_verification("gone"),
            )`),
			want:  []marked{{marker: "# <- a", col: "**body"}},
			fixed: []string{""},
		},
		{
			name: "anywhere in the module: a module-level helper",
			files: map[string]string{appPath: header + lostImports + `

def lost(body):
    return BaseVerifyResponse(**body.model_dump(), **lost_session_verification("gone"))  # <- a


class S(SimpleResourcesServer):
    async def verify(self, request: Request, body):
        return lost(body)
` + mainS},
			want:  []marked{{marker: "# <- a", col: "**body"}},
			fixed: []string{`    return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("gone")))  # <- a`},
		},
		{
			name:  "corrected: merged with |",
			files: verify(`            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("gone")))`),
		},
		{
			name: "a lone spread, and a spread of something else",
			files: verify(`            x = R(**lost_session_verification("gone"))
            return R(**body.model_dump(), **other("gone"))`),
		},
		{
			name: "a function of the repository that has the framework's name",
			files: map[string]string{appPath: header + `

def lost_session_verification(reason):
    return {"reward": 0.0}


class S(SimpleResourcesServer):
    async def verify(self, request: Request, body):
        return R(**body.model_dump(), **lost_session_verification("gone"))
` + mainS},
		},
		{
			name: "a module that no resources server uses",
			files: map[string]string{
				"responses_api_agents/a/app.py": lostImports + `

def lost(body):
    return BaseVerifyResponse(**body.model_dump(), **lost_session_verification("gone"))
`,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := tc.files
			if src, ok := files[appPath]; ok && strings.Contains(src, "lsv(") {
				files = map[string]string{appPath: strings.Replace(src, lostImports,
					lostImports+"from nemo_gym.base_resources_server import lost_session_verification as lsv\n", 1)}
			}
			if src, ok := files[appPath]; ok && strings.Contains(src, "brs.") {
				files = map[string]string{appPath: strings.Replace(src, lostImports,
					lostImports+"from nemo_gym import base_resources_server as brs\n", 1)}
			}
			ds := runRule(t, runLostSessionKeywordSpread, files)
			checkMarked(t, files, ds, tc.want)
			for i, d := range ds {
				if d.Code != "GL308" {
					t.Errorf("code %s", d.Code)
				}
				if i >= len(tc.fixed) {
					continue
				}
				if tc.fixed[i] == "" {
					if len(d.Fixes) != 0 {
						t.Errorf("finding %d: want no fix, got %+v", i, d.Fixes)
					}
					continue
				}
				got := applyFix(t, files[d.Path], d)
				if !strings.Contains(got, tc.fixed[i]) {
					t.Errorf("finding %d: after the fix the source lacks\n%s\ngot:\n%s", i, tc.fixed[i], got)
				}
			}
		})
	}
}

func TestSplatOperand(t *testing.T) {
	for in, want := range map[string]string{
		"**x":                  "x",
		"** body.model_dump()": "body.model_dump()",
		"**d[k]":               "d[k]",
		"**{'a': 1}":           "{'a': 1}",
		"**(a or b)":           "(a or b)",
		"**a if c else b":      "(a if c else b)",
		"**await f()":          "(await f())",
		"**not_a_keyword":      "not_a_keyword",
		"**a | b":              "(a | b)",
	} {
		if got := splatOperand(in); got != want {
			t.Errorf("splatOperand(%q) = %q, want %q", in, got, want)
		}
	}
}
