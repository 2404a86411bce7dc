package gonative

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/analyzers/gohelp"
	"github.com/gymlint/gymlint/diag"
)

// PartialServer is rule GL014, which ProtocolAnalyzer reports.
var PartialServer = &diag.Rule{
	Code: "GL014", Name: "go-partial-server", Analyzer: "core", Severity: diag.Info,
	Summary: "Go code serves part of the resources protocol (/seed_session without /close_session or /verify), so the Go rules do not check it as a server.",
	Doc: `## What it does
Reports Go code that serves some but not all of the three protocol paths of a NeMo Gym resources
server, ` + "`/seed_session`" + `, ` + "`/close_session`" + ` and ` + "`/verify`" + `: routes registered with ` + "`Handle`" + `/` + "`HandleFunc`" + `
on one router (or handled by methods of one type) that include ` + "`/seed_session`" + ` or
` + "`/close_session`" + `, or two of the three paths, but not all three; and a type whose methods include
` + "`SeedSession`" + ` but not both ` + "`CloseSession`" + ` and ` + "`Verify`" + `. It names the paths (or methods) that are
missing. A lone ` + "`/verify`" + ` route, and ` + "`CloseSession`" + ` or ` + "`Verify`" + ` methods without ` + "`SeedSession`" + `, are
not reported: those names are common outside NeMo Gym.

It is an info finding, a core rule like GL008: it says what gymlint did not analyse.

## Why it matters
gymlint recognises a native Go server only when all three paths are served together (see the
package doc of ` + "`analyzers/gonative`" + `). Code that serves part of them is not a server to gymlint,
so none of the Go rules (GL150, GL151, GL350 to GL354) checks it, and nothing else says so: a
server whose ` + "`/close_session`" + ` is registered on another router, in another package, or under a
path gymlint cannot read (a pattern built at run time) is silently left unchecked.

## Example
` + "```go" + `
func (s *Server) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /seed_session", s.seed)
	mux.HandleFunc("POST /verify", s.verify)
	// /close_session is registered by the caller, on the same mux
}
` + "```" + `

` + "```" + `
server/server.go:2:2: GL014 these routes serve /seed_session and /verify but not /close_session, so gymlint's Go rules do not check them as a resources server: serve all three on one router in this package
` + "```" + `

## How to fix
Register the three paths on one router in one package, with constant patterns, or give the
server type methods ` + "`SeedSession`" + `, ` + "`CloseSession`" + ` and ` + "`Verify`" + `. If the code is not a resources
server, disable GL014 for it in the configuration, or suppress it with
` + "`//gymlint:ignore GL014 <why>`" + `.`,
}

// Rules are this package's rules, for the catalogue.
var Rules = []*diag.Rule{PartialServer}

// ProtocolAnalyzer reports GL014 for what Analyzer finds serving part of
// the protocol (Result.Partial).
var ProtocolAnalyzer = &analysis.Analyzer{
	Name: "goprotocol",
	Doc: `report Go code that serves part of the NeMo Gym resources protocol

GL014 go-partial-server (info): routes on one router (or handled by one
type) that serve /seed_session or /close_session, or two of /seed_session,
/close_session and /verify, but not all three; or a type with a
SeedSession method but not both CloseSession and Verify. Such code is not
a native server to gymlint, so its Go rules do not check it.`,
	URL:      strings.SplitN(PartialServer.URL(), "#", 2)[0],
	Requires: []*analysis.Analyzer{Analyzer},
	Run:      runProtocol,
	// The help of each diagnostic, for gymlint's driver.
	ResultType: gohelp.HelpsType,
}

func runProtocol(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[Analyzer].(*Result)
	helps := new(gohelp.Helps)
	for _, p := range res.Partial {
		var msg, help string
		if p.Methods {
			msg = fmt.Sprintf("type %s has %s but not %s, so gymlint's Go rules do not check it as a resources server",
				p.Type.Obj().Name(), strings.Join(p.Served, " and "), orJoin(p.Missing))
			help = fmt.Sprintf("give %s all three methods, or serve the three paths", p.Type.Obj().Name())
		} else {
			msg = fmt.Sprintf("these routes serve %s but not %s, so gymlint's Go rules do not check them as a resources server",
				strings.Join(p.Served, " and "), orJoin(p.Missing))
			help = "serve all three on one router in this package"
		}
		helps.Report(pass, analysis.Diagnostic{Pos: p.Pos, End: p.End, Category: PartialServer.Code, URL: PartialServer.URL(), Message: msg}, help)
	}
	return helps, nil
}

func orJoin(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}
