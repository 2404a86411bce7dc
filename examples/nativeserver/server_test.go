package nativeserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gymlint/gymlint/examples/nativeserver"
)

// clock is a settable clock for the close retry window.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// start serves a fresh server on a loopback port for the test's lifetime.
func start(t *testing.T) (*client, *clock) {
	t.Helper()
	clk := &clock{now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	srv := nativeserver.New(nativeserver.Config{CloseRetryWindow: time.Minute, Now: clk.Now})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	host, _, err := net.SplitHostPort(strings.TrimPrefix(ts.URL, "http://"))
	if err != nil || !net.ParseIP(host).IsLoopback() {
		t.Fatalf("test server is not on loopback: %s (%v)", ts.URL, err)
	}
	c := ts.Client()
	c.Timeout = 10 * time.Second
	return &client{t: t, base: ts.URL, http: c}, clk
}

type client struct {
	t    *testing.T
	base string
	http *http.Client
}

// post sends body (a string is sent as is, anything else as JSON) and
// returns the status and the decoded JSON object of the answer.
func (c *client) post(path string, body any, cookies ...*http.Cookie) (int, map[string]any) {
	c.t.Helper()
	status, out, err := c.try(path, body, cookies...)
	if err != nil {
		c.t.Fatal(err)
	}
	return status, out
}

// try is post that returns its failure instead of ending the test, for
// goroutines other than the test's.
func (c *client) try(path string, body any, cookies ...*http.Cookie) (int, map[string]any, error) {
	var raw []byte
	switch b := body.(type) {
	case string:
		raw = []byte(b)
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			return 0, nil, err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(raw))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for _, ck := range cookies {
		req.AddCookie(ck)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return 0, nil, fmt.Errorf("POST %s: reading the answer: %v", path, err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		return 0, nil, fmt.Errorf("POST %s: Content-Type %q, want application/json", path, ct)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		return 0, nil, fmt.Errorf("POST %s: answer %q is not a JSON object: %v", path, data, err)
	}
	return resp.StatusCode, out, nil
}

// expect posts and checks the status, then each wanted field of the answer.
func (c *client) expect(path string, body any, status int, want map[string]any, cookies ...*http.Cookie) map[string]any {
	c.t.Helper()
	got, out := c.post(path, body, cookies...)
	if got != status {
		c.t.Fatalf("POST %s %v: status %d, want %d; body %v", path, body, got, status, out)
	}
	for k, v := range want {
		if gv, ok := out[k]; !ok || gv != v {
			c.t.Errorf("POST %s: %s = %#v, want %#v (body %v)", path, k, out[k], v, out)
		}
	}
	return out
}

// hasDetail checks that a refusal says why.
func hasDetail(t *testing.T, out map[string]any, substr string) {
	t.Helper()
	d, _ := out["detail"].(string)
	if !strings.Contains(d, substr) {
		t.Errorf("detail %q does not contain %q", d, substr)
	}
}

func seedBody(id, episode string, taskData any) map[string]any {
	return map[string]any{
		"resources_session_id": id,
		"episode_id":           episode,
		"task_id":              "task-1",
		"task_data":            taskData,
	}
}

var task = map[string]any{"start": 3, "target": 5}

func TestEpisodeLifecycle(t *testing.T) {
	c, _ := start(t)

	// Seed.
	out := c.expect("/seed_session", seedBody("s1", "ep1", task), http.StatusOK,
		map[string]any{"resources_session_id": "s1"})
	if obs, _ := out["observation"].(string); !strings.Contains(obs, "at 3") {
		t.Errorf("observation %q does not show the start value", obs)
	}
	// A retried seed for the same episode and task returns the session.
	c.expect("/seed_session", seedBody("s1", "ep1", task), http.StatusOK,
		map[string]any{"resources_session_id": "s1"})

	// Tools: by body id, then by the session cookie.
	c.expect("/increment", map[string]any{"resources_session_id": "s1", "amount": 1}, http.StatusOK,
		map[string]any{"value": 4.0, "steps": 1.0})
	c.expect("/increment", map[string]any{"amount": 1}, http.StatusOK,
		map[string]any{"value": 5.0, "steps": 2.0}, &http.Cookie{Name: nativeserver.SessionCookie, Value: "s1"})
	c.expect("/get_value", map[string]any{"resources_session_id": "s1"}, http.StatusOK,
		map[string]any{"value": 5.0})

	// Verify: the counter reached the target; request fields are echoed.
	out = c.expect("/verify", map[string]any{
		"resources_session_id":    "s1",
		"responses_create_params": map[string]any{"input": "count to five"},
		"response":                map[string]any{"id": "resp-1"},
	}, http.StatusOK, map[string]any{"reward": 1.0, "mask_sample": false})
	if rcp, _ := out["responses_create_params"].(map[string]any); rcp["input"] != "count to five" {
		t.Errorf("verify does not echo responses_create_params: %v", out)
	}
	if _, ok := out["failure_kind"]; ok {
		t.Errorf("a scored verify has a failure_kind: %v", out)
	}

	// Close, then close again: idempotent.
	c.expect("/close_session", map[string]any{"resources_session_id": "s1", "episode_id": "ep1"}, http.StatusOK,
		map[string]any{"resources_session_id": "s1"})
	c.expect("/close_session", map[string]any{"resources_session_id": "s1", "episode_id": "ep1"}, http.StatusOK,
		map[string]any{"resources_session_id": "s1"})
	// A retried close naming another episode conflicts with the first.
	out = c.expect("/close_session", map[string]any{"resources_session_id": "s1", "episode_id": "ep2"}, http.StatusConflict, nil)
	hasDetail(t, out, "closed by another episode")

	// A seed after the close is refused: the close fenced the id.
	out = c.expect("/seed_session", seedBody("s1", "ep1", task), http.StatusConflict, nil)
	hasDetail(t, out, "was closed")

	// Verify of the closed (lost) session is a masked sample.
	out = c.expect("/verify", map[string]any{"resources_session_id": "s1", "response": map[string]any{"id": "resp-2"}},
		http.StatusOK, map[string]any{"reward": 0.0, "mask_sample": true, "failure_kind": nativeserver.FailureSessionLost})
	hasLostReason(t, out)

	// A tool call on the lost session is 404.
	out = c.expect("/increment", map[string]any{"resources_session_id": "s1", "amount": 1}, http.StatusNotFound, nil)
	hasDetail(t, out, "not held by this server")
	out = c.expect("/get_value", map[string]any{"resources_session_id": "s1"}, http.StatusNotFound, nil)
	hasDetail(t, out, "not held by this server")
}

func hasLostReason(t *testing.T, out map[string]any) {
	t.Helper()
	if r, _ := out["failure_reason"].(string); !strings.Contains(r, "not held by this server") {
		t.Errorf("failure_reason %q does not say the session is lost", r)
	}
}

func TestLostSessions(t *testing.T) {
	c, _ := start(t)
	// Never seeded: verify is masked, tools are 404, close succeeds.
	out := c.expect("/verify", map[string]any{"resources_session_id": "ghost"}, http.StatusOK,
		map[string]any{"reward": 0.0, "mask_sample": true, "failure_kind": nativeserver.FailureSessionLost})
	hasLostReason(t, out)
	out = c.expect("/verify", map[string]any{}, http.StatusOK, map[string]any{"mask_sample": true},
		&http.Cookie{Name: nativeserver.SessionCookie, Value: "ghost-cookie"})
	hasLostReason(t, out)
	c.expect("/increment", map[string]any{"resources_session_id": "ghost", "amount": 1}, http.StatusNotFound, nil)
	c.expect("/increment", map[string]any{"amount": 1}, http.StatusNotFound, nil) // no id at all
	c.expect("/close_session", map[string]any{"resources_session_id": "ghost", "episode_id": "ep9"}, http.StatusOK,
		map[string]any{"resources_session_id": "ghost"})
	// The close of a never-seeded session fences it against a racing seed.
	c.expect("/seed_session", seedBody("ghost", "ep9", task), http.StatusConflict, nil)
}

func TestUnscoredVerify(t *testing.T) {
	c, _ := start(t)
	c.expect("/seed_session", seedBody("s2", "ep1", task), http.StatusOK, nil)
	c.expect("/verify", map[string]any{"resources_session_id": "s2"}, http.StatusOK,
		map[string]any{"reward": 0.0, "mask_sample": false})
}

func TestSeedRefusals(t *testing.T) {
	c, _ := start(t)
	for name, body := range map[string]any{
		"not JSON":           `{"resources_session_id": `,
		"two values":         `{} {}`,
		"unknown field":      map[string]any{"resources_session_id": "a", "episode_id": "e", "task_data": task, "extra": 1},
		"empty id":           seedBody("", "ep1", task),
		"empty episode":      seedBody("a", "", task),
		"no task_data":       map[string]any{"resources_session_id": "a", "episode_id": "e"},
		"task_data a string": seedBody("a", "ep1", "five"),
		"no target":          seedBody("a", "ep1", map[string]any{"start": 1}),
	} {
		t.Run(name, func(t *testing.T) {
			out := c.expect("/seed_session", body, http.StatusUnprocessableEntity, nil)
			if d, _ := out["detail"].(string); d == "" {
				t.Errorf("422 without detail: %v", out)
			}
		})
	}
	// None of the refused seeds created a session.
	c.expect("/get_value", map[string]any{"resources_session_id": "a"}, http.StatusNotFound, nil)

	// A live session bound to another episode or task conflicts.
	c.expect("/seed_session", seedBody("s3", "ep1", task), http.StatusOK, nil)
	out := c.expect("/seed_session", seedBody("s3", "ep2", task), http.StatusConflict, nil)
	hasDetail(t, out, "another episode or task")
	other := seedBody("s3", "ep1", task)
	other["task_id"] = "task-2"
	c.expect("/seed_session", other, http.StatusConflict, nil)
	// The conflicting seeds left the session as it was.
	c.expect("/get_value", map[string]any{"resources_session_id": "s3"}, http.StatusOK, map[string]any{"value": 3.0})

	// A close naming another episode than the session's conflicts and keeps it.
	c.expect("/close_session", map[string]any{"resources_session_id": "s3", "episode_id": "ep2"}, http.StatusConflict, nil)
	c.expect("/get_value", map[string]any{"resources_session_id": "s3"}, http.StatusOK, nil)
	// Bad close input is 422.
	c.expect("/close_session", `{"resources_session_id": 7}`, http.StatusUnprocessableEntity, nil)
	c.expect("/close_session", map[string]any{"resources_session_id": "s3"}, http.StatusUnprocessableEntity, nil)
	// A bad tool body is 422.
	c.expect("/increment", `{"amount": "one"}`, http.StatusUnprocessableEntity, nil)
}

func TestFenceExpires(t *testing.T) {
	c, clk := start(t)
	c.expect("/seed_session", seedBody("s4", "ep1", task), http.StatusOK, nil)
	c.expect("/close_session", map[string]any{"resources_session_id": "s4", "episode_id": "ep1"}, http.StatusOK, nil)
	clk.Advance(30 * time.Second)
	c.expect("/seed_session", seedBody("s4", "ep1", task), http.StatusConflict, nil)
	// A retried close does not extend the fence.
	c.expect("/close_session", map[string]any{"resources_session_id": "s4", "episode_id": "ep1"}, http.StatusOK, nil)
	clk.Advance(31 * time.Second)
	// After the close retry window the id is new again.
	c.expect("/seed_session", seedBody("s4", "ep2", task), http.StatusOK, nil)
	c.expect("/get_value", map[string]any{"resources_session_id": "s4"}, http.StatusOK, map[string]any{"value": 3.0})
}

func TestMethodNotAllowed(t *testing.T) {
	c, _ := start(t)
	resp, err := c.http.Get(c.base + "/seed_session")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /seed_session: %d, want 405", resp.StatusCode)
	}
}

// TestConcurrentEpisodes runs episodes in parallel; with -race it checks
// that the mutex covers the session state.
func TestConcurrentEpisodes(t *testing.T) {
	c, _ := start(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := "par-" + string(rune('a'+i))
			// Only Errorf here: Fatal must not be called outside the test goroutine.
			for _, step := range []struct {
				path string
				body map[string]any
			}{
				{"/seed_session", seedBody(id, "ep", task)},
				{"/increment", map[string]any{"resources_session_id": id, "amount": 2}},
				{"/verify", map[string]any{"resources_session_id": id}},
				{"/close_session", map[string]any{"resources_session_id": id, "episode_id": "ep"}},
			} {
				status, out, err := c.try(step.path, step.body)
				if err != nil || status != http.StatusOK {
					t.Errorf("POST %s for %s: %d %v %v", step.path, id, status, out, err)
					return
				}
				if step.path == "/verify" && out["reward"] != 1.0 {
					t.Errorf("verify of %s: %v, want reward 1", id, out)
				}
			}
		}()
	}
	wg.Wait()
}

func TestMultipleWorkersUnsupportedReason(t *testing.T) {
	if r := nativeserver.New(nativeserver.Config{}).MultipleWorkersUnsupportedReason(); r == "" {
		t.Fatal("the server keeps process-local state but gives no reason to refuse several workers")
	}
}
