package sessions

import (
	"fmt"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// HandRolledRewardComponents is rule GL314.
var HandRolledRewardComponents = &diag.Rule{
	Code: "GL314", Name: "hand-rolled-reward-components", Analyzer: Analyzer, Severity: diag.Error,
	Needs:   []string{contract.MultiRewardResponse},
	Summary: "A BaseVerifyResponse subclass declares reward_components itself instead of subclassing BaseMultiRewardVerifyResponse.",
	Doc:     ruleDoc("GL314"),
}

func runHandRolledRewardComponents(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	// A class declares the field by its name: only the modules whose text
	// holds it can hold a finding.
	for _, m := range resourcesModulesHolding(v, contract.RewardComponentsField) {
		for _, c := range m.Classes {
			at := c.Attr(contract.RewardComponentsField)
			if at == nil {
				continue
			}
			ref := gym.ClassRef{Module: m, Class: c}
			isResponse, isMulti, ok := responseKind(v, ref)
			if !ok || !isResponse || isMulti || ownAncestorDeclares(v, ref, contract.RewardComponentsField) {
				continue
			}
			start, end := gym.Range(m, at.Span)
			d := HandRolledRewardComponents.New(m.Path, start, end, fmt.Sprintf(
				"%s declares reward_components on a BaseVerifyResponse subclass instead of subclassing BaseMultiRewardVerifyResponse", c.Name))
			d.Help = "derive " + c.Name + " from the framework's BaseMultiRewardVerifyResponse, which declares reward_components: dict[str, float], drop this field, and set reward to the scalar aggregate"
			if fw := lacks(v, contract.MultiRewardResponse); fw != "" {
				d.Help = "upgrade the framework to one with BaseMultiRewardVerifyResponse and derive " + c.Name + " from it (" + fw + " has none); until then keep reward the scalar aggregate"
			}
			d.Related = []diag.Related{gym.Related(m, c.NameSpan, "class "+c.Name+" is a BaseVerifyResponse")}
			out = append(out, d)
		}
	}
	return out
}

// ownAncestorDeclares reports whether a repository ancestor of c (not c)
// binds name in its class body.
func ownAncestorDeclares(v *gym.View, c gym.ClassRef, name string) bool {
	mro, _ := v.MRO(c)
	for _, a := range mro {
		if a.Kind == gym.Own && a.Class.Class != nil && a.Class.Class != c.Class && a.Class.Class.Attr(name) != nil {
			return true
		}
	}
	return false
}
