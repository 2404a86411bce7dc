package gym_test

import (
	"slices"
	"testing"

	"github.com/gymlint/gymlint/gym"
)

// A view of some entrypoints has them in path order, each once, whatever
// the focus's order and repeats, and leaves out paths that are no
// entrypoint; views of one cache share the index of a module both read.
func TestViewFocus(t *testing.T) {
	const base = "common/base.py"
	files := map[string]string{
		base: importSRS + "\n\nclass Base(SimpleResourcesServer):\n    pass\n",
	}
	var all []string
	for _, n := range []string{"d", "a", "c", "b"} {
		p := "resources_servers/" + n + "/app.py"
		files[p] = "from common.base import Base\n\n\nclass S(Base):\n    pass\n"
		all = append(all, p)
	}
	slices.Sort(all)
	c, err := gym.NewCache(writeRepo(t, files), gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	paths := func(v *gym.View) []string {
		var out []string
		for _, e := range v.Entrypoints {
			out = append(out, e.Path)
		}
		return out
	}
	if got := paths(c.View(nil)); !slices.Equal(got, all) {
		t.Errorf("all: %q, want %q", got, all)
	}
	v := c.View([]string{all[3], "resources_servers/none/app.py", all[1], all[3], base})
	if got, want := paths(v), []string{all[1], all[3]}; !slices.Equal(got, want) {
		t.Errorf("focus: %q, want %q", got, want)
	}
	if got := paths(c.View([]string{})); len(got) != 0 {
		t.Errorf("empty focus: %q", got)
	}
	w := c.View([]string{all[0]})
	for _, e := range append(v.Entrypoints, w.Entrypoints...) {
		if len(e.Servers) != 1 || e.Servers[0].Class.Class.Name != "S" {
			t.Errorf("%s: servers %v", e.Path, serverNames(e))
		}
	}
	if !gym.SameIndex(v, w, base) {
		t.Errorf("two views of one cache built two indexes of %s", base)
	}
}
