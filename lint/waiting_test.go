package lint_test

import (
	"strings"
	"testing"

	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/internal/testtree"
	"github.com/gymlint/gymlint/lint"
)

// TestWaitingEntrypointsParsedOnce: an entrypoint that waits for its group
// (its server shares a base class with another's) keeps its parsed module
// until the group is analysed while the waiting entrypoints' source is
// within the session's bound, and is parsed again past it. The findings
// are the same either way.
func TestWaitingEntrypointsParsedOnce(t *testing.T) {
	files := map[string]string{
		"resources_servers/common/base.py": "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\nclass SharedBase(SimpleResourcesServer):\n    pass\n",
	}
	for i, n := range []string{"a", "b", "c", "d"} {
		imp, base := "from nemo_gym.base_resources_server import SimpleResourcesServer", "SimpleResourcesServer"
		if i < 3 { // a, b and c wait for their group
			imp, base = "from resources_servers.common.base import SharedBase", "SharedBase"
		}
		cls := "Server" + strings.ToUpper(n)
		files["resources_servers/"+n+"/app.py"] = imp + "\n\n\nclass " + cls + "(" + base + "):\n    pass\n\n\nif __name__ == \"__main__\":\n    " + cls + ".run_webserver()\n"
		files["resources_servers/"+n+"/configs/"+n+".yaml"] = n + ":\n  resources_servers:\n    " + n + ":\n      entrypoint: app.py\n      num_workers: 2\n"
	}
	root := testtree.New(t, files)
	run := func(bound int64) (parses, modules int, found []string) {
		t.Helper()
		s, err := lint.NewSessionWith(root, gym.Options{Jobs: 2}, nil, lint.SessionOptions{OneShot: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		lint.SetWaitingBound(s, bound)
		_, st := s.Update(nil)
		if st.Analysed != 4 || st.Groups != 2 {
			t.Fatalf("bound %d: %+v, want 4 entrypoints in 2 groups", bound, st)
		}
		return s.Cache().Parsed(), s.Cache().ModulesParsed(), keys(s.Diagnostics())
	}
	parses, modules, within := run(1 << 20)
	if parses != modules {
		t.Errorf("within the bound: %d parses of %d modules, want each parsed once", parses, modules)
	}
	again, _, past := run(0)
	if again != parses+3 {
		t.Errorf("past the bound: %d parses, want %d (a, b and c parsed again for their group)", again, parses+3)
	}
	if strings.Join(within, "\n") != strings.Join(past, "\n") {
		t.Errorf("the findings differ:\nwithin the bound:\n%s\npast it:\n%s", strings.Join(within, "\n"), strings.Join(past, "\n"))
	}
	if len(within) == 0 {
		t.Error("no findings: the servers should have GL101's (num_workers: 2, no app)")
	}
}
