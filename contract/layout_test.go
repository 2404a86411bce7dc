package contract

import (
	"testing"
)

// The framework's modules moved: flat (nemo_gym/server_utils.py,
// nemo_gym/base_resources_server.py) in the snapshot, nested
// (nemo_gym/server_runtime/..., nemo_gym/config/config_types.py) as the
// seeds name them. The facts, and where the functions a fix imports live,
// are read the same from both; and from a framework_path below the root.
func TestLayouts(t *testing.T) {
	const utils = "from typing import Optional\n\n\n" +
		"def is_nemo_gym_fastapi_entrypoint(file):\n    return False\n\n\n" +
		"def refuse_unsupported_num_workers(server):\n    return None\n\n\n" +
		"class BaseServer:\n    def multiple_workers_unsupported_reason(self) -> Optional[str]:\n        return None\n"
	const resources = "class SimpleResourcesServer:\n    async def close_resources_session(self, body):\n        return None\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		opts  Options
		where string // of the worker refusal
		mod   string // of the entrypoint function
	}{
		{"flat", map[string]string{
			"nemo_gym/__init__.py":              "",
			"nemo_gym/server_utils.py":          utils,
			"nemo_gym/base_resources_server.py": resources,
		}, Options{}, "nemo_gym/server_utils.py:13", "nemo_gym.server_utils"},
		{"nested", map[string]string{
			"nemo_gym/__init__.py":                             "",
			"nemo_gym/server_runtime/__init__.py":              "",
			"nemo_gym/server_runtime/server_utils.py":          utils,
			"nemo_gym/server_runtime/base_resources_server.py": resources,
			"nemo_gym/orchestration/server_supervisor.py":      "def start(server):\n    return getattr(server, 'ray_enabled', False)\n",
		}, Options{}, "nemo_gym/server_runtime/server_utils.py:13", "nemo_gym.server_runtime.server_utils"},
		{"nested below the root", map[string]string{
			"third_party/nemo_gym/__init__.py":                    "",
			"third_party/nemo_gym/server_runtime/server_utils.py": utils,
		}, Options{FrameworkPath: "third_party"}, "third_party/nemo_gym/server_runtime/server_utils.py:13", "nemo_gym.server_runtime.server_utils"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fw := detect(t, tc.files, tc.opts)
			if !fw.Found || fw.Facts[WorkerRefusal] != tc.where {
				t.Errorf("worker refusal at %q (found %v), want %q", fw.Facts[WorkerRefusal], fw.Found, tc.where)
			}
			if tc.name != "nested below the root" && fw.Lacks(CloseSession) {
				t.Errorf("the session close is not read from %v", fw.Facts)
			}
			for _, fn := range []string{EntrypointFunc, RefuseWorkersFunc} {
				if got := fw.ImportOf(fn, ""); got != tc.mod {
					t.Errorf("ImportOf(%s) = %q, want %q", fn, got, tc.mod)
				}
			}
		})
	}
	// No framework: the flat layout's module.
	if got := (&Framework{}).ImportOf(EntrypointFunc, "my_gym"); got != "my_gym.server_utils" {
		t.Errorf("ImportOf without a framework = %q", got)
	}
}
