package engine

import (
	"testing"
)

// A scan takes the framework modules that contract detection parsed
// instead of parsing them again: here the base class's module, which
// the view parses to resolve the server's bases.
func TestScanTakesDetectionsModules(t *testing.T) {
	root := writeTree(t, map[string]string{
		"nemo_gym/__init__.py": "",
		"nemo_gym/base_resources_server.py": "class SimpleResourcesServer:\n" +
			"    def multiple_workers_unsupported_reason(self):\n        return None\n",
		"resources_servers/calc/app.py": "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\n" +
			"class Calc(SimpleResourcesServer):\n    pass\n",
		"resources_servers/calc/configs/calc.yaml": "calc:\n  resources_servers:\n    calc:\n      entrypoint: app.py\n",
	})
	e, err := New(Options{Root: root, NoGo: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Update(nil)
	c := s.Cache()
	// Two modules: the entrypoint, parsed; the framework's, taken.
	if c.ModulesParsed() != 2 || c.Parsed() != 1 {
		t.Fatalf("%d modules, %d parsed by the scan; want 2 and 1", c.ModulesParsed(), c.Parsed())
	}
}
