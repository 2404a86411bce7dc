package protocol

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Standard JSON-RPC 2.0 error codes and the LSP-specific ones.
const (
	ParseError     int64 = -32700
	InvalidRequest int64 = -32600
	MethodNotFound int64 = -32601
	InvalidParams  int64 = -32602
	InternalError  int64 = -32603

	// ServerNotInitialized is returned for requests received before initialize.
	ServerNotInitialized int64 = -32002
	// RequestCancelled is returned for requests cancelled with $/cancelRequest.
	RequestCancelled int64 = -32800
	// ContentModified is returned when the document changed while a request
	// was being computed and the result is no longer valid.
	ContentModified int64 = -32801
	// RequestFailed is returned when a syntactically valid request failed.
	RequestFailed int64 = -32803
)

// DefaultMaxMessageSize is the largest message body Read accepts unless
// Conn.MaxMessageSize says otherwise.
const DefaultMaxMessageSize = 64 << 20

const (
	// maxHeaderLine bounds one header line, terminator included.
	maxHeaderLine = 1024
	// maxHeaderLines bounds the number of header lines of one message.
	maxHeaderLines = 32
	// readBufferSize is the size of the buffered reader; it must be at least
	// maxHeaderLine.
	readBufferSize = 32 << 10
	// bodyChunk is how much body is allocated ahead of the data actually
	// received, so a large Content-Length followed by nothing costs little.
	bodyChunk = 1 << 20
)

// Causes carried by a *ReadError; test them with errors.Is.
var (
	ErrMissingContentLength = errors.New("missing Content-Length header")
	ErrInvalidContentLength = errors.New("invalid Content-Length header")
	ErrMalformedHeader      = errors.New("malformed header")
	ErrHeaderTooLong        = errors.New("header line too long")
	ErrTooManyHeaders       = errors.New("too many header lines")
	ErrMessageTooLarge      = errors.New("message too large")
	ErrInvalidJSON          = errors.New("invalid JSON")
	ErrInvalidMessage       = errors.New("invalid JSON-RPC message")
)

// ReadError describes a message Read could not deliver.
//
// A non-fatal ReadError means the message was framed correctly and has been
// consumed, but its body is not valid JSON (Code is ParseError), is not a
// valid JSON-RPC 2.0 message (Code is InvalidRequest), or exceeded the size
// limit and was skipped (Code is InvalidRequest). The caller answers it
// when ReplyID says so, with Reply(id, nil, e.RPCError()), and calls Read
// again.
//
// A fatal ReadError means the header block was malformed (missing, negative,
// non-numeric or conflicting Content-Length, a line without a colon, a line or
// block that is too long): the end of the message cannot be known, so the
// stream can no longer be framed. The caller may still send a parse error
// with a null id, then must stop reading.
type ReadError struct {
	Err   error // the cause; wraps one of the Err* variables
	Code  int64 // ParseError or InvalidRequest
	ID    *ID   // the id of the offending message, if it could be decoded
	Fatal bool  // the stream can no longer be framed
}

func (e *ReadError) Error() string { return "jsonrpc: " + e.Err.Error() }

func (e *ReadError) Unwrap() error { return e.Err }

// ReplyID says whether the reader of a non-fatal ReadError answers it, and
// with which id. A body that is not JSON is answered with id null, as
// JSON-RPC 2.0 requires of a parse error (no id can be read from it; the
// peer may have meant a request, which must not go unanswered); an invalid
// message whose id was read, with that id. Any other (a fatal error, or a
// message that was JSON but had no readable id: it may have been a
// notification, which is never answered) is not answered.
func (e *ReadError) ReplyID() (*ID, bool) {
	switch {
	case e.Fatal:
		return nil, false
	case e.Code == ParseError:
		return &ID{}, true
	case e.ID != nil:
		return e.ID, true
	}
	return nil, false
}

// RPCError returns the JSON-RPC error object to send in reply.
func (e *ReadError) RPCError() *Error {
	return &Error{Code: e.Code, Message: e.Err.Error()}
}

// IsFatal reports whether err, returned by Conn.Read, ends the stream. Every
// error is fatal (io.EOF at a message boundary, io.ErrUnexpectedEOF inside a
// message, any error of the underlying reader, a fatal *ReadError) except a
// *ReadError whose Fatal field is false.
func IsFatal(err error) bool {
	if err == nil {
		return false
	}
	var re *ReadError
	if errors.As(err, &re) {
		return re.Fatal
	}
	return true
}

// Error is a JSON-RPC 2.0 error object. When decoded by Read, Data holds the
// raw json.RawMessage of the data member (nil when absent).
type Error struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code int64, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

func (e *Error) Error() string {
	return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message)
}

// UnmarshalJSON decodes an error object, keeping data as json.RawMessage.
func (e *Error) UnmarshalJSON(b []byte) error {
	var w struct {
		Code    *int64          `json:"code"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if w.Code == nil {
		return errors.New("error object without code")
	}
	*e = Error{Code: *w.Code}
	if w.Message != nil {
		e.Message = *w.Message
	}
	if len(w.Data) > 0 {
		e.Data = w.Data
	}
	return nil
}

type idKind uint8

const (
	idNull idKind = iota
	idNumber
	idString
)

// ID is a JSON-RPC request id: a number, a string, or null. Numbers keep the
// exact literal received (9007199254740993 is not rounded through float64)
// and marshal back identically. The zero ID is null. ID is comparable, so it
// can key a map of pending requests.
type ID struct {
	kind  idKind
	value string // the number literal or the string value
}

// IntID returns a numeric id.
func IntID(n int64) *ID { return &ID{kind: idNumber, value: strconv.FormatInt(n, 10)} }

// StringID returns a string id.
func StringID(s string) *ID { return &ID{kind: idString, value: s} }

// IsNull reports whether id is the null id.
func (id ID) IsNull() bool { return id.kind == idNull }

// IsString reports whether id is a string id.
func (id ID) IsString() bool { return id.kind == idString }

// IsNumber reports whether id is a numeric id.
func (id ID) IsNumber() bool { return id.kind == idNumber }

// Int64 returns a numeric id as an int64; ok is false for string and null
// ids and for numbers that are not int64 integers.
func (id ID) Int64() (n int64, ok bool) {
	if id.kind != idNumber {
		return 0, false
	}
	n, err := strconv.ParseInt(id.value, 10, 64)
	return n, err == nil
}

// StringValue returns a string id's value; ok is false otherwise.
func (id ID) StringValue() (s string, ok bool) {
	return id.value, id.kind == idString
}

// String formats id for logs: 1, "abc" (quoted) or null.
func (id ID) String() string {
	switch id.kind {
	case idNumber:
		return id.value
	case idString:
		return strconv.Quote(id.value)
	}
	return "null"
}

// MarshalJSON writes the id as received.
func (id ID) MarshalJSON() ([]byte, error) {
	switch id.kind {
	case idNumber:
		return []byte(id.value), nil
	case idString:
		return json.Marshal(id.value)
	}
	return []byte("null"), nil
}

// UnmarshalJSON accepts a JSON number, string or null.
func (id *ID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return errors.New("empty id")
	case string(b) == "null":
		*id = ID{}
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*id = ID{kind: idString, value: s}
	case b[0] == '-' || ('0' <= b[0] && b[0] <= '9'):
		if !json.Valid(b) {
			return fmt.Errorf("invalid id %q", b)
		}
		*id = ID{kind: idNumber, value: string(b)}
	default:
		return fmt.Errorf("id must be a number, a string or null, not %.32s", b)
	}
	return nil
}

// Message is one JSON-RPC 2.0 message: a request (Method and ID), a
// notification (Method, no ID) or a response (ID, and Result or Error).
//
// Params and Result hold the raw JSON received. A "params": null member is
// treated as absent (Params is nil); a response's "result": null is kept as
// the four bytes null. A response to a message whose id could not be read has
// a null ID (non-nil, IsNull).
type Message struct {
	JSONRPC string
	ID      *ID
	Method  string
	Params  json.RawMessage
	Result  json.RawMessage
	Error   *Error
}

// IsRequest reports whether m is a request (it expects a response).
func (m *Message) IsRequest() bool { return m.Method != "" && m.ID != nil }

// IsNotification reports whether m is a notification.
func (m *Message) IsNotification() bool { return m.Method != "" && m.ID == nil }

// IsResponse reports whether m is a response to a request we sent.
func (m *Message) IsResponse() bool { return m.Method == "" && m.ID != nil }

// wireMessage is the on-the-wire form of every message we write.
type wireMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *ID             `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// wireResponse always carries an id, null if unknown.
type wireResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *ID             `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// MarshalJSON writes m in the shape its fields imply: a request or
// notification when Method is set, otherwise a response (with "id": null when
// ID is nil, and "result": null when neither Result nor Error is set).
func (m Message) MarshalJSON() ([]byte, error) {
	if m.Method != "" {
		params := m.Params
		if string(bytes.TrimSpace(params)) == "null" {
			params = nil
		}
		return marshal(wireMessage{JSONRPC: "2.0", ID: m.ID, Method: m.Method, Params: params})
	}
	resp := wireResponse{JSONRPC: "2.0", ID: m.ID, Error: m.Error}
	if m.Error == nil {
		resp.Result = m.Result
		if len(resp.Result) == 0 {
			resp.Result = json.RawMessage("null")
		}
	}
	return marshal(resp)
}

// Conn reads and writes LSP base-protocol messages (a header block with
// Content-Length, then a JSON-RPC body). Read must be called from one
// goroutine; the write methods may be called concurrently.
type Conn struct {
	// MaxMessageSize is the largest body Read accepts; larger messages are
	// skipped without being buffered. NewConn sets DefaultMaxMessageSize;
	// zero or negative also means DefaultMaxMessageSize.
	MaxMessageSize int64

	r *bufio.Reader

	wmu  sync.Mutex
	w    io.Writer
	werr error // sticky: after a failed write the stream is corrupt

	lastID atomic.Int64
}

// NewConn returns a Conn reading from r and writing to w.
func NewConn(r io.Reader, w io.Writer) *Conn {
	return &Conn{
		MaxMessageSize: DefaultMaxMessageSize,
		r:              bufio.NewReaderSize(r, readBufferSize),
		w:              w,
	}
}

// Read reads the next message. See ReadError and IsFatal for which errors
// allow reading on. At a clean end of input it returns io.EOF; if the input
// ends inside a message, io.ErrUnexpectedEOF.
func (c *Conn) Read() (*Message, error) {
	n, err := c.readHeader()
	if err != nil {
		return nil, err
	}
	limit := c.MaxMessageSize
	if limit <= 0 {
		limit = DefaultMaxMessageSize
	}
	if n > limit {
		// Skip the body so the next message can be read; nothing is buffered.
		if _, err := io.CopyN(io.Discard, c.r, n); err != nil {
			return nil, &ReadError{
				Err:   fmt.Errorf("%w: %d bytes (limit %d); input ended while skipping it: %w", ErrMessageTooLarge, n, limit, unexpected(err)),
				Code:  InvalidRequest,
				Fatal: true,
			}
		}
		return nil, &ReadError{
			Err:  fmt.Errorf("%w: %d bytes (limit %d)", ErrMessageTooLarge, n, limit),
			Code: InvalidRequest,
		}
	}
	body, err := readBody(c.r, n)
	if err != nil {
		return nil, unexpected(err)
	}
	return decodeMessage(body)
}

// unexpected turns io.EOF inside a message into io.ErrUnexpectedEOF.
func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

func fatalHeader(err error) *ReadError {
	return &ReadError{Err: err, Code: ParseError, Fatal: true}
}

// readHeader reads a header block and returns the Content-Length.
func (c *Conn) readHeader() (int64, error) {
	length := int64(-1)
	for i := 0; ; i++ {
		if i == maxHeaderLines {
			return 0, fatalHeader(fmt.Errorf("%w (more than %d)", ErrTooManyHeaders, maxHeaderLines))
		}
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			switch {
			case errors.Is(err, bufio.ErrBufferFull):
				return 0, fatalHeader(fmt.Errorf("%w (more than %d bytes)", ErrHeaderTooLong, maxHeaderLine))
			case err == io.EOF && i == 0 && len(line) == 0:
				return 0, io.EOF
			}
			return 0, unexpected(err)
		}
		if len(line) > maxHeaderLine {
			return 0, fatalHeader(fmt.Errorf("%w (%d bytes, limit %d)", ErrHeaderTooLong, len(line), maxHeaderLine))
		}
		line = bytes.TrimSuffix(line[:len(line)-1], []byte{'\r'})
		if len(line) == 0 {
			if length < 0 {
				return 0, fatalHeader(ErrMissingContentLength)
			}
			return length, nil
		}
		name, value, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			return 0, fatalHeader(fmt.Errorf("%w: %q", ErrMalformedHeader, truncate(line)))
		}
		name = bytes.TrimSpace(name)
		if !isToken(name) {
			return 0, fatalHeader(fmt.Errorf("%w: %q", ErrMalformedHeader, truncate(line)))
		}
		if !bytes.EqualFold(name, []byte("Content-Length")) {
			continue // Content-Type and unknown headers are ignored
		}
		n, ok := parseLength(bytes.TrimSpace(value))
		if !ok {
			return 0, fatalHeader(fmt.Errorf("%w: %q", ErrInvalidContentLength, truncate(value)))
		}
		if length >= 0 && n != length {
			return 0, fatalHeader(fmt.Errorf("%w: conflicting values %d and %d", ErrInvalidContentLength, length, n))
		}
		length = n
	}
}

// parseLength accepts only decimal digits that fit an int64.
func parseLength(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	return n, err == nil
}

// isToken reports whether b is a valid header name (an RFC 9110 token).
func isToken(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

func truncate(b []byte) []byte {
	if len(b) > 64 {
		return b[:64]
	}
	return b
}

// readBody reads n bytes, allocating at most bodyChunk ahead of the data
// actually received.
func readBody(r io.Reader, n int64) ([]byte, error) {
	if n <= bodyChunk {
		buf := make([]byte, n)
		_, err := io.ReadFull(r, buf)
		return buf, err
	}
	buf := make([]byte, 0, bodyChunk)
	for int64(len(buf)) < n {
		want := int(min(n-int64(len(buf)), bodyChunk))
		if cap(buf)-len(buf) < want {
			grown := make([]byte, len(buf), min(int64(2*cap(buf)), n))
			copy(grown, buf)
			buf = grown
		}
		m, err := io.ReadFull(r, buf[len(buf):len(buf)+want])
		buf = buf[:len(buf)+m]
		if err != nil {
			return nil, err
		}
	}
	return buf, nil
}

func invalid(id *ID, format string, args ...any) *ReadError {
	return &ReadError{
		Err:  fmt.Errorf("%w: %s", ErrInvalidMessage, fmt.Sprintf(format, args...)),
		Code: InvalidRequest,
		ID:   id,
	}
}

// decodeMessage validates and decodes one framed body.
func decodeMessage(body []byte) (*Message, error) {
	if !json.Valid(body) {
		// Report where it goes wrong.
		var v any
		err := json.Unmarshal(body, &v)
		if err == nil {
			err = errors.New("not a JSON value")
		}
		return nil, &ReadError{Err: fmt.Errorf("%w: %w", ErrInvalidJSON, err), Code: ParseError}
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if trimmed[0] != '{' {
		if trimmed[0] == '[' {
			return nil, invalid(nil, "batches are not supported")
		}
		return nil, invalid(nil, "not an object")
	}
	// A map matches member names exactly (a struct would match them
	// case-insensitively) and tells present from absent.
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return nil, invalid(nil, "%v", err)
	}
	m := &Message{JSONRPC: "2.0"}
	if raw, ok := fields["id"]; ok {
		m.ID = new(ID)
		if err := m.ID.UnmarshalJSON(raw); err != nil {
			return nil, invalid(nil, "%v", err)
		}
	}
	var version string
	if raw, ok := fields["jsonrpc"]; !ok || json.Unmarshal(raw, &version) != nil || version != "2.0" {
		return nil, invalid(m.ID, `"jsonrpc" must be "2.0"`)
	}
	raw, hasMethod := fields["method"]
	if hasMethod {
		if json.Unmarshal(raw, &m.Method) != nil || m.Method == "" || raw[0] != '"' {
			return nil, invalid(m.ID, `"method" must be a non-empty string`)
		}
	}
	result, hasResult := fields["result"]
	errRaw, hasError := fields["error"]
	if hasError && hasResult && string(errRaw) == "null" {
		hasError = false // some peers send "error": null beside a result
	}
	if hasMethod {
		if hasResult || hasError {
			return nil, invalid(m.ID, "a request cannot carry a result or an error")
		}
		if p, ok := fields["params"]; ok {
			switch p[0] {
			case '{', '[':
				m.Params = p
			case 'n': // null: treated as absent
			default:
				return nil, invalid(m.ID, `"params" must be an object or an array`)
			}
		}
		return m, nil
	}
	// A response.
	if m.ID == nil {
		return nil, invalid(nil, `neither "method" nor "id"`)
	}
	if hasResult == hasError {
		return nil, invalid(m.ID, `a response needs exactly one of "result" and "error"`)
	}
	if hasError {
		if errRaw[0] != '{' {
			return nil, invalid(m.ID, `"error" must be an object`)
		}
		m.Error = new(Error)
		if err := m.Error.UnmarshalJSON(errRaw); err != nil {
			return nil, invalid(m.ID, "%v", err)
		}
		return m, nil
	}
	m.Result = result
	return m, nil
}

// marshal encodes v without escaping <, > and & (diagnostic messages
// contain them) and without a trailing newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// writeBody frames and writes one body, serialised with other writers.
func (c *Conn) writeBody(body []byte) error {
	frame := make([]byte, 0, len(body)+32)
	frame = append(frame, "Content-Length: "...)
	frame = strconv.AppendInt(frame, int64(len(body)), 10)
	frame = append(frame, "\r\n\r\n"...)
	frame = append(frame, body...)

	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.werr != nil {
		return c.werr
	}
	if _, err := c.w.Write(frame); err != nil {
		c.werr = fmt.Errorf("jsonrpc: write: %w", err)
		return c.werr
	}
	return nil
}

// Write writes m as it is (see Message.MarshalJSON for the shape).
func (c *Conn) Write(m *Message) error {
	body, err := marshal(m)
	if err != nil {
		return err
	}
	return c.writeBody(body)
}

// Reply sends the response to the request with the given id (nil means
// "id": null, used when the request's id is unknown). With rerr nil it sends
// result, writing "result": null when result is nil; otherwise it sends
// rerr. If result cannot be marshalled, the client receives an
// InternalError reply (so it does not wait forever) and Reply returns the
// marshalling error.
func (c *Conn) Reply(id *ID, result any, rerr *Error) error {
	resp := wireResponse{JSONRPC: "2.0", ID: id}
	var resultErr error
	if rerr != nil {
		resp.Error = rerr
	} else if raw, err := marshal(result); err != nil {
		resultErr = fmt.Errorf("jsonrpc: marshal result: %w", err)
		resp.Error = &Error{Code: InternalError, Message: resultErr.Error()}
	} else {
		resp.Result = raw
	}
	body, err := marshal(resp)
	if err != nil && resp.Error != nil && resp.Error.Data != nil {
		// The error's data cannot be marshalled: send the error without it.
		stripped := *resp.Error
		stripped.Data = nil
		resp.Error = &stripped
		body, err = marshal(resp)
	}
	if err != nil {
		return fmt.Errorf("jsonrpc: marshal response: %w", err)
	}
	if err := c.writeBody(body); err != nil {
		return err
	}
	return resultErr
}

// marshalParams encodes params; nil (or anything encoding as null) means the
// params member is left out, as JSON-RPC requires a structured value.
func marshalParams(params any) (json.RawMessage, error) {
	if params == nil {
		return nil, nil
	}
	raw, err := marshal(params)
	if err != nil {
		return nil, fmt.Errorf("jsonrpc: marshal params: %w", err)
	}
	if string(raw) == "null" {
		return nil, nil
	}
	return raw, nil
}

// Notify sends a notification.
func (c *Conn) Notify(method string, params any) error {
	raw, err := marshalParams(params)
	if err != nil {
		return err
	}
	body, err := marshal(wireMessage{JSONRPC: "2.0", Method: method, Params: raw})
	if err != nil {
		return err
	}
	return c.writeBody(body)
}

// Call sends a request with a fresh integer id (1, 2, 3, ... per Conn) and
// returns that id. The response arrives through Read as a Message for which
// IsResponse is true and *ID equals the returned id.
func (c *Conn) Call(method string, params any) (*ID, error) {
	raw, err := marshalParams(params)
	if err != nil {
		return nil, err
	}
	id := IntID(c.lastID.Add(1))
	body, err := marshal(wireMessage{JSONRPC: "2.0", ID: id, Method: method, Params: raw})
	if err != nil {
		return nil, err
	}
	if err := c.writeBody(body); err != nil {
		return nil, err
	}
	return id, nil
}
