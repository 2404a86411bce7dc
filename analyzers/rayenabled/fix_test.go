//go:build ignore

package rayenabled

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// applyEdits applies edits (of one file) to src, checking that each
// edit's line and column agree with its offset. Identical edits (the same
// import added by the fixes of two findings) are applied once, as
// gymlint --fix does.
func applyEdits(t *testing.T, src string, edits []diag.TextEdit) string {
	t.Helper()
	es := append([]diag.TextEdit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Start.Offset > es[j].Start.Offset })
	for i, e := range es {
		for _, p := range []diag.Pos{e.Start, e.End} {
			if p.Offset < 0 || p.Offset > len(src) {
				t.Fatalf("edit position %+v outside the file (%d bytes)", p, len(src))
			}
			line := strings.Count(src[:p.Offset], "\n") + 1
			col := p.Offset - (strings.LastIndexByte(src[:p.Offset], '\n') + 1) + 1
			if p.Line != line || p.Col != col {
				t.Errorf("edit position %+v: offset %d is %d:%d", p, p.Offset, line, col)
			}
		}
		if i > 0 && e == es[i-1] {
			continue
		}
		if i > 0 && e.End.Offset > es[i-1].Start.Offset {
			t.Fatalf("edits overlap: %+v, %+v", e, es[i-1])
		}
	}
	out := src
	for i, e := range es {
		if i > 0 && e == es[i-1] {
			continue
		}
		out = out[:e.Start.Offset] + e.NewText + out[e.End.Offset:]
	}
	return out
}

func TestUnannotatedRayEnabledFix(t *testing.T) {
	const ray = "import ray\n"
	const base = "from nemo_gym.base_resources_server import SimpleResourcesServer\n"
	const tail = "\n\nif __name__ == \"__main__\":\n    Srv.run_webserver()\n"
	for _, tc := range []struct {
		name string
		src  string
		want string // the module after the fixes; "" when there must be none
		msg  string // the fix's message
	}{
		{
			name: "ClassVar imported",
			src:  srs + ray + "\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled = True\n" + tail,
			want: srs + ray + "\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled: ClassVar[bool] = True\n" + tail,
			msg:  "Annotate ray_enabled as ClassVar[bool]",
		},
		{
			name: "ClassVar not imported: imported after the last import",
			src:  ray + base + "\nX = 1\n\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled=True\n    x: int = 1\n" + tail,
			want: ray + base + "from typing import ClassVar\n\nX = 1\n\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled: ClassVar[bool] = True\n    x: int = 1\n" + tail,
		},
		{
			name: "import typing",
			src:  "import typing\n" + ray + base + "\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled = True\n" + tail,
			want: "import typing\n" + ray + base + "\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled: typing.ClassVar[bool] = True\n" + tail,
			msg:  "Annotate ray_enabled as typing.ClassVar[bool]",
		},
		{
			name: "import typing as t, ClassVar bound to something else",
			src:  "import typing as t\n" + ray + base + "\nClassVar = object\n\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled = True\n" + tail,
			want: "import typing as t\n" + ray + base + "\nClassVar = object\n\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled: t.ClassVar[bool] = True\n" + tail,
		},
		{
			name: "ClassVar bound to something else, typing not imported: no fix",
			src:  ray + base + "\nClassVar = object\n\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled = True\n" + tail,
		},
		{
			name: "ClassVar imported only when type checking: imported again",
			src:  "from typing import TYPE_CHECKING\n" + ray + base + "\nif TYPE_CHECKING:\n    from typing import ClassVar\n\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled = True\n" + tail,
			want: "from typing import TYPE_CHECKING\n" + ray + base + "from typing import ClassVar\n\nif TYPE_CHECKING:\n    from typing import ClassVar\n\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled: ClassVar[bool] = True\n" + tail,
		},
		{
			name: "imports only in a try: after the docstring and the __future__ import",
			src: "\"\"\"Srv.\"\"\"\nfrom __future__ import annotations\n\ntry:\n    " + ray + "    " + base + "except ImportError:\n    raise\n\n\n" +
				"@decorate\nclass Srv(SimpleResourcesServer):\n    ray_enabled = True\n" + tail,
			want: "\"\"\"Srv.\"\"\"\nfrom __future__ import annotations\nfrom typing import ClassVar\n\ntry:\n    " + ray + "    " + base + "except ImportError:\n    raise\n\n\n" +
				"@decorate\nclass Srv(SimpleResourcesServer):\n    ray_enabled: ClassVar[bool] = True\n" + tail,
		},
		{
			name: "CRLF line endings, tab indentation",
			src:  strings.ReplaceAll(ray+base+"\n\nclass Srv(SimpleResourcesServer):\n\tray_enabled = True  # needed\n"+tail, "\n", "\r\n"),
			want: strings.ReplaceAll(ray+base+"from typing import ClassVar\n\n\nclass Srv(SimpleResourcesServer):\n\tray_enabled: ClassVar[bool] = True  # needed\n"+tail, "\n", "\r\n"),
		},
		{
			name: "two servers: one import for both",
			src:  ray + base + "\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled = True\n\n\nclass Two(SimpleResourcesServer):\n    ray_enabled = (\n        True\n    )\n",
			want: ray + base + "from typing import ClassVar\n\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled: ClassVar[bool] = True\n\n\n" +
				"class Two(SimpleResourcesServer):\n    ray_enabled: ClassVar[bool] = (\n        True\n    )\n",
		},
		{
			name: "chained assignment: no fix",
			src:  srs + ray + "\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled = other = True\n" + tail,
		},
		{
			name: "line continuation: no fix",
			src:  srs + ray + "\n\nclass Srv(SimpleResourcesServer):\n    ray_enabled = \\\n        True\n" + tail,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{app: tc.src}
			var edits []diag.TextEdit
			n := 0
			for _, d := range scan(t, files) {
				if d.Code != UnannotatedRayEnabled.Code {
					continue
				}
				n++
				if len(d.Fixes) > 1 {
					t.Fatalf("%d fixes", len(d.Fixes))
				}
				for _, f := range d.Fixes {
					if !f.IsSafe() || f.Applicability != diag.Safe {
						t.Errorf("fix %q: applicability %q, want safe", f.Message, f.Applicability)
					}
					if tc.msg != "" && f.Message != tc.msg {
						t.Errorf("fix message %q, want %q", f.Message, tc.msg)
					}
					for _, e := range f.Edits {
						if e.Path != app {
							t.Errorf("edit of %s", e.Path)
						}
					}
					edits = append(edits, f.Edits...)
				}
			}
			if n == 0 {
				t.Fatal("no GL204")
			}
			if tc.want == "" {
				if len(edits) > 0 {
					t.Fatalf("got a fix: %+v", edits)
				}
				return
			}
			got := applyEdits(t, tc.src, edits)
			if got != tc.want {
				t.Fatalf("after the fix:\n%s\nwant:\n%s", got, tc.want)
			}
			p := pyscan.NewParser(pyscan.Options{})
			defer p.Close()
			if m := p.Parse(app, []byte(got)); m.SyntaxError != nil {
				t.Fatalf("does not parse after the fix: %s", m.SyntaxError.Message)
			}
			for _, d := range scan(t, map[string]string{app: got}) {
				if d.Code == UnannotatedRayEnabled.Code {
					t.Errorf("GL204 still reported: %s", d.Message)
				}
			}
		})
	}
}

// The fix of the fixture repository's GL204 applies, parses, and removes
// the finding, and nothing else changes for the server.
func TestUnannotatedRayEnabledFixOnRayrepo(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "rayrepo")
	gl204 := func(overlay map[string][]byte) []diag.Diagnostic {
		v, err := gym.Build(root, gym.Options{Overlay: overlay})
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		return runCode(UnannotatedRayEnabled.Code)(v)
	}
	ds := gl204(nil)
	if len(ds) == 0 {
		t.Fatal("no GL204 in the fixture repository")
	}
	for _, d := range ds {
		if len(d.Fixes) != 1 {
			t.Fatalf("%s:%d: %d fixes, want 1", d.Path, d.Start.Line, len(d.Fixes))
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(d.Path)))
		if err != nil {
			t.Fatal(err)
		}
		got := applyEdits(t, string(b), d.Fixes[0].Edits)
		if !strings.Contains(got, "\nfrom typing import ClassVar\n") || !strings.Contains(got, "    ray_enabled: ClassVar[bool] = True\n") {
			t.Errorf("%s after the fix:\n%s", d.Path, got)
		}
		p := pyscan.NewParser(pyscan.Options{})
		if m := p.Parse(d.Path, []byte(got)); m.SyntaxError != nil {
			t.Errorf("%s does not parse after the fix: %s", d.Path, m.SyntaxError.Message)
		}
		p.Close()
		for _, d2 := range gl204(map[string][]byte{d.Path: []byte(got)}) {
			if d2.Path == d.Path {
				t.Errorf("GL204 still reported: %s", d2.Message)
			}
		}
	}
}
