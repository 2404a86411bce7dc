//go:build ignore

package workers

import (
	"testing"

	"github.com/gymlint/gymlint/diag"
)

const deadAppGuard = `

if __name__ == "__main__":
    EchoServer.run_webserver()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = EchoServer.run_webserver()  # noqa: F401
`

func TestUnreachableApp(t *testing.T) {
	const app = "resources_servers/echo/app.py"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []conflictWant
	}{
		{
			name:  "app and an unconditional refusal",
			files: map[string]string{app: rfMethod(`        return "Episodes are kept in memory by the env_id in the request body."`) + deadAppGuard},
			want: []conflictWant{{at: app + ":15:5", contains: []string{
				"module-level app of resources_servers/echo/app.py is never served",
				`EchoServer.multiple_workers_unsupported_reason() always returns "Episodes are kept in memory by the env_id in the request body."`,
				"remove the app if the server is not safe with several workers, or drop the refusal",
			}, related: []string{app + ":8"}}},
		},
		{
			name:  "an f-string reason",
			files: map[string]string{app: rfMethod(`        return f"Each worker starts a sidecar on port {self.config.port}."`) + deadAppGuard},
			want:  []conflictWant{{at: app + ":15:5", contains: []string{"returns a reason on every path"}}},
		},
		{
			name: "refusal inherited from a parent in another module",
			files: map[string]string{
				"resources_servers/base/app.py": rfHeader + "class BaseEnvServer(SimpleResourcesServer):\n    def multiple_workers_unsupported_reason(self):\n        return \"Environments are kept in memory.\"\n",
				app:                             rfHeader + "from resources_servers.base.app import BaseEnvServer\n\n\nclass EchoServer(BaseEnvServer):\n    pass\n" + deadAppGuard,
			},
			want: []conflictWant{
				{at: app + ":16:5", contains: []string{
					"EchoServer's multiple_workers_unsupported_reason() (inherited from BaseEnvServer in resources_servers/base/app.py) always returns",
				}, related: []string{"resources_servers/base/app.py:7"}},
			},
		},
		{
			name:  "app and a conditional refusal",
			files: map[string]string{app: rfMethod("        if self.config.compute_comet:\n            return \"gpu\"\n        return None") + deadAppGuard},
		},
		{
			name:  "app and a delegating refusal",
			files: map[string]string{app: rfMethod("        return self._why()") + deadAppGuard},
		},
		{
			name:  "app and no refusal",
			files: map[string]string{app: rfHeader + "class EchoServer(SimpleResourcesServer):\n    pass\n" + deadAppGuard},
		},
		{
			name:  "unconditional refusal and no app",
			files: map[string]string{app: rfMethod(`        return "r"`) + "\n\nif __name__ == \"__main__\":\n    EchoServer.run_webserver()\n"},
		},
		{
			name:  "app only inside the guard's body is not an app",
			files: map[string]string{app: rfMethod(`        return "r"`) + "\n\nif __name__ == \"__main__\":\n    app = EchoServer.run_webserver()\n"},
		},
		{
			name: "two servers: the app's own class decides",
			files: map[string]string{app: rfHeader + `class OtherServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "r"


class EchoServer(SimpleResourcesServer):
    pass
` + deadAppGuard},
		},
		{
			name:  "a syntax error suppresses the rule",
			files: map[string]string{app: rfMethod(`        return "r"`) + deadAppGuard + "\ndef broken(:\n    pass\n"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := rfRun(t, runUnreachableApp, tc.files)
			conflictCheck(t, ds, tc.want, "GL106", "unreachable-app", diag.Warning)
		})
	}
}
