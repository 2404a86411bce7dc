//go:build ignore

package sessions

import "testing"

// routed adds a setup_webserver that registers the given routes.
func routed(registrations string) string {
	return `    def setup_webserver(self):
        app = super().setup_webserver()
` + registrations + `        return app

`
}

func TestLostSessionAsObservation(t *testing.T) {
	runCases(t, runLostSessionAsObservation, "GL309", []ruleCase{
		{
			name: "HTTP 400 from a registered route",
			files: app("", routed(`        app.post("/{tool_name}")(self.route_tool_call)
`)+seedWrites+`    async def route_tool_call(self, tool_name: str, body, request: Request):
        session_id = request.session[SESSION_ID_KEY]
        if session_id not in self.sessions:  # <- test
            raise HTTPException(status_code=400, detail="Session not initialized. Please call seed_session first.")  # <- a
        return self.sessions[session_id]
`),
			want: []marked{{marker: "# <- a", col: "raise", contains: []string{
				"S.route_tool_call raises HTTP 400 when the session's state self.sessions is missing (`session_id not in self.sessions`)",
				"raise ResourcesSessionLostError(detail) instead (HTTP 404",
			}, related: []string{"# <- test", "# <- write"}}},
		},
		{
			name: "an observation string, a response with an error, and a 409 response",
			files: app("from fastapi.responses import JSONResponse\n", routed(`        app.post("/look")(self.look)
        app.add_api_route("/move", self.move, methods=["POST"])
        app.post("/wait")(self.wait)
`)+seedWrites+`    async def look(self, request: Request):
        state = self.sessions.get(request.session[SESSION_ID_KEY])
        if state is None:
            return "Session not initialized."  # <- a
        return state["view"]

    async def move(self, request: Request, body):
        if request.session[SESSION_ID_KEY] in self.sessions:
            return MoveResponse(output=self.sessions[request.session[SESSION_ID_KEY]]["n"])
        else:
            return MoveResponse(output="", error="no active session")  # <- b

    async def wait(self, request: Request):
        if request.session[SESSION_ID_KEY] not in self.sessions:
            return JSONResponse(status_code=409, content={"detail": "gone"})  # <- c
        return JSONResponse(status_code=200, content={})
`),
			want: []marked{
				{marker: "# <- a", col: "return", contains: []string{"S.look answers with the string \"Session not initialized.\""}},
				{marker: "# <- b", col: "return", contains: []string{"S.move answers with an observation (`MoveResponse(output=\"\", error=\"no active session\")`)", "(the else of `request.session[SESSION_ID_KEY] in self.sessions`)"}},
				{marker: "# <- c", col: "return", contains: []string{"S.wait answers with HTTP 409"}},
			},
		},
		{
			name: "a helper of several routes, a route registered through a wrapper, and one nothing registers",
			files: app("", routed(`        app.post("/a")(log_calls(self.tool_a))
`)+seedWrites+`    def _get_state(self, request):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.sessions:
            raise HTTPException(status_code=400, detail="Session not initialized. Call /seed_session first.")  # <- a
        return self.sessions[sid]

    async def tool_a(self, request: Request):
        return self._get_state(request)["n"]

    async def tool_b(self, request: Request):
        if request.session[SESSION_ID_KEY] not in self.sessions:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_ENTITY, "no session")  # <- b
        return self._get_state(request)["n"]
`),
			want: []marked{
				{marker: "# <- a", col: "raise", contains: []string{"S._get_state (reached from the tool route tool_a) raises HTTP 400"}},
				{marker: "# <- b", col: "raise", contains: []string{"S.tool_b raises HTTP 422"}},
			},
		},
		{
			name: "a handler built by a factory",
			files: app("", routed(`        for name in ("x", "y"):
            app.add_api_route(f"/run_{name}", self._make_handler(name), methods=["POST"])
`)+seedWrites+`    def _make_handler(self, name):
        async def handler(request: Request, body):
            metadata = self.sessions.get(request.session.get(SESSION_ID_KEY))
            if not metadata:
                raise HTTPException(status_code=400, detail="Session not initialized.")  # <- a
            return metadata[name]

        return handler
`),
			want: []marked{{marker: "# <- a", col: "raise", contains: []string{"handler (built by S._make_handler) raises HTTP 400"}}},
		},
		{
			name: "corrected: ResourcesSessionLostError, a plain 404, a lazy start, None",
			files: app("", routed(`        app.post("/a")(self.a)
        app.post("/b")(self.b)
        app.post("/c")(self.c)
        app.post("/d")(self.d)
        app.post("/e")(self.e)
`)+seedWrites+`    async def a(self, request: Request):
        if request.session[SESSION_ID_KEY] not in self.sessions:
            raise ResourcesSessionLostError("session is not seeded or was closed")
        return 1

    async def b(self, request: Request):
        if request.session[SESSION_ID_KEY] not in self.sessions:
            raise HTTPException(status_code=404, detail="gone")
        return 1

    async def c(self, request: Request):
        sid = request.session[SESSION_ID_KEY]
        if sid not in self.sessions:
            self.sessions[sid] = {"n": 0}
            return "started"
        return 1

    async def d(self, request: Request):
        state = self.sessions.setdefault(request.session[SESSION_ID_KEY], {"n": 0})
        if not state:
            return "empty"
        return 1

    async def e(self, request: Request):
        state = self.sessions.get(request.session[SESSION_ID_KEY])
        if state is None:
            return None
        return 1
`),
		},
		{
			name: "session edges, verify and its helpers are not tool routes",
			files: app("", routed(`        app.post("/end_session")(self.end_session)
        app.post("/reset")(self.reset)
`)+seedWrites+`    async def end_session(self, request: Request):
        if request.session[SESSION_ID_KEY] not in self.sessions:
            raise HTTPException(status_code=400, detail="no session")
        del self.sessions[request.session[SESSION_ID_KEY]]

    async def reset(self, request: Request):
        if request.session[SESSION_ID_KEY] not in self.sessions:
            return "fresh"
        return "again"

    def _score(self, sid):
        if sid not in self.sessions:
            raise HTTPException(status_code=400, detail="no session")
        return 1.0

    async def verify(self, request: Request, body):
        return {"reward": self._score(request.session[SESSION_ID_KEY])}
`),
		},
		{
			name: "a server without per-session state",
			files: app("", routed(`        app.post("/look")(self.look)
`)+`    async def look(self, request: Request, body):
        if body.name not in self.catalogue:
            raise HTTPException(status_code=400, detail="unknown")
        return self.catalogue[body.name]
`),
		},
	})
}
