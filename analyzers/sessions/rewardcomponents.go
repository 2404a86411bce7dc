package sessions

import (
	"fmt"
	"strings"

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
	for _, m := range resourcesModules(v) {
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

// responseKind reports whether a class's method resolution order reaches
// the framework's BaseVerifyResponse (isResponse) and its
// BaseMultiRewardVerifyResponse (isMulti), through framework classes
// defined in the repository too. ok is false when the order is not known
// or has a base gymlint could not resolve or a library's (but for the
// standard library's and pydantic's).
func responseKind(v *gym.View, c gym.ClassRef) (isResponse, isMulti, ok bool) {
	mro, ok := v.MRO(c)
	if !ok {
		return false, false, false
	}
	for _, a := range mro {
		switch a.Kind {
		case gym.Unresolved:
			return false, false, false
		case gym.Foreign:
			// A library class could itself derive from the framework's
			// responses; those of the standard library and pydantic do not.
			if !knownForeign(a.Name) {
				return false, false, false
			}
		case gym.Framework, gym.FrameworkServer:
			r, mu := frameworkResponse(v, a, 0)
			isResponse, isMulti = isResponse || r, isMulti || mu
		}
	}
	return isResponse, isMulti, true
}

// knownForeign reports whether a foreign class is of a module that cannot
// derive from the framework (builtins, typing, abc, enum, pydantic).
func knownForeign(name string) bool {
	first, _, _ := strings.Cut(name, ".")
	switch first {
	case "builtins", "typing", "typing_extensions", "abc", "enum", "pydantic":
		return true
	}
	return false
}

// frameworkResponse is responseKind for a framework class: by its name,
// else by its bases when the framework is in the repository.
func frameworkResponse(v *gym.View, a gym.Ancestor, depth int) (isResponse, isMulti bool) {
	name := a.Name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	switch name {
	case contract.MultiRewardResponseClass:
		return true, true
	case contract.VerifyResponseClass:
		return true, false
	}
	if a.Class.Class == nil || depth > 16 {
		return false, false
	}
	for _, b := range v.Bases(a.Class) {
		if b.Kind == gym.Framework || b.Kind == gym.FrameworkServer {
			r, mu := frameworkResponse(v, b, depth+1)
			isResponse, isMulti = isResponse || r, isMulti || mu
		}
	}
	return isResponse, isMulti
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
