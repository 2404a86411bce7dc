package configs

import (
	"fmt"
	"strings"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// InvalidBaseURL is rule GL404.
var InvalidBaseURL = &diag.Rule{
	Code: "GL404", Name: "invalid-base-url", Analyzer: "configs", Severity: diag.Error,
	Summary: "A model server's base_url is neither a string nor a list of strings, or is a URL without an http:// or https:// scheme.",
	Doc:     ruleDoc("GL404"),
}

// modelServerType is the server type whose base_url keys name endpoints.
const modelServerType = "responses_api_models"

// baseURLSuffix is how the supervisor recognises an endpoint key.
const baseURLSuffix = "base_url"

func runInvalidBaseURL(v *gym.View) []diag.Diagnostic {
	r := newReporter(InvalidBaseURL)
	for _, in := range Instances(v) {
		if in.Inst.Type != modelServerType {
			continue
		}
		for _, f := range CheckBaseURLs(in.Inst.Settings, where(in.Inst)) {
			r.add(in.File.Path, f)
		}
	}
	return r.out
}

// CheckBaseURLs is GL404's test of a model server directory's settings
// mapping; label names the instance.
func CheckBaseURLs(settings *configscan.Node, label string) []Finding {
	if settings == nil || settings.Kind != configscan.MappingNode {
		return nil
	}
	var out []Finding
	for _, p := range settings.Pairs {
		if !strings.HasSuffix(p.Key, baseURLSuffix) {
			continue
		}
		add := func(n *configscan.Node, msg, help string) {
			f := Finding{Pos: n.Pos, End: n.End, Message: msg, Help: help}
			if p.Merged {
				f.Pos, f.End = p.MergePos, p.MergePos
				f.Message += " (the value comes through a << merge key)"
			}
			out = append(out, f)
		}
		typeHelp := "write a URL string (http://host:port/v1) or a list of them"
		switch v := p.Value; v.Kind {
		case configscan.NullNode:
		case configscan.MappingNode:
			add(v, fmt.Sprintf("%s of %s is a mapping, but it must be a URL string or a list of them, so config validation fails at startup", shown(p.Key), label), typeHelp)
		case configscan.SequenceNode:
			for i, it := range v.Items {
				if it.Kind == configscan.ScalarNode && it.Tag == "!!str" {
					if msg, help, bad := schemeProblem(it, fmt.Sprintf("%s[%d] of %s", shown(p.Key), i, label)); bad {
						add(it, msg, help)
					}
					continue
				}
				add(it, fmt.Sprintf("%s[%d] of %s is %s, but the list must hold URL strings, so config validation fails at startup", shown(p.Key), i, label, describe(it)), typeHelp)
			}
		case configscan.ScalarNode:
			if v.Tag != "!!str" {
				add(v, fmt.Sprintf("%s of %s is %s, but it must be a URL string or a list of them, so config validation fails at startup", shown(p.Key), label, describe(v)), typeHelp)
				continue
			}
			if msg, help, bad := schemeProblem(v, fmt.Sprintf("%s of %s", shown(p.Key), label)); bad {
				add(v, msg, help)
			}
		}
	}
	return out
}

// schemeProblem checks a URL string: an empty one is unset, an
// interpolation is not known; otherwise it needs an http:// or https://
// scheme (in any case, as requests and aiohttp compare schemes).
func schemeProblem(n *configscan.Node, what string) (msg, help string, bad bool) {
	s := strings.TrimSpace(n.Value)
	if s == "" || isInterpolation(n) {
		return "", "", false
	}
	l := strings.ToLower(s)
	if strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") {
		return "", "", false
	}
	help = "write the scheme: http://" + shownValue(strings.TrimLeft(s, "/"))
	if strings.Contains(s, "://") {
		help = "model endpoints are served over http:// or https://"
	}
	return fmt.Sprintf("%s is the URL %s, which has no http:// or https:// scheme, so no model request to it can be sent", what, quote(shownValue(s))), help, true
}
