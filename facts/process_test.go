package facts_test

import (
	"strings"
	"testing"
)

// TestProcessTies: imports of process-bound modules (module scope or in a
// function), file writes, process starts, receiver stores and global
// statements are ties; reading a file, a local's attribute store and a
// subscript store are not.
func TestProcessTies(t *testing.T) {
	f := build(t, map[string]string{"resources_servers/s/app.py": header + `
import os
import json
from pathlib import Path

COUNT = 0


class S(SimpleResourcesServer):
    def model_post_init(self, context):
        self.sessions = {}
        with open("table.json") as fh:
            self.table = json.load(fh)

    async def seed_session(self, request, body):
        self.sessions[body.resources_session_id] = {}
        box = Box()
        box.value = 1

    async def verify(self, request, body):
        import subprocess
        global COUNT
        self.calls += 1
        os.makedirs("out", exist_ok=True)
        with open("out/log.txt", "a") as fh:
            fh.write("x")
        Path("out/x").write_text("y")
        return {}
`})
	s := server(t, f)
	var got []string
	for _, tie := range f.ProcessTies(s) {
		in := ""
		if tie.Func != nil {
			in = " in " + tie.Func.Name()
		}
		got = append(got, tie.What+in)
	}
	want := []string{
		"import subprocess",
		"store self.sessions in S.model_post_init",
		"store self.table in S.model_post_init",
		"global COUNT in S.verify",
		"store self.calls in S.verify",
		"call os.makedirs in S.verify",
		"call builtins.open for writing in S.verify",
		"call .write_text in S.verify",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ProcessTies =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
