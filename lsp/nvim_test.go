package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gymlint/gymlint/lsp/protocol"
)

// nvimResult is what testdata/nvim/check.lua writes.
type nvimResult struct {
	Nvim    string     `json:"nvim"`
	Error   string     `json:"error"`
	Timeout string     `json:"timeout"`
	Before  []nvimDiag `json:"before"`
	After   []nvimDiag `json:"after"`
	Now     []nvimDiag `json:"now"` // the diagnostics when it failed
	Actions []struct {
		Title   string `json:"title"`
		Kind    string `json:"kind"`
		HasEdit bool   `json:"has_edit"`
	} `json:"actions"`
	Hover *struct {
		Kind  string `json:"kind"`
		Value string `json:"value"`
		Range []int  `json:"range"` // start line, character, end line, character
	} `json:"hover"`
	HoverNothingNull bool       `json:"hover_nothing_null"`
	Ignored          []nvimDiag `json:"ignored"` // with GL101 ignored in the settings
	ChangeSync       *int       `json:"change_sync"`
	Edited           []string   `json:"edited"`
	Exit             *struct {
		Code   int `json:"code"`
		Signal int `json:"signal"`
	} `json:"exit"`
	LSPLog string `json:"lsp_log"`
}

// nvimDiag is one of vim.diagnostic.get(0): 0-based lines, byte columns.
type nvimDiag struct {
	Lnum     int    `json:"lnum"`
	Col      int    `json:"col"`
	EndLnum  int    `json:"end_lnum"`
	EndCol   int    `json:"end_col"`
	Code     string `json:"code"`
	Source   string `json:"source"`
	Severity int    `json:"severity"`
	Message  string `json:"message"`
	Related  []struct {
		URI       string `json:"uri"`
		Line      int    `json:"line"`
		Character int    `json:"character"`
		Message   string `json:"message"`
	} `json:"related"`
}

// TestNeovimEndToEnd runs `gymlint lsp` under a real editor: a headless
// Neovim (0.7 or later) runs testdata/nvim/check.lua on a copy of
// testdata/nvim/workspace. It opens the echo server, which has neither a
// module-level app nor a refusal, and must see GL101 on the class name; asks
// for the code actions there and the hover (the rule, in Markdown, over the
// finding's range; null on the first line); ignores GL101 in the settings
// (workspace/didChangeConfiguration) and must see it go, then empties them
// and must see it back; inserts a multiple_workers_unsupported_reason()
// override into the (unsaved) buffer, which Neovim sends as an incremental
// didChange; must see GL101 go away; and stops the server, which must exit
// with status 0.
//
// Without nvim on PATH the test is skipped, except when CI is set: CI
// installs Neovim, so there a missing nvim is a failure.
func TestNeovimEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gymlint and runs Neovim; skipped in -short mode")
	}
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI is set but nvim is not on PATH (%v): install Neovim (apt-get install neovim) for the editor end-to-end test", err)
		}
		t.Skip("nvim not on PATH; skipping the Neovim end-to-end test")
	}
	script, err := filepath.Abs(filepath.Join("testdata", "nvim", "check.lua"))
	if err != nil {
		t.Fatal(err)
	}

	// The temporary directory without symbolic links (macOS's /var), so
	// the paths Neovim and the server name agree with ours.
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "gymlint")
	buildCtx, cancelBuild := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancelBuild()
	build := exec.CommandContext(buildCtx, "go", "build", "-o", bin, "github.com/gymlint/gymlint/cmd/gymlint")
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	ws := filepath.Join(tmp, "ws")
	if err := os.CopyFS(ws, os.DirFS(filepath.Join("testdata", "nvim", "workspace"))); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(filepath.Join(home, "run"), 0o700); err != nil {
		t.Fatal(err)
	}
	outFile := filepath.Join(tmp, "result.json")
	serverLog := filepath.Join(tmp, "server.log")

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+script)
	cmd.Dir = ws
	cmd.Env = nvimEnv(home,
		"GYMLINT_BIN="+bin,
		"GYMLINT_WS="+ws,
		"GYMLINT_OUT="+outFile,
		"GYMLINT_SERVER_LOG="+serverLog,
	)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr

	var raw []byte
	var res nvimResult
	defer func() {
		if !t.Failed() {
			return
		}
		t.Logf("nvim stdout:\n%s", stdout.Bytes())
		t.Logf("nvim stderr:\n%s", stderr.Bytes())
		t.Logf("check.lua's result:\n%s", raw)
		if b, err := os.ReadFile(serverLog); err == nil {
			t.Logf("gymlint lsp's log (its stderr):\n%s", b)
		}
		if res.LSPLog != "" {
			if b, err := os.ReadFile(res.LSPLog); err == nil {
				const max = 64 << 10
				if len(b) > max {
					b = append([]byte("[...]\n"), b[len(b)-max:]...)
				}
				t.Logf("Neovim's LSP log %s:\n%s", res.LSPLog, b)
			}
		}
	}()

	start := time.Now()
	runErr := cmd.Run()
	elapsed := time.Since(start)
	raw, err = os.ReadFile(outFile)
	if err != nil {
		t.Fatalf("nvim: %v (after %v); it wrote no result: %v", runErr, elapsed.Round(time.Millisecond), err)
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("nvim: %v; its result is not JSON: %v", runErr, err)
	}
	switch {
	case ctx.Err() != nil:
		t.Fatalf("nvim did not finish within 90 s (%v)", runErr)
	case res.Timeout != "":
		t.Fatalf("check.lua timed out: %s", res.Timeout)
	case res.Error != "":
		t.Fatalf("check.lua failed: %s", res.Error)
	case runErr != nil:
		var exit *exec.ExitError
		if errors.As(runErr, &exit) {
			t.Fatalf("nvim exited with status %d", exit.ExitCode())
		}
		t.Fatalf("nvim: %v", runErr)
	}
	t.Logf("Neovim %s: open, GL101, code actions, hover, settings, edit, cleared, exit in %v", res.Nvim, elapsed.Round(time.Millisecond))

	// Before the edit: exactly GL101, on the class name of
	// "class EchoServer(SimpleResourcesServer):" (line 6, 0-based 5;
	// columns 6 to 16).
	if len(res.Before) != 1 {
		t.Fatalf("before the edit: %d diagnostics, want exactly GL101", len(res.Before))
	}
	d := res.Before[0]
	if d.Code != "GL101" || d.Source != "workers" || d.Severity != 1 {
		t.Errorf("before the edit: code %q source %q severity %d, want GL101 from workers, an error (1)", d.Code, d.Source, d.Severity)
	}
	if d.Lnum != 5 || d.Col != 6 || d.EndLnum != 5 || d.EndCol != 16 {
		t.Errorf("GL101 at %d:%d-%d:%d, want 5:6-5:16 (EchoServer on the class line)", d.Lnum, d.Col, d.EndLnum, d.EndCol)
	}
	if !strings.Contains(d.Message, "EchoServer") || !strings.Contains(d.Message, "multiple_workers_unsupported_reason") {
		t.Errorf("GL101 message %q, want the class and the override it lacks", d.Message)
	}
	// The related information reaches Neovim: the config line naming the
	// entrypoint ("      entrypoint: app.py", line 4, 0-based 3).
	config := protocol.PathToURI(filepath.Join(ws, "resources_servers", "echo", "configs", "echo.yaml"))
	if len(d.Related) != 1 || d.Related[0].URI != config || d.Related[0].Line != 3 {
		t.Errorf("GL101 related information %+v, want the entrypoint line (3) of %s", d.Related, config)
	}

	// The code actions at the finding: both stubs and the suppression.
	var titles []string
	var override, appStub, suppression bool
	for _, a := range res.Actions {
		titles = append(titles, a.Title)
		if a.Kind != "quickfix" || !a.HasEdit || !strings.HasSuffix(a.Title, "[GL101]") {
			t.Errorf("code action %q: kind %q, edit %v; want a quickfix for GL101 with an edit", a.Title, a.Kind, a.HasEdit)
		}
		switch {
		case strings.Contains(a.Title, "multiple_workers_unsupported_reason"):
			override = true
		case strings.Contains(a.Title, "module-level app"):
			appStub = true
		case strings.HasPrefix(a.Title, "Suppress GL101"):
			suppression = true
		}
	}
	if !override || !appStub || !suppression {
		t.Errorf("code actions %q: want the override stub, the app stub and the suppression", titles)
	}

	// The hover on GL101: Markdown (Neovim 0.7 asks for it first), the
	// rule, the finding and the link, over the finding's range.
	if h := res.Hover; h == nil {
		t.Error("no hover on GL101")
	} else {
		if h.Kind != "markdown" {
			t.Errorf("hover kind %q, want markdown", h.Kind)
		}
		for _, want := range []string{"**GL101**", "`undeclared-workers`", "EchoServer", "](https://github.com/gymlint/gymlint/blob/main/docs/rules.md#gl101-undeclared-workers)"} {
			if !strings.Contains(h.Value, want) {
				t.Errorf("hover lacks %q:\n%s", want, h.Value)
			}
		}
		if len(h.Range) != 4 || h.Range[0] != 5 || h.Range[1] != 6 || h.Range[2] != 5 || h.Range[3] != 16 {
			t.Errorf("hover range %v, want GL101's 5:6-5:16", h.Range)
		}
	}
	if !res.HoverNothingNull {
		t.Error("hover on the first line: want null")
	}
	for _, d := range res.Ignored {
		if d.Code == "GL101" {
			t.Errorf("with GL101 ignored in the settings: %+v", d)
		}
	}

	// The edit went as an incremental change, and it cleared GL101.
	if res.ChangeSync == nil || *res.ChangeSync != int(protocol.SyncIncremental) {
		t.Errorf("Neovim's change sync kind %v, want incremental (%d)", res.ChangeSync, protocol.SyncIncremental)
	}
	if len(res.Edited) < 8 || strings.TrimSpace(res.Edited[6]) != "def multiple_workers_unsupported_reason(self):" {
		t.Errorf("the buffer after the edit:\n%s\nwant the override after the class line", strings.Join(res.Edited, "\n"))
	}
	for _, d := range res.After {
		if d.Code == "GL101" {
			t.Errorf("after the edit: GL101 still reported: %+v", d)
		}
	}
	if len(res.After) > 0 {
		t.Logf("after the edit (not GL101): %+v", res.After)
	}
	if res.Exit == nil || res.Exit.Code != 0 || res.Exit.Signal != 0 {
		t.Errorf("the server's exit after shutdown: %+v, want status 0", res.Exit)
	}
	// The edit was only in the buffer.
	if b, err := os.ReadFile(filepath.Join(ws, "resources_servers", "echo", "app.py")); err != nil || bytes.Contains(b, []byte("multiple_workers_unsupported_reason")) {
		t.Errorf("app.py on disk changed (%v); the edit should stay in the buffer", err)
	}
}

// nvimEnv is the test process's environment without anything that would
// let Neovim read or write a user's configuration or state, or talk to a
// Neovim the test runs inside, with HOME and the XDG directories under home
// (which has run/ for XDG_RUNTIME_DIR), plus extra.
func nvimEnv(home string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME", k == "MYVIMRC", k == "VIMINIT",
			strings.HasPrefix(k, "XDG_"), strings.HasPrefix(k, "NVIM"), strings.HasPrefix(k, "GYMLINT_"):
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_DATA_HOME="+filepath.Join(home, "data"),
		"XDG_STATE_HOME="+filepath.Join(home, "state"),
		"XDG_CACHE_HOME="+filepath.Join(home, "cache"),
		"XDG_RUNTIME_DIR="+filepath.Join(home, "run"),
		"NVIM_LOG_FILE="+filepath.Join(home, "nvim.log"),
	)
	return append(env, extra...)
}
