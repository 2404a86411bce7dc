package gym_test

import (
	"testing"

	"github.com/gymlint/gymlint/gym"
)

// The cache notes, for each file it reads for the analysis, whether its
// content holds no suppression directive; a change forgets the note.
func TestHoldsNoDirective(t *testing.T) {
	const a, b = "resources_servers/a/app.py", "resources_servers/b/app.py"
	const ca, cb = "resources_servers/a/configs/a.yaml", "resources_servers/b/configs/b.yaml"
	root := writeRepo(t, map[string]string{
		a:  "class A:\n    pass\n",
		b:  "class B:  # noqa: GL101 refused elsewhere\n    pass\n",
		ca: "a:\n  resources_servers:\n    a:\n      entrypoint: app.py\n",
		cb: "b:  # gymlint: ignore[GL004] kept\n  resources_servers:\n    b:\n      entrypoint: app.py\n",
	})
	c, err := gym.NewCache(root, gym.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.HoldsNoDirective(a) {
		t.Errorf("%s: noted before it was read", a)
	}
	c.View(nil)
	for p, want := range map[string]bool{a: true, b: false, ca: true, cb: false, "absent.py": false} {
		if got := c.HoldsNoDirective(p); got != want {
			t.Errorf("HoldsNoDirective(%s) = %v, want %v", p, got, want)
		}
	}
	c.SetOverlay(a, []byte("class A:  # gymlint: ignore[GL101] why\n    pass\n"))
	if c.HoldsNoDirective(a) {
		t.Errorf("%s: still noted after its content changed", a)
	}
	c.View(nil)
	if c.HoldsNoDirective(a) {
		t.Errorf("%s: noted without a directive, but its new content has one", a)
	}
}
