package contract

import (
	"slices"
	"testing"
)

// The reference types are the literal types of the framework's reference
// models: the members of its ServerRef union and the classes named
// *ServerRef that declare type: Literal[...] and name: str. A model of
// another shape, a class of the right shape outside the union with
// another name, and a name in a string are not.
func TestServerRefTypes(t *testing.T) {
	fw := detect(t, map[string]string{
		"nemo_gym/__init__.py": "",
		"nemo_gym/config_types.py": "from typing import Literal, Union\n\nfrom pydantic import BaseModel\n\n\n" +
			"class ModelServerRef(BaseModel):\n    type: Literal[\"responses_api_models\"]\n    name: str\n\n\n" +
			"class ResourcesServerRef(BaseModel):\n    type: Literal[\"resources_servers\"]\n    name: str\n\n\n" +
			"class EnvironmentServerRef(BaseModel):\n    type: typing.Literal[\"environment_servers\"]\n    name: str\n\n\n" +
			"class ToolRef(BaseModel):\n    type: Literal[\"tools\"]\n    name: str\n\n\n" +
			"class BadServerRef(BaseModel):\n    type: Literal[\"bad\"]\n    name: int\n\n\n" +
			"ServerRef = Union[ModelServerRef, ResourcesServerRef, EnvironmentServerRef, AgentRef]\n",
		// A union member in another module of the framework, which names
		// the union.
		"nemo_gym/agents.py": "# see ServerRef\n\n\nclass AgentRef(BaseModel):\n    type: Literal[\"responses_api_agents\"]\n    name: str\n",
		// Look-alikes: a message model with type and name, and the
		// words in a string.
		"nemo_gym/openai_utils.py": "DOC = \"ServerRef\"\n\n\nclass FunctionCall(BaseModel):\n    type: Literal[\"function_call\"] = \"function_call\"\n    name: str\n",
	}, Options{})
	want := []string{"environment_servers", "resources_servers", "responses_api_agents", "responses_api_models"}
	if !slices.Equal(fw.RefTypes, want) || !slices.Equal(fw.ServerRefTypes(), want) {
		t.Errorf("RefTypes = %v, want %v", fw.RefTypes, want)
	}

	// The union written with |, and a model whose Literal allows two
	// types.
	fw = detect(t, map[string]string{
		"nemo_gym/__init__.py": "",
		"nemo_gym/config_types.py": "class Ref(BaseModel):\n    type: Literal[\"resources_servers\", \"environment_servers\"]\n    name: str\n\n\n" +
			"ServerRef = Ref | None\n",
	}, Options{})
	if want := []string{"environment_servers", "resources_servers"}; !slices.Equal(fw.RefTypes, want) {
		t.Errorf("RefTypes = %v, want %v", fw.RefTypes, want)
	}

	// A framework without reference models, and no framework: the
	// defaults.
	old := detect(t, map[string]string{"nemo_gym/__init__.py": "", "nemo_gym/config_types.py": "class ServerRefs:\n    pass\n"}, Options{})
	if !old.Found || old.RefTypes != nil || !slices.Equal(old.ServerRefTypes(), DefaultRefTypes) {
		t.Errorf("no models: %v %v", old.RefTypes, old.ServerRefTypes())
	}
	var none *Framework
	if !slices.Equal(none.ServerRefTypes(), DefaultRefTypes) {
		t.Errorf("no framework: %v", none.ServerRefTypes())
	}
}
