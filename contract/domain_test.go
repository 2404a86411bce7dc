package contract

import "testing"

// TestResourcesDomain: the fact is a method validate_domain_for_resources_server
// of a class of the framework; a module function of that name, or the
// name in a string, is not.
func TestResourcesDomain(t *testing.T) {
	fw := detect(t, map[string]string{
		"nemo_gym/__init__.py": "",
		"nemo_gym/config_types.py": "from pydantic import BaseModel, model_validator\n\n\n" +
			"class BaseServerInstanceConfig(BaseModel):\n    name: str\n\n" +
			"    @model_validator(mode=\"after\")\n    def validate_domain_for_resources_server(self):\n        return self\n",
	}, Options{})
	if !fw.Has(ResourcesDomain) || fw.Facts[ResourcesDomain] != "nemo_gym/config_types.py:8" {
		t.Errorf("resources-domain: %v", fw.Facts)
	}
	old := detect(t, map[string]string{
		"nemo_gym/__init__.py": "",
		"nemo_gym/config_types.py": "NOTE = \"validate_domain_for_resources_server comes later\"\n\n\n" +
			"def validate_domain_for_resources_server(config):\n    return config\n",
	}, Options{})
	if !old.Found || old.Has(ResourcesDomain) {
		t.Errorf("a framework without the validator has resources-domain: %+v", old)
	}
}
