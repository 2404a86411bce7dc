package gonative

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/gymlint/gymlint/analyzers/gohelp"
	"github.com/gymlint/gymlint/diag/core"
)

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
	URL:      strings.SplitN(core.GoPartialServer.URL(), "#", 2)[0],
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
		helps.Report(pass, analysis.Diagnostic{Pos: p.Pos, End: p.End, Category: core.GoPartialServer.Code, URL: core.GoPartialServer.URL(), Message: msg}, help)
	}
	return helps, nil
}

func orJoin(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}
