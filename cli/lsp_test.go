package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// TestLSPCommand checks the command's interface: its exit statuses (0 after
// shutdown and exit, 1 for exit without shutdown, as the protocol says; 2
// for a usage error), that --stdio is accepted, and that the replies go to
// stdout and the log to stderr.
func TestLSPCommand(t *testing.T) {
	root := writeTree(t, map[string]string{"resources_servers/plain/app.py": plainServer})
	init := frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://` + root + `","capabilities":{}}}`)
	for _, tc := range []struct {
		name  string
		args  []string
		input string
		code  int
		out   string
	}{
		{"shutdown and exit", []string{"--stdio", "--no-go"}, init + frame(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`) + frame(`{"jsonrpc":"2.0","method":"exit"}`), 0, `"id":2,"result":null`},
		{"exit without shutdown", []string{"--no-go"}, init + frame(`{"jsonrpc":"2.0","method":"exit"}`), 1, `"serverInfo":{"name":"gymlint"`},
		{"stream closed", []string{"--no-go"}, init, 1, `"positionEncoding":"utf-16"`},
		{"an argument", []string{"somewhere"}, "", 2, ""},
		{"an unknown flag", []string{"--tcp"}, "", 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			old := stdin
			stdin = strings.NewReader(tc.input)
			defer func() { stdin = old }()
			code := Main(append([]string{"lsp"}, tc.args...), &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.out) {
				t.Errorf("stdout lacks %s:\n%s", tc.out, stdout.String())
			}
			if tc.code != 2 && !strings.Contains(stderr.String(), "gymlint lsp: workspace") {
				t.Errorf("stderr lacks the log:\n%s", stderr.String())
			}
		})
	}
}
