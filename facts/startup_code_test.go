package facts_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/pyscan"
)

// TestStartupCalls: the calls every worker runs at start-up are those of
// the start-up hooks and what they reach (with the if tests that lead to
// them, an early return included), of a lifespan function they install, and of module scope outside
// the main guard; a generator's or a lambda's body, a route's calls and
// the main guard's body are not.
func TestStartupCalls(t *testing.T) {
	f := build(t, map[string]string{
		"resources_servers/s/util.py": "def make(x):\n    return x\n",
		"resources_servers/s/app.py": header + `
import subprocess as sp
from fastapi import FastAPI
from nemo_gym.server_utils import is_nemo_gym_fastapi_entrypoint

boot_module()


class S(SimpleResourcesServer):
    def setup_webserver(self):
        app = super().setup_webserver()
        if self.config.sidecar:
            self._start()
        lazy = (gen_call(i) for i in range(3))
        later = lambda: lambda_call()
        eager = [list_call(i) for i in range(3)]

        async def life(app):
            life_call()
            yield

        app.router.lifespan_context = life
        return app

    def _start(self):
        if self.config.external:
            log_call()
            return
        if not self.config.quiet:
            sp.Popen(["x"])

    async def verify(self, body):
        verify_call()


def module_life(app):
    module_life_call()


api = FastAPI(lifespan=module_life)

if __name__ == "__main__":
    main_call()
elif is_nemo_gym_fastapi_entrypoint(__file__):
    app = S.run_webserver()
`})
	s := server(t, f)
	var got []string
	for _, c := range f.StartupCalls(s, s.Module) {
		where := "module"
		if c.Func != nil {
			where = c.Func.Name()
		}
		var gs []string
		for _, g := range c.Guards {
			t := g.Module.Text(g.Test)
			if g.Negated {
				t = "!" + t
			}
			gs = append(gs, t)
		}
		got = append(got, fmt.Sprintf("%s:%s[%s]", where, c.Module.Text(c.Call.Func), strings.Join(gs, ",")))
	}
	want := []string{
		"S.setup_webserver:super().setup_webserver[]",
		"S.setup_webserver:super[]",
		"S.setup_webserver:self._start[self.config.sidecar]",
		"S.setup_webserver:range[]",
		"S.setup_webserver:list_call[]",
		"S.setup_webserver:range[]",
		"S._start:log_call[self.config.sidecar,self.config.external]",
		"S._start:sp.Popen[self.config.sidecar,!self.config.external,not self.config.quiet]",
		"S.setup_webserver.life:life_call[]",
		"module_life:module_life_call[]",
		"module:boot_module[]",
		"module:FastAPI[]",
		"module:is_nemo_gym_fastapi_entrypoint[]",
		"module:S.run_webserver[]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("StartupCalls =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestExternalNameStartup: names are followed through module imports and aliases
// and through imports in the function; a local that is no import, a
// repository module and a builtin have no outside name.
func TestExternalNameStartup(t *testing.T) {
	f := build(t, map[string]string{
		"resources_servers/s/netutil.py": "def socket():\n    return None\n",
		"resources_servers/s/app.py": header + `
import subprocess
from subprocess import Popen as P
import ray.util
from . import netutil as mysock

Spawn = subprocess.Popen


class S(SimpleResourcesServer):
    def model_post_init(self, context):
        subprocess.Popen([])
        P([])
        Spawn([])
        ray.util.ActorPool([])
        mysock.socket()
        print()
        import socket
        sock = socket.socket()
        sock.bind(("", 1))
        from uvicorn import run as serve
        serve(None)
        popen = make()
        popen.Popen()
`})
	s := server(t, f)
	fn := method(t, f, s, "model_post_init")
	var got []string
	pyscan.InspectBody(fn.Fn.Body, func(n pyscan.Node, _ []pyscan.Node) bool {
		if c, ok := n.(*pyscan.Call); ok {
			got = append(got, s.Module.Text(c.Func)+"="+f.ExternalName(s.Module, fn, c.Func))
		}
		return true
	})
	want := "subprocess.Popen=subprocess.Popen P=subprocess.Popen Spawn=subprocess.Popen ray.util.ActorPool=ray.util.ActorPool " +
		"mysock.socket= print= socket.socket=socket.socket sock.bind= serve=uvicorn.run make= popen.Popen="
	if g := strings.Join(got, " "); g != want {
		t.Errorf("CalleeName:\n got %s\nwant %s", g, want)
	}
	if got := f.ConstructedBy(fn, "sock"); got != "socket.socket" {
		t.Errorf("ConstructedBy(sock) = %q, want socket.socket", got)
	}
	if got := f.ConstructedBy(fn, "popen"); got != "" {
		t.Errorf("ConstructedBy(popen) = %q, want \"\" (a name without an outside name)", got)
	}
}
