package cli

import (
	"fmt"
	"strings"
	"testing"
)

// TestServersMermaidTooLarge checks that a Mermaid drawing longer than
// Mermaid renders by default is still printed, with a word on stderr and
// exit 0, and that a small one gets no word.
func TestServersMermaidTooLarge(t *testing.T) {
	files := map[string]string{}
	for i := range 250 {
		dir := fmt.Sprintf("resources_servers/a_rather_long_server_directory_name_%03d", i)
		files[dir+"/app.py"] = cleanServer
		files[dir+"/configs/server.yaml"] = fmt.Sprintf("s%d:\n  resources_servers:\n    a_rather_long_server_directory_name_%03d:\n      entrypoint: app.py\n", i, i)
	}
	root := writeTree(t, files)
	out, errOut, code := run(t, "servers", "--format", "mermaid", root)
	if code != ExitClean || !strings.HasPrefix(out, "flowchart LR\n") || len(out) <= 50000 {
		t.Fatalf("exit %d, %d bytes of output: %s", code, len(out), errOut)
	}
	if !strings.Contains(errOut, fmt.Sprintf("the Mermaid drawing is %d characters, more than the 50000", len(out))) {
		t.Errorf("stderr %q, want the size warning", errOut)
	}
	if _, errOut, _ := run(t, "servers", "--format", "dot", root); strings.Contains(errOut, "Mermaid") {
		t.Errorf("dot has no size limit: %q", errOut)
	}
	small := writeTree(t, map[string]string{"resources_servers/echo/app.py": cleanServer})
	if out, errOut, code := run(t, "servers", "--format", "mermaid", small); code != ExitClean || errOut != "" || !strings.Contains(out, "EchoServer") {
		t.Errorf("small: exit %d, stderr %q, out %q", code, errOut, out)
	}
}
