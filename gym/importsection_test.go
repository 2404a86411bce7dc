package gym_test

import (
	"testing"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// ImportSection: a module the repository's isort configuration calls first
// party (Options.KnownFirstParty, as given: a module name or a glob) is
// first party, before the standard library; one named by a dotted entry
// only when it lies in that package.
func TestImportSectionKnownFirstParty(t *testing.T) {
	root := writeRepo(t, map[string]string{
		"resources_servers/calc/app.py": "import os\n",
		"resources_servers/calc/lib.py": "",
	})
	const (
		std   = pyscan.SectionStdlib
		third = pyscan.SectionThirdParty
		first = pyscan.SectionFirstParty
		local = pyscan.SectionLocal
	)
	for _, c := range []struct {
		known []string
		cases map[string]pyscan.ImportSection
	}{
		{nil, map[string]pyscan.ImportSection{
			"my_gym": third, "my_gym.servers": third, "os.path": std, "lib": first, "numpy": third,
		}},
		{[]string{"my_gym"}, map[string]pyscan.ImportSection{
			"my_gym": first, "my_gym.servers.calc": first, "my_gym_extra": third, "my": third, "numpy": third,
		}},
		{[]string{"my_gym.servers", "plugin_*", "tools.?"}, map[string]pyscan.ImportSection{
			"my_gym.servers":      first,
			"my_gym.servers.calc": first,
			"my_gym":              third, // the entry is a package inside it
			"my_gym.other":        third,
			"my_gym.serversx":     third,
			"plugin_a":            first,
			"plugin_a.sub":        first,
			"plugin":              third,
			"tools.x.y":           first,
			"tools.xy":            third,
		}},
		// The configuration goes before the standard library, as in ruff
		// and isort: a repository's own `logging` package.
		{[]string{"logging", "[bad"}, map[string]pyscan.ImportSection{
			"logging": first, "logging.handlers": first, "os": std, "[bad": first,
		}},
	} {
		v := build(t, root, gym.Options{KnownFirstParty: c.known})
		m := module(t, v, "resources_servers/calc/app.py")
		for mod, want := range c.cases {
			if got := v.ImportSection(m, mod, 0); got != want {
				t.Errorf("known %q: ImportSection(%q) = %v, want %v", c.known, mod, got, want)
			}
		}
		// A relative import stays local, __future__ the future.
		if got := v.ImportSection(m, "my_gym", 1); got != local {
			t.Errorf("known %q: a relative import is %v", c.known, got)
		}
		if got := v.ImportSection(m, "__future__", 0); got != pyscan.SectionFuture {
			t.Errorf("known %q: __future__ is %v", c.known, got)
		}
	}
}
