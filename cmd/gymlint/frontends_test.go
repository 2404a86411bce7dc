package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gymlint/gymlint/lsp/protocol"
)

// TestFrontendsAgree runs the three front ends, `gymlint`, `gymlint lsp`
// and `go vet -vettool=gymlint`, on one repository (testdata/frontendsrepo)
// under a configuration that disables two rules, overrides two severities
// and ignores a rule in a folder, with inline suppressions in Python and
// Go (one of them of a disabled rule, one unused): they must report the
// same findings, with the same severities where they show one.
func TestFrontendsAgree(t *testing.T) {
	bin := buildGymlint(t, "")
	dir := copyTree(t, filepath.Join("..", "..", "testdata", "frontendsrepo"))

	// The command line.
	out, errOut, code := run(t, dir, bin, "--format", "json", "--quiet", ".")
	if code != 1 {
		t.Fatalf("gymlint: exit %d\n%s", code, errOut)
	}
	var js []struct {
		Path     string `json:"path"`
		Line     int    `json:"line"`
		Column   int    `json:"column"`
		Code     string `json:"code"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
		Help     string `json:"help"`
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil {
		t.Fatal(err)
	}
	var cli, cliGo []string
	for _, d := range js {
		msg := d.Message // the language server shows the help under it
		if d.Help != "" {
			msg += "\nhelp: " + d.Help
		}
		cli = append(cli, fmt.Sprintf("%s:%d:%d: %s %s %s", d.Path, d.Line, d.Column, d.Code, d.Severity, msg))
		if strings.HasSuffix(d.Path, ".go") {
			cliGo = append(cliGo, fmt.Sprintf("%s:%d:%d: %s %s", d.Path, d.Line, d.Column, d.Code, d.Message))
		}
	}
	sort.Strings(cli)
	sort.Strings(cliGo)
	// What the configuration and the suppressions must have done.
	for _, want := range []string{
		"resources_servers/maze/app.py:7:7: GL101 warning ", // severity override
		"resources_servers/quiz/app.py:11:1: GL010 warning unused suppression: nothing on line 12 reports GL201\nhelp: remove the suppression",
		"native/server/server.go:77:2: GL351 warning ", // Go severity override
	} {
		if !containsPrefix(cli, want) {
			t.Errorf("gymlint: no finding %q in:\n%s", want, strings.Join(cli, "\n"))
		}
	}
	for _, absent := range []string{"GL302", "GL354", "GL353", "resources_servers/legacy/", "resources_servers/quiz/app.py:6"} {
		for _, f := range cli {
			if strings.Contains(f, absent) {
				t.Errorf("gymlint: %s should be gone (disabled, suppressed or ignored): %s", absent, f)
			}
		}
	}

	// go vet, in the Go module: the Go findings.
	out, errOut, _ = run(t, filepath.Join(dir, "native"), "go", "vet", "-vettool="+bin, "-json", "./...")
	var vet []string
	for _, f := range vetFindings(t, dir, errOut+out) {
		vet = append(vet, f)
	}
	if strings.Join(vet, "\n") != strings.Join(cliGo, "\n") {
		t.Errorf("go vet and gymlint disagree on the Go files:\ngo vet:\n%s\ngymlint:\n%s", strings.Join(vet, "\n"), strings.Join(cliGo, "\n"))
	}
	// go vet's plain output says which rule spoke.
	_, errOut, _ = run(t, filepath.Join(dir, "native"), "go", "vet", "-vettool="+bin, "./...")
	if !strings.Contains(errOut, "server.go:41:30: GL350 the seed handler") {
		t.Errorf("go vet plain output without the rule code:\n%s", errOut)
	}

	// The language server, opened on the repository.
	lsp := lspFindings(t, bin, dir, cli)
	if strings.Join(lsp, "\n") != strings.Join(cli, "\n") {
		t.Errorf("gymlint lsp and gymlint disagree:\nlsp:\n%s\ngymlint:\n%s", strings.Join(lsp, "\n"), strings.Join(cli, "\n"))
	}
}

func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// copyTree copies a directory into a new temporary one.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// lspFindings starts `gymlint lsp` on dir, as an editor does, and collects
// what it publishes (the latest list of each file) until it matches want or
// a minute has passed (the Go analysis is published after the Python one).
func lspFindings(t *testing.T, bin, dir string, want []string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "lsp")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), offline...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	cmd.Stderr = &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		in.Close()
		cmd.Wait()
		if t.Failed() {
			t.Logf("gymlint lsp log:\n%s", log.String())
		}
	}()
	conn := protocol.NewConn(outPipe, in)
	if _, err := conn.Call("initialize", map[string]any{
		"processId": nil, "rootUri": protocol.PathToURI(dir), "capabilities": map[string]any{},
	}); err != nil {
		t.Fatal(err)
	}
	published := map[string][]string{}
	flatten := func() []string {
		var all []string
		for _, fs := range published {
			all = append(all, fs...)
		}
		sort.Strings(all)
		return all
	}
	msgs := make(chan *protocol.Message)
	go func() {
		defer close(msgs)
		for {
			m, err := conn.Read()
			if err != nil {
				if protocol.IsFatal(err) {
					return
				}
				continue
			}
			msgs <- m
		}
	}()
	severities := map[protocol.DiagnosticSeverity]string{protocol.SeverityError: "error", protocol.SeverityWarning: "warning", protocol.SeverityInformation: "info"}
	deadline := time.After(time.Minute)
	for {
		select {
		case m, ok := <-msgs:
			if !ok {
				t.Fatal("gymlint lsp ended")
			}
			switch {
			case m.IsResponse():
				conn.Notify("initialized", map[string]any{})
			case m.IsRequest():
				conn.Reply(m.ID, nil, nil)
			case m.Method == "textDocument/publishDiagnostics":
				var p protocol.PublishDiagnosticsParams
				if err := json.Unmarshal(m.Params, &p); err != nil {
					t.Fatal(err)
				}
				file, err := protocol.URIToPath(string(p.URI))
				if err != nil {
					t.Fatal(err)
				}
				rel, _ := filepath.Rel(dir, file)
				rel = filepath.ToSlash(rel)
				var fs []string
				for _, d := range p.Diagnostics {
					// The fixture is ASCII: UTF-16 characters are byte columns.
					fs = append(fs, fmt.Sprintf("%s:%d:%d: %s %s %s", rel, d.Range.Start.Line+1, d.Range.Start.Character+1, d.Code, severities[d.Severity], d.Message))
				}
				published[rel] = fs
				if got := flatten(); strings.Join(got, "\n") == strings.Join(want, "\n") {
					return got
				}
			}
		case <-deadline:
			return flatten()
		}
	}
}
