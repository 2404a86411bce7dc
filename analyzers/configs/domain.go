package configs

import (
	"fmt"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// ResourcesServerWithoutDomain is rule GL407.
var ResourcesServerWithoutDomain = &diag.Rule{
	Code: "GL407", Name: "resources-server-without-domain", Analyzer: "configs", Severity: diag.Error,
	Needs:   []string{contract.ResourcesDomain},
	Summary: "A resources server instance has no domain.",
	Doc:     ruleDoc("GL407"),
}

// resourcesServerType is the server type that needs a domain.
const resourcesServerType = "resources_servers"

func runResourcesServerWithoutDomain(v *gym.View) []diag.Diagnostic {
	r := newReporter(ResourcesServerWithoutDomain)
	// An override of the same name, type and dir may set it.
	setElsewhere := func(inst *configscan.Instance) bool {
		for _, o := range v.OverridesOf(inst.Type, inst.Dir) {
			if o.Instance.Name == inst.Name && o.Instance.Dir == inst.Dir && HasDomain(o.Instance.Settings) {
				return true
			}
		}
		return false
	}
	for _, in := range Instances(v) {
		if in.Override || in.Inst.Type != resourcesServerType || setElsewhere(in.Inst) {
			continue
		}
		if HasDomain(in.Inst.Settings) {
			continue
		}
		r.add(in.File.Path, Finding{
			Pos: in.Inst.DirPos, End: in.Inst.DirPos,
			Message: fmt.Sprintf("resources server %s has no domain, which the framework requires, so it rejects the instance at startup", where(in.Inst)),
			Help:    "add domain: with the capability the server evaluates (math, coding, agent, knowledge, ..., other)",
		})
	}
	return r.out
}

// HasDomain is GL407's test of a resources server directory's settings
// mapping: it sets domain to something other than null.
func HasDomain(settings *configscan.Node) bool {
	d := settings.Get("domain")
	return d != nil && d.Kind != configscan.NullNode
}
