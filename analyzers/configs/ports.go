package configs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// DuplicateFixedPort is rule GL401.
var DuplicateFixedPort = &diag.Rule{
	Code: "GL401", Name: "duplicate-fixed-port", Analyzer: "configs", Severity: diag.Error,
	Summary: "Two servers of one composed config ask for the same fixed port.",
	Doc:     ruleDoc("GL401"),
}

// fixedPort reads a port that Gym keeps as it is: a non-zero integer, or a
// string of digits.
func fixedPort(n *configscan.Node) (int64, bool) {
	if n == nil || n.Kind != configscan.ScalarNode || n.Interpolation() {
		return 0, false
	}
	s := n.Value
	switch n.Tag {
	case "!!int":
	case "!!str":
		s = strings.TrimSpace(s)
		if s == "" || strings.Trim(s, "0123456789") != "" {
			return 0, false
		}
	default:
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimPrefix(s, "+"), 10, 64)
	if err != nil || v == 0 {
		return 0, false
	}
	return v, true
}

// portUse is one server of a run with a fixed port.
type portUse struct {
	inst *configscan.Instance
	port int64
	node *configscan.Node
	host string // "" when unset
}

func (u portUse) name() string { return u.inst.Name + "." + u.inst.Type + "." + u.inst.Dir }

// runDuplicateFixedPort judges every run, not only those of the view's
// entrypoints (a ConfigsOnly check).
func runDuplicateFixedPort(v *gym.View) []diag.Diagnostic {
	type key struct {
		file          string
		offset        int
		firstFile     string
		firstOffset   int
		second, first string
	}
	seen := map[key]bool{}
	var out []diag.Diagnostic
	for _, r := range v.Runs() {
		if r.Fatal || r.Root == nil {
			continue
		}
		var uses []portUse
		named := map[string]bool{}
		for i := range r.Servers {
			inst := &r.Servers[i]
			if named[inst.Name] { // Gym starts the first server dir of an instance
				continue
			}
			named[inst.Name] = true
			pn := inst.Settings.Get("port")
			p, ok := fixedPort(pn)
			if !ok {
				continue
			}
			u := portUse{inst: inst, port: p, node: pn}
			if h := inst.Settings.Get("host"); h != nil && h.Kind == configscan.ScalarNode && h.Value != "" {
				if h.Interpolation() {
					continue // the host is not known
				}
				u.host = h.Value
			}
			uses = append(uses, u)
		}
		for j := 1; j < len(uses); j++ {
			for i := 0; i < j; i++ {
				a, b := uses[i], uses[j]
				if a.port != b.port || (a.host != "" && b.host != "" && a.host != b.host) {
					continue
				}
				d := portDiag(r, a, b)
				kk := key{d.Path, d.Start.Offset, a.node.Origin.File, a.node.Pos.Offset, b.name(), a.name()}
				if !seen[kk] {
					seen[kk] = true
					out = append(out, d)
				}
				break
			}
		}
	}
	return out
}

func portDiag(r *configscan.Run, a, b portUse) diag.Diagnostic {
	at, pos, end := b.node.Origin, b.node.Pos, b.node.End
	how := ""
	if b.node.Origin == a.node.Origin && b.node.Pos == a.node.Pos {
		// One value, two instances: report at the directive that
		// brought it to the second.
		if mv, ok := r.Moves[r.Root.Get(b.inst.Name)]; ok {
			at, pos, end = mv.Origin, mv.Pos, mv.Pos
			how = fmt.Sprintf(", which it takes from %s through %s", mv.From, mv.Directive)
		} else if mv, ok := r.Moves[r.Root.Get(a.inst.Name)]; ok {
			at, pos, end = mv.Origin, mv.Pos, mv.Pos
			how = fmt.Sprintf(", which %s takes from %s through %s", a.inst.Name, mv.From, mv.Directive)
		}
	}
	where := "in this config"
	if r.File != at.File {
		where = "when Gym composes " + r.File
	}
	msg := fmt.Sprintf("%s asks for port %d%s, which %s asks for too %s: the second server fails to bind (EADDRINUSE)",
		b.name(), b.port, how, a.name(), where)
	d := DuplicateFixedPort.New(at.File, dpos(pos), dpos(end), msg)
	d.Help = fmt.Sprintf("remove the port of %s (Gym then picks a free one), or give it a port of its own", b.inst.Name)
	d.Related = append(d.Related, diag.Related{
		Path: a.node.Origin.File, Start: dpos(a.node.Pos), End: dpos(a.node.End),
		Message: fmt.Sprintf("%s asks for port %d here", a.name(), a.port),
	})
	d.Related = append(d.Related, gym.IncludeChain(r.OriginOf(at.File))...)
	return d
}
