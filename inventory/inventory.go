// Package inventory is the model behind the `gymlint servers` command: it
// lists every server entrypoint of a repository with what
// gymlint knows about it: where it is, which class it starts, which configs
// name it, how it answers several workers, whether it needs Ray, and which
// session methods it overrides, and its repository parent classes.
// `gymlint servers` prints it, as tables, JSON or a drawing (graph.go).
//
// The inventory reports facts the analyzers compute (workers.Status,
// rayenabled.Status); it decides nothing itself and reports no findings.
package inventory

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gymlint/gymlint/analyzers/configs"
	"github.com/gymlint/gymlint/analyzers/rayenabled"
	"github.com/gymlint/gymlint/analyzers/workers"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// SessionMethods are the resources-server session contract's methods that
// the inventory looks for.
var SessionMethods = []string{
	contract.SeedMethod, contract.CloseMethod, contract.VerifyMethod,
	contract.ExportMethod, contract.RestoreMethod, contract.RetireMethod,
}

// Server is one row of the inventory. JSON field names are a stable interface.
type Server struct {
	Type      string   `json:"type"`      // server type, e.g. resources_servers
	Dir       string   `json:"dir"`       // server dir key, e.g. math_with_judge
	Class     string   `json:"class"`     // server class; "" when the module defines none
	Path      string   `json:"path"`      // entrypoint, relative to the root
	Line      int      `json:"line"`      // of the class definition (1 when there is no class)
	Configs   []string `json:"configs"`   // config entries that name it, as path:line
	Workers   string   `json:"workers"`   // app, refuses always, refuses when, no app, undeclared, exempt, starts no server, no server class, syntax error, unreadable (see the README)
	Reason    string   `json:"reason"`    // the refusal reason when it is a literal; the exemption's reason; why it starts no server
	Condition string   `json:"condition"` // the refusal condition, for "refuses when"
	Ray       string   `json:"ray"`       // declared, needed (undeclared), no
	RayUse    string   `json:"ray_use"`   // path:line of the first Ray use found
	Session   []string `json:"session_methods"`
	// Parents are the server class's ancestors defined in the repository
	// (outside the framework package), in method resolution order; empty
	// for a row without a class. The graph formats draw them.
	Parents []Parent `json:"parents"`
	// Hazards are the multi-worker hazards gymlint finds in the server
	// (workers.Hazards: GL105's state keyed by a body field is not among
	// them), whether or not it accepts several workers; the text and
	// markdown tables list their codes.
	Hazards []Hazard `json:"hazards"`
	// References are the server references ({type, name} settings) that
	// the configs of the runs starting it give the server, resolved to the
	// entrypoints of the instances they name (references.go). The graph
	// formats draw an environment server's.
	References []Reference `json:"references"`
	// Contract says, per column, which contract it was judged by:
	// "framework" when the repository's framework has that part of the
	// contract, "latest" when it predates it or none was found (the column
	// then says what the current contract would make of the server).
	Contract Contract `json:"contract"`
}

// Parent is a repository ancestor of a server class.
type Parent struct {
	Class string `json:"class"`
	Path  string `json:"path"` // the module that defines it, relative to the root
	Line  int    `json:"line"` // of the class definition
	// Direct says it is a direct base of the server class.
	Direct bool `json:"direct"`
	// Bases are its own direct bases among the row's parents, as indexes
	// into the row's parents.
	Bases []int `json:"bases"`
}

// Hazard is one multi-worker hazard of a server.
type Hazard struct {
	Code    string `json:"code"`
	Rule    string `json:"rule"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// hazardsOf lists the hazards of a server of e.
func hazardsOf(v *gym.View, e *gym.Entrypoint, s gym.Server) []Hazard {
	out := []Hazard{}
	for _, h := range workers.Hazards(v, e, s.Class) {
		out = append(out, Hazard{Code: h.Rule.Code, Rule: h.Rule.Name, Path: h.Path, Line: h.Start.Line, Message: h.Message})
	}
	return out
}

// Contract is Server.Contract.
type Contract struct {
	Workers string `json:"workers"`
	Ray     string `json:"ray"`
	Session string `json:"session_methods"`
}

// contractOf is the contract each column of v's servers is judged by.
func contractOf(v *gym.View) Contract {
	fw := v.Options.Framework
	judged := func(f contract.Fact) string {
		if fw.Known() && fw.Has(f) {
			return "framework"
		}
		return "latest"
	}
	return Contract{Workers: judged(contract.WorkerRefusal), Ray: judged(contract.RayDeclaration), Session: judged(contract.CloseSession)}
}

// ContractNote is the line under the text and markdown tables that says
// which columns are judged by the latest contract, and why; "" when the
// framework has every part the columns judge.
func ContractNote(v *gym.View) string {
	fw := v.Options.Framework
	if !fw.Known() {
		pkg := contract.DefaultPackage
		if fw != nil {
			pkg = cmp.Or(fw.Package, pkg)
		}
		return fmt.Sprintf("contract: no %s framework found; the columns are judged by the latest contract", pkg)
	}
	c := contractOf(v)
	var cols, parts []string
	for _, x := range []struct {
		col, judged string
		f           contract.Fact
	}{{"WORKERS", c.Workers, contract.WorkerRefusal}, {"RAY", c.Ray, contract.RayDeclaration}, {"SESSION METHODS", c.Session, contract.CloseSession}} {
		if x.judged == "latest" {
			cols = append(cols, x.col)
			parts = append(parts, contract.InfoOf(x.f).Predates)
		}
	}
	if len(cols) == 0 {
		return ""
	}
	return fmt.Sprintf("contract: %s judged by the latest contract: %s at %s predates %s", strings.Join(cols, ", "), fw.Package, fw.Display(), strings.Join(parts, ", "))
}

// Build lists the servers of a view, sorted by path and class.
func Build(v *gym.View) []Server {
	var out []Server
	refTypes := configs.RefTypes(v)
	var repo map[[2]string]string
	repoOnce := func() map[[2]string]string {
		if repo == nil {
			repo = repoInstances(v)
		}
		return repo
	}
	for _, e := range v.Entrypoints {
		typ, dir := typeDir(e)
		base := Server{Type: typ, Dir: dir, Path: e.Path, Line: 1, Configs: []string{}, Session: []string{}, Parents: []Parent{}, Hazards: []Hazard{},
			References: references(v, e, refTypes, repoOnce), Contract: contractOf(v)}
		for _, c := range e.Configs {
			base.Configs = append(base.Configs, fmt.Sprintf("%s:%d", c.File, c.Instance.EntrypointPos.Line))
		}
		switch {
		case e.Module == nil:
			base.Workers = "unreadable"
			out = append(out, base)
			continue
		case e.Module.SyntaxError != nil:
			base.Workers = "syntax error"
			out = append(out, base)
			continue
		}
		noServer := v.StartsNoServer(e)
		if len(e.Servers) == 0 {
			base.Workers = "no server class"
			if noServer != "" {
				base.Workers, base.Reason = "starts no server", "it "+noServer
			}
			if gym.HasModuleApp(e.Module) != nil {
				base.Workers = "app"
			}
			if e.Exemption != nil {
				base.Workers = "exempt"
				base.Reason = e.Exemption.Reason
			}
			base.Ray = "no"
			out = append(out, base)
			continue
		}
		for _, s := range e.Servers {
			row := base
			row.Configs = append([]string{}, base.Configs...)
			row.Class = s.Class.Class.Name
			row.Line = s.Class.Module.Line(s.Class.Class.NameSpan.Start)
			if s.Class.Module != e.Module {
				// The class lives in another module: point at the call
				// that starts it from this entrypoint.
				row.Line = 1
				if s.Call != nil {
					row.Line = e.Module.Line(s.Call.Span.Start)
				}
			}
			ws := workers.Status(v, e, s)
			row.Workers, row.Reason, row.Condition = ws.Kind, ws.Reason, ws.Condition
			if ws.HasApp && ws.Kind != workers.StatusApp {
				row.Workers += " (+app)"
			}
			if noServer != "" && ws.Kind == workers.StatusUndeclared {
				row.Workers, row.Reason, row.Condition = "starts no server", "it "+noServer, ""
			}
			if e.Exemption != nil {
				row.Workers = "exempt"
				row.Reason = e.Exemption.Reason
			}
			rs := rayenabled.Status(v, s)
			switch {
			case rs.Declared:
				row.Ray = "declared"
			case rs.Needed:
				row.Ray = "needed (undeclared)"
			default:
				row.Ray = "no"
			}
			if rs.Use != nil {
				row.RayUse = fmt.Sprintf("%s:%d", rs.Use.Path, rs.Use.Start.Line)
			}
			row.Session = sessionMethods(v, s)
			row.Parents = parents(v, s.Class)
			row.Hazards = hazardsOf(v, e, s)
			out = append(out, row)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Class < out[j].Class
	})
	return out
}

// typeDir names the server type and dir: from the first config that names
// the module, else from its path.
func typeDir(e *gym.Entrypoint) (string, string) {
	if len(e.Configs) > 0 {
		in := e.Configs[0].Instance
		return in.Type, in.Dir
	}
	parts := strings.Split(e.Path, "/")
	switch {
	case len(parts) >= 4 && e.ServerDirApp:
		return parts[0], parts[1] + "/" + parts[2]
	case len(parts) >= 3:
		return parts[0], parts[1]
	}
	return "", ""
}

// sessionMethods lists the session methods the server class overrides
// (itself or through a repository ancestor), in contract order.
func sessionMethods(v *gym.View, s gym.Server) []string {
	out := []string{}
	for _, name := range SessionMethods {
		if d := v.Lookup(s.Class, name); d.Found() && d.Method != nil {
			out = append(out, name)
		}
	}
	return out
}

// parents lists the repository ancestors of c (Parent), with which is a
// direct base of which.
func parents(v *gym.View, c gym.ClassRef) []Parent {
	out := []Parent{}
	mro, _ := v.MRO(c)
	index := map[*pyscan.Class]int{}
	var refs []gym.ClassRef
	for _, a := range mro {
		if a.Kind != gym.Own || a.Class.Class == nil || a.Class.Class == c.Class {
			continue
		}
		if _, dup := index[a.Class.Class]; dup {
			continue
		}
		index[a.Class.Class] = len(out)
		refs = append(refs, a.Class)
		out = append(out, Parent{Class: a.Class.Class.Name, Path: a.Class.Module.Path,
			Line: a.Class.Module.Line(a.Class.Class.NameSpan.Start), Bases: []int{}})
	}
	direct := func(of gym.ClassRef) []int {
		var is []int
		for _, b := range v.Bases(of) {
			if b.Kind != gym.Own || b.Class.Class == nil {
				continue
			}
			if i, ok := index[b.Class.Class]; ok && !slices.Contains(is, i) {
				is = append(is, i)
			}
		}
		return is
	}
	for _, i := range direct(c) {
		out[i].Direct = true
	}
	for i, r := range refs {
		out[i].Bases = append(out[i].Bases, direct(r)...)
	}
	return out
}
