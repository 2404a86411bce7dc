package facts_test

import (
	"strings"
	"testing"

	"github.com/gymlint/gymlint/pyscan"
)

// TestOnceAttrs: an attribute assigned only by start-up code (or only a
// class-body default) is set once; one that a route also assigns, or that
// is augmented, is not; a default factory's lambda gives its body.
func TestOnceAttrs(t *testing.T) {
	f := build(t, map[string]string{"resources_servers/s/app.py": header + `
import random
import time
from pydantic import Field


class S(SimpleResourcesServer):
    table: dict = Field(default_factory=lambda: {"a": 1})
    hits: int = 0

    def model_post_init(self, context):
        self.t0 = time.time()
        if self.config.flag:
            self.rng, self.n = random.Random(1), 3
        self._boot()

    def _boot(self):
        self.last = time.time()

    async def verify(self, body):
        self.last = time.time()
        self.hits += 1
        return self.t0
`})
	s := server(t, f)
	var got []string
	for _, a := range f.OnceAttrs(s) {
		where := "class"
		if a.Func != nil {
			where = a.Func.Name()
		}
		val := ""
		if a.Value != nil {
			val = a.Module.Text(a.Value)
		}
		got = append(got, a.Attr+"@"+where+"="+val+"/"+itoa(len(a.Guards)))
	}
	want := "table@class={\"a\": 1}/0 t0@S.model_post_init=time.time()/0 rng@S.model_post_init=random.Random(1)/1 n@S.model_post_init=3/1"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("OnceAttrs = %s\nwant %s", g, want)
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

// TestExternalName: names resolve through the module's imports; a local
// of the same name, or a repository module, is not the library's.
func TestExternalName(t *testing.T) {
	f := build(t, map[string]string{
		"resources_servers/s/helpers.py": "def seed(x):\n    pass\n",
		"resources_servers/s/app.py": header + `
import numpy as np
from time import monotonic as mono
import helpers as random


class S(SimpleResourcesServer):
    async def verify(self, body):
        np.random.default_rng(1)
        mono()
        random.seed(1)
        time = body
        time.time()
        return 1.0
`})
	s := server(t, f)
	fn := f.Override(s, "verify")
	var got []string
	for _, c := range f.Calls(s, fn) {
		got = append(got, f.CalleeName(nil, fn, c.Call))
	}
	if g, want := strings.Join(got, ","), "numpy.random.default_rng,time.monotonic,,"; g != want {
		t.Errorf("CalleeName = %q, want %q", g, want)
	}
}

// TestAttrReads: reads of self.X, also through a local alias, but not
// assignment targets.
func TestAttrReads(t *testing.T) {
	f := build(t, map[string]string{"resources_servers/s/app.py": header + `

class S(SimpleResourcesServer):
    async def verify(self, body):
        self.a = 1
        r = self.rng
        x = r.random() + self.b.c
        self.d[0] = x
        return x
`})
	s := server(t, f)
	var got []string
	for _, rd := range f.AttrReads(f.Scoring(s)) {
		n := rd.Stack[len(rd.Stack)-1]
		kind := "attr"
		if _, ok := n.(*pyscan.Name); ok {
			kind = "alias"
		}
		got = append(got, rd.Attr+":"+kind)
	}
	if g, want := strings.Join(got, " "), "rng:attr rng:alias b:attr d:attr"; g != want {
		t.Errorf("AttrReads = %q, want %q", g, want)
	}
}

// TestOnceAttrsLazy: an assignment outside start-up code counts as once
// when it is guarded by a test that an attribute its function sets is
// unset, in the function or around every call of it from outside
// start-up; an unguarded caller, or a guard on another attribute, does not.
func TestOnceAttrsLazy(t *testing.T) {
	f := build(t, map[string]string{"resources_servers/s/app.py": header + `
import time


class S(SimpleResourcesServer):
    def model_post_init(self, context):
        self._take()
        self._other()

    def _take(self):
        self.before = time.time()
        self.before_t = time.time()

    def _other(self):
        self.o = time.time()

    def _both(self):
        self.b = time.time()

    async def verify(self, body):
        if self.before is None:
            self._take()
        if not self.o:
            self._other()
        if self.w is None:
            self.w = time.time()
        if self.x is not None:
            pass
        else:
            self.x = time.time()
        if self.before is None:
            self._both()
        return 1.0

    async def step(self, body):
        self._both()
`})
	s := server(t, f)
	var got []string
	for _, a := range f.OnceAttrs(s) {
		got = append(got, a.Attr)
	}
	// o: the guard tests self.o, which _other sets; b: step calls _both
	// unguarded, and verify's guard is on self.before, which _both does not set.
	if g, want := strings.Join(got, " "), "before before_t o w x"; g != want {
		t.Errorf("OnceAttrs = %q, want %q", g, want)
	}
}

// TestExternalNameFramework: a name of the framework package in the
// repository is a library name too.
func TestExternalNameFramework(t *testing.T) {
	f := build(t, map[string]string{
		"nemo_gym/__init__.py":     "",
		"nemo_gym/server_utils.py": "async def request(method, url):\n    pass\n",
		"resources_servers/s/app.py": header + `
from nemo_gym.server_utils import request as fetch


class S(SimpleResourcesServer):
    async def verify(self, body):
        await fetch(method="GET", url="http://x/metrics")
        return 1.0
`})
	s := server(t, f)
	fn := f.Override(s, "verify")
	cs := f.Calls(s, fn)
	if len(cs) == 0 {
		t.Fatal("no calls")
	}
	if g := f.CalleeName(nil, fn, cs[0].Call); g != "nemo_gym.server_utils.request" {
		t.Errorf("CalleeName = %q, want nemo_gym.server_utils.request", g)
	}
}

// TestOnceAttrsSharedWithRoutes: start-up code that a route also runs (a
// reset helper, a handler setup_webserver registers) assigns per request.
func TestOnceAttrsSharedWithRoutes(t *testing.T) {
	f := build(t, map[string]string{"resources_servers/s/app.py": header + `
import time


class S(SimpleResourcesServer):
    def model_post_init(self, context):
        self._reset()
        self.boot = time.time()

    def setup_webserver(self):
        app = super().setup_webserver()
        app.post("/restart")(self.restart)
        return app

    def _reset(self):
        self.t0 = time.time()

    async def restart(self, body):
        self.r = time.time()

    async def seed_session(self, request, body):
        self._reset()
        return {}

    async def verify(self, body):
        return time.time() - self.t0 - self.r - self.boot
`})
	s := server(t, f)
	var got []string
	for _, a := range f.OnceAttrs(s) {
		got = append(got, a.Attr)
	}
	if g, want := strings.Join(got, " "), "boot"; g != want {
		t.Errorf("OnceAttrs = %q, want %q", g, want)
	}
}
