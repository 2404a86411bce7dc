package configs

import (
	"strings"
	"testing"

	"github.com/gymlint/gymlint/configscan"
)

// settings parses a one-instance config and returns its dir mapping and
// the server type's mapping.
func settings(t *testing.T, src string) (dir, typ *configscan.Node) {
	t.Helper()
	f := configscan.Parse("c.yaml", []byte(src), configscan.Options{})
	if len(f.Problems) > 0 {
		t.Fatalf("problems: %+v", f.Problems)
	}
	ins := append(f.Servers, f.Overrides...)
	if len(ins) == 0 {
		t.Fatal("no instance")
	}
	in := ins[0]
	return in.Settings, f.Docs[in.Doc].Get(in.Name).Get(in.Type)
}

func messages(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.Pos.String() + " " + f.Message + "\n")
	}
	return b.String()
}

// The checks take a settings node, so they run on any node: one file's
// today, resolved settings later.
func TestChecksOnNodes(t *testing.T) {
	dir, typ := settings(t, `m:
  responses_api_models:
    vllm_model:
      entrypoint: app.py
      port: "8080"
      num_workers: x
      base_url: [http://a/v1, b:1]
    other:
      entrypoint: app.py
`)
	numeric := func(k string) (string, bool) { return "test", k == "port" || k == "num_workers" }
	if got := messages(CheckNumericSettings(dir, "m", numeric)); got != "6:20 num_workers is the string \"x\", not a number, so the config validation of m fails at startup\n" {
		t.Errorf("numeric: %q", got)
	}
	if got := messages(CheckBaseURLs(dir, "m")); !strings.HasPrefix(got, "7:31 base_url[1] of m is the URL \"b:1\"") || strings.Count(got, "\n") != 1 {
		t.Errorf("base_url: %q", got)
	}
	if f, bad := CheckServerDirKeys(typ, "m.responses_api_models"); !bad || f.Pos.Line != 8 || len(f.Related) != 1 || f.Related[0].Pos.Line != 3 {
		t.Errorf("dir keys: %+v %v", f, bad)
	}
	if HasDomain(dir) {
		t.Error("a domain where there is none")
	}
	if _, bad := CheckInstallMarkers("d", "m", []string{"requirements.txt"}); bad {
		t.Error("one marker is not installable")
	}
}

func TestNumericString(t *testing.T) {
	for s, want := range map[string]bool{
		"30": true, " 30 ": true, "+4": true, "-1.5": true, "1e3": true, "1_000": true, "0x1f": true, "0o17": true,
		"inf": true, "NaN": true, "1:30": true, "1:30:00": true,
		"": false, " ": false, "5m": false, "auto": false, "1:": false, "thirty": false, "1.2.3": false,
	} {
		if got := numericString(s); got != want {
			t.Errorf("numericString(%q) = %v, want %v", s, got, want)
		}
	}
}
