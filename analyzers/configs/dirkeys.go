package configs

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// DuplicateServerDirKey is rule GL405.
var DuplicateServerDirKey = &diag.Rule{
	Code: "GL405", Name: "duplicate-server-dir-key", Analyzer: "configs", Severity: diag.Error,
	Summary: "A server type of an instance has more than one server directory key.",
	Doc:     ruleDoc("GL405"),
}

// maxNamed bounds how many extra dir keys a message names.
const maxNamed = 3

// typeNode returns the server type mapping that holds an instance's dir.
func typeNode(in Instance) *configscan.Node {
	if in.Inst.Doc < 0 || in.Inst.Doc >= len(in.File.Docs) {
		return nil
	}
	return in.File.Docs[in.Inst.Doc].Get(in.Inst.Name).Get(in.Inst.Type)
}

func runDuplicateServerDirKey(v *gym.View) []diag.Diagnostic {
	r := newReporter(DuplicateServerDirKey)
	for _, in := range Instances(v) {
		if in.Override {
			continue
		}
		if f, bad := CheckServerDirKeys(typeNode(in), shown(in.Inst.Name)+"."+shown(in.Inst.Type)); bad {
			r.add(in.File.Path, f)
		}
	}
	return r.out
}

// CheckServerDirKeys is GL405's test of a server type's mapping (the
// value of <instance>.<server_type>); label names it.
func CheckServerDirKeys(typ *configscan.Node, label string) (Finding, bool) {
	if typ == nil || typ.Kind != configscan.MappingNode {
		return Finding{}, false
	}
	var dirs []configscan.Pair
	for _, p := range typ.Pairs {
		if !strings.HasPrefix(p.Key, "_") {
			dirs = append(dirs, p)
		}
	}
	if len(dirs) < 2 {
		return Finding{}, false
	}
	var names []string
	for i, p := range dirs[1:] {
		if i == maxNamed {
			names = append(names, fmt.Sprintf("%d more", len(dirs)-1-maxNamed))
			break
		}
		names = append(names, shown(p.Key))
	}
	first, second := dirs[0], dirs[1]
	f := Finding{
		Pos: second.KeyPos, End: second.KeyPos,
		Message: fmt.Sprintf("%s has %d server dir keys (%s, then %s); the framework accepts exactly one, so it rejects the instance at startup",
			label, len(dirs), shown(first.Key), strings.Join(names, ", ")),
		Help:    "give each server an instance of its own",
		Related: []RelatedPos{{Pos: first.KeyPos, Message: "the first server dir key, " + shown(first.Key)}},
	}
	if second.Merged {
		f.Pos, f.End = second.MergePos, second.MergePos
	}
	return f, true
}
