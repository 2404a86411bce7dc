package contract

import "testing"

// The MCP token signer is a module function of the framework named
// mcp_session_token_serializer; a method or a name in a string is not.
func TestMCPTokenSerializer(t *testing.T) {
	fw := detect(t, map[string]string{
		"nemo_gym/__init__.py": "",
		"nemo_gym/base_resources_server.py": "RESERVED_MCP_TOOL_NAMES = frozenset({\"verify\"})\n\n\n" +
			"def mcp_session_token_serializer(secret):\n    return None\n",
	}, Options{})
	if at := fw.Facts[MCPTokenSerializer]; at != "nemo_gym/base_resources_server.py:4" {
		t.Errorf("signer found at %q", at)
	}
	if !fw.Has(ReservedMCPToolNames) {
		t.Errorf("no reserved names")
	}
	fw = detect(t, map[string]string{
		"nemo_gym/__init__.py": "",
		"nemo_gym/base_resources_server.py": "DOC = \"mcp_session_token_serializer\"\n\n\n" +
			"class SimpleResourcesServer:\n    def mcp_session_token_serializer(self):\n        pass\n",
	}, Options{})
	if fw.Has(MCPTokenSerializer) {
		t.Errorf("signer found in a string or a method")
	}
}
