// Package toolstatus is the example server whose tools answer a session it no
// longer holds with 400 and with an observation (GL353).
package toolstatus

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// DefaultCloseRetryWindow is how long a close fences its session when the
// Config does not say.
const DefaultCloseRetryWindow = 10 * time.Minute

// FailureSessionLost is the failure_kind of a masked verify for a session
// this server does not hold.
const FailureSessionLost = "session_lost"

// SessionCookie is the cookie NeMo Gym's session routing carries the session
// id in.
const SessionCookie = "session_id"

// maxBodyBytes bounds every request body.
const maxBodyBytes = 1 << 20

// Config configures a Server.
type Config struct {
	// CloseRetryWindow is how long a closed session stays fenced: a seed
	// for it within the window is refused. Zero means
	// DefaultCloseRetryWindow.
	CloseRetryWindow time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Server is the counter resources server. Create it with New and serve
// Handler.
type Server struct {
	mux    *http.ServeMux
	window time.Duration
	now    func() time.Time

	// mu guards sessions, fences and fenceOrder.
	mu sync.Mutex
	// sessions are the live sessions by resources_session_id.
	sessions map[string]*session
	// fences are the sessions closed within the close retry window.
	fences map[string]fence
	// fenceOrder lists fences in the order they expire (every fence lasts
	// the same window), so that expired ones are dropped from the front.
	fenceOrder []fencedID
}

// session is the state of one live session.
type session struct {
	episodeID string
	taskID    string
	value     int
	target    int
	steps     int
}

// fence is what a close records for its session.
type fence struct {
	episodeID string // the episode of the first close
	expires   time.Time
}

type fencedID struct {
	id      string
	expires time.Time
}

// SeedRequest is the body of /seed_session.
type SeedRequest struct {
	ResourcesSessionID string          `json:"resources_session_id"`
	EpisodeID          string          `json:"episode_id"`
	TaskID             string          `json:"task_id"`
	TaskData           json.RawMessage `json:"task_data"`
}

// CounterTask is the task_data of a seed.
type CounterTask struct {
	Start  int  `json:"start"`
	Target *int `json:"target"`
}

// SeedResponse is the answer of /seed_session.
type SeedResponse struct {
	ResourcesSessionID string `json:"resources_session_id"`
	Observation        string `json:"observation"`
}

// CloseRequest is the body of /close_session.
type CloseRequest struct {
	ResourcesSessionID string `json:"resources_session_id"`
	EpisodeID          string `json:"episode_id"`
}

// CloseResponse is the answer of /close_session.
type CloseResponse struct {
	ResourcesSessionID string `json:"resources_session_id"`
}

// IncrementRequest is the body of the /increment tool.
type IncrementRequest struct {
	ResourcesSessionID string `json:"resources_session_id,omitempty"`
	Amount             int    `json:"amount"`
}

// GetValueRequest is the body of the /get_value tool.
type GetValueRequest struct {
	ResourcesSessionID string `json:"resources_session_id,omitempty"`
}

// CounterResponse is the answer of both tools.
type CounterResponse struct {
	Value int `json:"value"`
	Steps int `json:"steps"`
}

// VerifyRequest is the body of /verify.
type VerifyRequest struct {
	ResourcesSessionID    string          `json:"resources_session_id,omitempty"`
	ResponsesCreateParams json.RawMessage `json:"responses_create_params,omitempty"`
	Response              json.RawMessage `json:"response,omitempty"`
}

// VerifyResponse is the answer of /verify: the request's fields, the reward,
// and for a session this server does not hold, the masked sample's fields.
type VerifyResponse struct {
	ResponsesCreateParams json.RawMessage `json:"responses_create_params,omitempty"`
	Response              json.RawMessage `json:"response,omitempty"`
	Reward                float64         `json:"reward"`
	MaskSample            bool            `json:"mask_sample"`
	FailureKind           string          `json:"failure_kind,omitempty"`
	FailureReason         string          `json:"failure_reason,omitempty"`
}

// ErrorResponse is the body of every refusal.
type ErrorResponse struct {
	Detail string `json:"detail"`
}

// New returns a server with its routes registered.
func New(cfg Config) *Server {
	s := &Server{
		mux:      http.NewServeMux(),
		window:   cfg.CloseRetryWindow,
		now:      cfg.Now,
		sessions: map[string]*session{},
		fences:   map[string]fence{},
	}
	if s.window <= 0 {
		s.window = DefaultCloseRetryWindow
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.mux.HandleFunc("POST /seed_session", s.seedSession)
	s.mux.HandleFunc("POST /increment", s.increment)
	s.mux.HandleFunc("POST /get_value", s.getValue)
	s.mux.HandleFunc("POST /verify", s.verify)
	s.mux.HandleFunc("POST /close_session", s.closeSession)
	return s
}

// Handler is the server's HTTP handler.
func (s *Server) Handler() http.Handler { return s.mux }

// MultipleWorkersUnsupportedReason says why the server must run as one
// worker process.
func (s *Server) MultipleWorkersUnsupportedReason() string {
	return "sessions and close fences are kept in this process's memory by resources_session_id; " +
		"with several workers a tool call, verify or close could reach a worker that never saw the seed"
}

func (s *Server) seedSession(w http.ResponseWriter, r *http.Request) {
	var req SeedRequest
	if err := decodeJSON(w, r, &req, true); err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	if req.ResourcesSessionID == "" || req.EpisodeID == "" {
		writeError(w, http.StatusUnprocessableEntity, "resources_session_id and episode_id must not be empty")
		return
	}
	task, err := parseTask(req.TaskData)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	id := req.ResourcesSessionID

	s.mu.Lock()
	if _, fenced := s.fenceLocked(id); fenced {
		s.mu.Unlock()
		writeError(w, http.StatusConflict, fmt.Sprintf("session %q was closed; a seed after its close is refused", id))
		return
	}
	sess, ok := s.sessions[id]
	if ok && (sess.episodeID != req.EpisodeID || sess.taskID != req.TaskID) {
		s.mu.Unlock()
		writeError(w, http.StatusConflict, fmt.Sprintf("session %q is bound to another episode or task", id))
		return
	}
	if !ok {
		sess = &session{episodeID: req.EpisodeID, taskID: req.TaskID, value: task.Start, target: *task.Target}
		s.sessions[id] = sess
	}
	resp := SeedResponse{ResourcesSessionID: id, Observation: observation(sess)}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}

func (s *Server) increment(w http.ResponseWriter, r *http.Request) {
	var req IncrementRequest
	if err := decodeJSON(w, r, &req, false); err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	id := sessionID(r, req.ResourcesSessionID)

	s.mu.Lock()
	sess, ok := s.sessions[id]
	if !ok {
		s.mu.Unlock()
		writeError(w, http.StatusBadRequest, lostDetail(id)) // want `the tool handler answers a session it no longer holds with 400`
		return
	}
	sess.value += req.Amount
	sess.steps++
	resp := CounterResponse{Value: sess.value, Steps: sess.steps}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}

func (s *Server) getValue(w http.ResponseWriter, r *http.Request) {
	var req GetValueRequest
	if err := decodeJSON(w, r, &req, false); err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	id := sessionID(r, req.ResourcesSessionID)

	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.sessions[id]
	if sess == nil {
		writeJSON(w, http.StatusOK, CounterResponse{}) // want `with 200`
		return
	}
	writeJSON(w, http.StatusOK, CounterResponse{Value: sess.value, Steps: sess.steps})
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	var req VerifyRequest
	if err := decodeJSON(w, r, &req, false); err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	id := sessionID(r, req.ResourcesSessionID)

	s.mu.Lock()
	sess, ok := s.sessions[id]
	var value, target int
	if ok {
		value, target = sess.value, sess.target
	}
	s.mu.Unlock()

	if !ok {
		writeJSON(w, http.StatusOK, VerifyResponse{
			ResponsesCreateParams: req.ResponsesCreateParams,
			Response:              req.Response,
			Reward:                0,
			MaskSample:            true,
			FailureKind:           FailureSessionLost,
			FailureReason:         lostDetail(id),
		})
		return
	}
	reward := 0.0
	if value == target {
		reward = 1
	}
	writeJSON(w, http.StatusOK, VerifyResponse{
		ResponsesCreateParams: req.ResponsesCreateParams,
		Response:              req.Response,
		Reward:                reward,
	})
}

func (s *Server) closeSession(w http.ResponseWriter, r *http.Request) {
	var req CloseRequest
	if err := decodeJSON(w, r, &req, true); err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	if req.ResourcesSessionID == "" || req.EpisodeID == "" {
		writeError(w, http.StatusUnprocessableEntity, "resources_session_id and episode_id must not be empty")
		return
	}
	id := req.ResourcesSessionID

	s.mu.Lock()
	if f, fenced := s.fenceLocked(id); fenced {
		// A retried close: it keeps the first close's record and expiry.
		s.mu.Unlock()
		if f.episodeID != req.EpisodeID {
			writeError(w, http.StatusConflict, fmt.Sprintf("session %q was closed by another episode", id))
			return
		}
		writeJSON(w, http.StatusOK, CloseResponse{ResourcesSessionID: id})
		return
	}
	if sess, ok := s.sessions[id]; ok && sess.episodeID != req.EpisodeID {
		s.mu.Unlock()
		writeError(w, http.StatusConflict, fmt.Sprintf("session %q belongs to another episode", id))
		return
	}
	delete(s.sessions, id)
	expires := s.now().Add(s.window)
	s.fences[id] = fence{episodeID: req.EpisodeID, expires: expires}
	s.fenceOrder = append(s.fenceOrder, fencedID{id: id, expires: expires})
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, CloseResponse{ResourcesSessionID: id})
}

// fenceLocked returns the session's fence when it has one that has not
// expired, and drops the fences that have. The caller holds s.mu.
func (s *Server) fenceLocked(id string) (fence, bool) {
	now := s.now()
	for len(s.fenceOrder) > 0 && !now.Before(s.fenceOrder[0].expires) {
		old := s.fenceOrder[0]
		s.fenceOrder = s.fenceOrder[1:]
		if f, ok := s.fences[old.id]; ok && f.expires.Equal(old.expires) {
			delete(s.fences, old.id)
		}
	}
	f, ok := s.fences[id]
	return f, ok
}

// parseTask validates a seed's task_data.
func parseTask(data json.RawMessage) (CounterTask, error) {
	var task CounterTask
	if len(data) == 0 {
		return task, errors.New("task_data is required")
	}
	if err := json.Unmarshal(data, &task); err != nil {
		return task, fmt.Errorf("task_data is not a counter task: %v", err)
	}
	if task.Target == nil {
		return task, errors.New("task_data.target is required")
	}
	return task, nil
}

func observation(sess *session) string {
	return fmt.Sprintf("The counter is at %d. Bring it to %d with the increment tool.", sess.value, sess.target)
}

func lostDetail(id string) string {
	return fmt.Sprintf("session %q is not held by this server (never seeded, closed, or lost)", id)
}

// sessionID is the body's resources_session_id, or else the session cookie.
func sessionID(r *http.Request, fromBody string) string {
	if fromBody != "" {
		return fromBody
	}
	if c, err := r.Cookie(SessionCookie); err == nil {
		return c.Value
	}
	return ""
}

// decodeJSON decodes one JSON value from the request body; strict refuses
// unknown fields, as the seed and close bodies of NeMo Gym do.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any, strict bool) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid JSON body: %v", err)
	}
	if dec.More() {
		return errors.New("invalid JSON body: more than one value")
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, detail string) {
	writeJSON(w, status, ErrorResponse{Detail: detail})
}
