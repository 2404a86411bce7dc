package contract

import "testing"

// register_protocol_routes on a resources base is the fact; on another
// class it is not.
func TestProtocolRoutes(t *testing.T) {
	fw := detect(t, map[string]string{
		"nemo_gym/__init__.py": "",
		"nemo_gym/resources.py": "class SimpleResourcesServer:\n    async def close_resources_session(self, body):\n        return {}\n\n" +
			"    def register_protocol_routes(self, app):\n        pass\n",
	}, Options{})
	if at := fw.Facts[ProtocolRoutes]; at != "nemo_gym/resources.py:5" {
		t.Errorf("protocol routes at %q, facts %v", at, facts(fw))
	}
	other := detect(t, map[string]string{
		"nemo_gym/__init__.py":  "",
		"nemo_gym/resources.py": "class SimpleResourcesServer:\n    pass\n\n\nclass Helper:\n    def register_protocol_routes(self, app):\n        pass\n",
	}, Options{})
	if other.Has(ProtocolRoutes) {
		t.Errorf("protocol routes from another class")
	}
	if InfoOf(ProtocolRoutes) == nil {
		t.Errorf("no info")
	}
}
