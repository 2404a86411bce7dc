package rayenabled

import (
	"fmt"
	"slices"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
)

// UnneededRayEnabled is rule GL205.
var UnneededRayEnabled = &diag.Rule{
	Code: "GL205", Name: "unneeded-ray-enabled", Analyzer: "rayenabled", Severity: diag.Warning,
	Needs:   []string{contract.RayDeclaration},
	Summary: "A server declares ray_enabled = True but uses no Ray.",
	Doc:     ruleDoc("GL205"),
}

// runUnneededRayEnabled reports a server class whose own body in the
// entrypoint declares ray_enabled = True when the search for its Ray use
// found none and read everything on the way (an unread module may use
// Ray), and no config of the server has a Ray setting.
func runUnneededRayEnabled(v *gym.View) []diag.Diagnostic {
	return report(usesOf(v).list, func(u *serverUse) []diag.Diagnostic {
		if u.own == nil || !isTrue(u.own.attr.Value) || u.found.use != nil || !u.found.complete {
			return nil
		}
		if _, _, _, ok := raySetting(v, u.e); ok {
			return nil
		}
		m, at := u.m(), u.own.attr
		dg := UnneededRayEnabled.New(u.entryPath(), gym.Pos(m, at.Span.Start), gym.Pos(m, at.StmtSpan.End), fmt.Sprintf(
			"%s declares ray_enabled = True, but gymlint finds no Ray use in it, its ancestors or their imports, nor a Ray setting in its configs",
			u.subject()))
		return []diag.Diagnostic{helped(dg, "remove the declaration, unless the server uses Ray through a library gymlint does not read")}
	})
}

// raySetting returns the first config setting, among those of the config
// instances that name the entrypoint and of the overrides of those
// instances (same instance name, server type and dir, in any config file),
// that may make the server use Ray through code gymlint does not read: a
// key with the word "ray" in it (ray_address, num_ray_workers,
// VLLM_RAY_DP_PACK_STRATEGY, rayActors) or a scalar value that is exactly
// "ray" (distributed_executor_backend: ray). ok is false when there is none.
func raySetting(v *gym.View, e *gym.Entrypoint) (file string, pos configscan.Pos, key string, ok bool) {
	w := facts.Of(v).Words()
	type inst struct{ name, typ, dir string }
	named := map[inst]bool{}
	var overrides []gym.OverrideRef
	for _, c := range e.Configs {
		in := c.Instance
		if p, k, found := rayIn(w, in.Settings, ""); found {
			return c.File, p, k, true
		}
		if k := (inst{in.Name, in.Type, in.Dir}); !named[k] {
			named[k] = true
			for _, o := range v.OverridesOf(in.Type, in.Dir) {
				if o.Instance.Name == in.Name && o.Instance.Dir == in.Dir {
					overrides = append(overrides, o)
				}
			}
		}
	}
	// In the order of the configs.
	slices.SortFunc(overrides, func(a, b gym.OverrideRef) int { return a.Order - b.Order })
	for _, o := range overrides {
		if p, k, found := rayIn(w, o.Instance.Settings, ""); found {
			return o.File.Path, p, k, true
		}
	}
	return "", configscan.Pos{}, "", false
}

// rayIn searches a settings node, depth first in document order.
func rayIn(w *facts.Words, n *configscan.Node, key string) (configscan.Pos, string, bool) {
	if n == nil {
		return configscan.Pos{}, "", false
	}
	switch n.Kind {
	case configscan.MappingNode:
		for _, p := range n.Pairs {
			if w.Has(facts.WordRaySetting, p.Key) {
				return p.KeyPos, p.Key, true
			}
			if pos, k, ok := rayIn(w, p.Value, p.Key); ok {
				return pos, k, true
			}
		}
	case configscan.SequenceNode:
		for _, it := range n.Items {
			if pos, k, ok := rayIn(w, it, key); ok {
				return pos, k, true
			}
		}
	case configscan.ScalarNode:
		if w.IsWord(facts.WordRaySetting, n.Value) {
			return n.Pos, key + ": " + n.Value, true
		}
	}
	return configscan.Pos{}, "", false
}
