package cli

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gymlint/gymlint/goanalysis"
)

// TestGoPartialServer: with the registered Go analyzers, a Go package that
// serves part of the protocol gets GL014 (info), which an inline
// suppression silences; a complete server in the same module gets none.
func TestGoPartialServer(t *testing.T) {
	withGoAnalyzers(t, goanalysis.Analyzers...)
	root := writeTree(t, map[string]string{
		"native/go.mod": "module example.com/native\n\ngo 1.22\n",
		"native/half/half.go": `package half

import "net/http"

func seed(w http.ResponseWriter, r *http.Request) {}

func Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", seed)
}

func Other(mux *http.ServeMux) {
	//gymlint:ignore GL014 a proxy that forwards seeds, not a resources server
	mux.HandleFunc("POST /close_session", seed)
}
`,
		"native/whole/whole.go": `package whole

import "net/http"

func h(w http.ResponseWriter, r *http.Request) {}

func Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", h)
	mux.HandleFunc("POST /close_session", h)
	mux.HandleFunc("POST /verify", h)
}
`,
	})
	out, errOut, code := run(t, "--format", "json", root)
	if code != ExitFindings {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var ds []struct {
		Path     string `json:"path"`
		Line     int    `json:"line"`
		Code     string `json:"code"`
		Rule     string `json:"rule"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
		Help     string `json:"help"`
	}
	if err := json.Unmarshal([]byte(out), &ds); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%s:%d %s %s %s: %s help: %s", d.Path, d.Line, d.Code, d.Rule, d.Severity, d.Message, d.Help))
	}
	// The help comes from the Go analyzer's result (package gohelp), apart
	// from the message.
	want := "native/half/half.go:8 GL014 go-partial-server info: these routes serve /seed_session but not /close_session or /verify, so gymlint's Go rules do not check them as a resources server help: serve all three on one router in this package"
	if len(got) != 1 || got[0] != want {
		t.Fatalf("got\n%q\nwant one\n%q", got, want)
	}
}
