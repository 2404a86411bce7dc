package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/fixes"
	"github.com/gymlint/gymlint/internal/diskcache"
)

// staleFixRepo is a server whose entrypoint holds an unused suppression:
// a GL010 with a safe fix (the comment removed), at a byte offset of the
// file as analysed.
var staleFixRepo = map[string]string{
	"resources_servers/echo/app.py": `from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint


class EchoServer(SimpleResourcesServer):
    async def verify(self, body):  # gymlint: ignore[GL101] nothing to suppress here
        return body


if __name__ == "__main__":
    EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoServer.run_webserver()
`,
	"resources_servers/echo/configs/echo.yaml": "echo:\n  resources_servers:\n    echo:\n      entrypoint: app.py\n      domain: other\n",
	"resources_servers/echo/requirements.txt":  "fastapi\n",
}

const staleFixApp = "resources_servers/echo/app.py"

// TestFixOnlyWhatWasAnalysed: --fix applies a fix only to the content the
// scan analysed (Result.Analysed). A file edited between the scan and the
// fix (five lines prepended, as an editor or a formatter would) is left
// byte for byte as it is, and said to be; an unchanged one is fixed. The
// same holds when the findings come from the cache (a warm scan).
func TestFixOnlyWhatWasAnalysed(t *testing.T) {
	for _, warm := range []bool{false, true} {
		name := "cold"
		if warm {
			name = "warm"
		}
		t.Run(name, func(t *testing.T) {
			var cache *diskcache.Cache
			if warm {
				var err error
				if cache, err = diskcache.Open(t.TempDir(), diskcache.Options{}); err != nil {
					t.Fatal(err)
				}
			}
			for _, edited := range []bool{false, true} {
				root := writeTree(t, staleFixRepo)
				past(t, root)
				opts := Options{Root: root, NoGo: true, Cache: cache}
				if warm {
					scan(t, opts) // the record the next scan takes its findings from
				}
				res := scan(t, opts)
				if warm && res.Cache.Analysed != 0 {
					t.Fatalf("warm scan analysed %d groups, want its findings from the cache", res.Cache.Analysed)
				}
				if safe, _ := fixes.Fixable(res.Diagnostics); safe != 1 {
					t.Fatalf("%d fixable findings, want the GL010: %v", safe, keys(res.Diagnostics))
				}
				full := filepath.Join(root, filepath.FromSlash(staleFixApp))
				want := staleFixRepo[staleFixApp]
				if edited {
					want = "# 1\n# 2\n# 3\n# 4\n# 5\n" + want
					if err := os.WriteFile(full, []byte(want), 0o644); err != nil {
						t.Fatal(err)
					}
				} else {
					want = strings.Replace(want, "  # gymlint: ignore[GL101] nothing to suppress here", "", 1)
				}
				var stderr bytes.Buffer
				if err := fixes.NewPlanFrom(root, res.Diagnostics, fixes.Options{Analysed: res.Analysed}).Apply(&stderr); err != nil {
					t.Fatal(err)
				}
				if got, _ := os.ReadFile(full); string(got) != want {
					t.Errorf("edited %v: app.py is\n%s\nwant\n%s", edited, got, want)
				}
				said := strings.Contains(stderr.String(), staleFixApp+": it changed since gymlint analysed it: its 1 fix is not applied")
				if said != edited || !strings.Contains(stderr.String(), map[bool]string{false: "applied 1 fix to 1 file", true: "applied 0 fixes to 0 files; 1 file changed"}[edited]) {
					t.Errorf("edited %v: stderr:\n%s", edited, stderr.String())
				}
			}
		})
	}
}
