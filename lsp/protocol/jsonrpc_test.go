package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
)

func frame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

func readAll(t *testing.T, c *Conn) []*Message {
	t.Helper()
	var msgs []*Message
	for {
		m, err := c.Read()
		if err == io.EOF {
			return msgs
		}
		if err != nil {
			t.Fatalf("Read after %d messages: %v", len(msgs), err)
		}
		msgs = append(msgs, m)
	}
}

func TestPipeRoundTrip(t *testing.T) {
	pr, pw := io.Pipe()
	writer := NewConn(nil, pw)
	reader := NewConn(pr, nil)

	done := make(chan error, 1)
	go func() {
		defer pw.Close()
		if _, err := writer.Call(MethodRegisterCapability, RegistrationParams{Registrations: []Registration{{ID: "w", Method: MethodDidChangeWatchedFiles}}}); err != nil {
			done <- err
			return
		}
		if err := writer.Notify(MethodLogMessage, LogMessageParams{Type: MessageLog, Message: "a <b> & c"}); err != nil {
			done <- err
			return
		}
		if err := writer.Reply(StringID("x"), map[string]int{"n": 1}, nil); err != nil {
			done <- err
			return
		}
		if err := writer.Reply(IntID(7), nil, Errorf(MethodNotFound, "no %s", "foo")); err != nil {
			done <- err
			return
		}
		done <- nil
	}()

	msgs := readAll(t, reader)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 4 {
		t.Fatalf("got %d messages, want 4", len(msgs))
	}
	call := msgs[0]
	if !call.IsRequest() || call.Method != MethodRegisterCapability || call.ID.String() != "1" {
		t.Errorf("call = %+v", call)
	}
	var reg RegistrationParams
	if err := DecodeParams(call.Params, &reg); err != nil || len(reg.Registrations) != 1 || reg.Registrations[0].Method != MethodDidChangeWatchedFiles {
		t.Errorf("registration params %s decoded to %+v, %v", call.Params, reg, err)
	}
	note := msgs[1]
	if !note.IsNotification() || note.Method != MethodLogMessage {
		t.Errorf("notification = %+v", note)
	}
	if want := `{"type":4,"message":"a <b> & c"}`; string(note.Params) != want {
		t.Errorf("params = %s, want %s (no HTML escaping)", note.Params, want)
	}
	resp := msgs[2]
	if !resp.IsResponse() || resp.ID.String() != `"x"` || string(resp.Result) != `{"n":1}` || resp.Error != nil {
		t.Errorf("response = %+v", resp)
	}
	errResp := msgs[3]
	if !errResp.IsResponse() || errResp.Error == nil || errResp.Error.Code != MethodNotFound || errResp.Error.Message != "no foo" {
		t.Errorf("error response = %+v", errResp)
	}
}

func TestSeveralMessagesInOneBuffer(t *testing.T) {
	var in strings.Builder
	in.WriteString(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
	// Content-Type is accepted, names are case-insensitive, whitespace around
	// values is tolerated.
	body := `{"jsonrpc":"2.0","method":"initialized","params":{}}`
	fmt.Fprintf(&in, "content-type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH:  %d \r\n\r\n%s", len(body), body)
	// \n-only line endings.
	body = `{"jsonrpc":"2.0","method":"exit"}`
	fmt.Fprintf(&in, "Content-Length: %d\n\n%s", len(body), body)
	// The same Content-Length twice is fine.
	body = `{"jsonrpc":"2.0","id":"s","result":null}`
	fmt.Fprintf(&in, "Content-Length: %d\r\nContent-Length: %d\r\n\r\n%s", len(body), len(body), body)

	msgs := readAll(t, NewConn(strings.NewReader(in.String()), nil))
	var got []string
	for _, m := range msgs {
		got = append(got, fmt.Sprintf("%v/%v/%v %s %s", m.IsRequest(), m.IsNotification(), m.IsResponse(), m.Method, m.Result))
	}
	want := []string{
		"true/false/false initialize ",
		"false/true/false initialized ",
		"false/true/false exit ",
		"false/false/true  null",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestOneByteReads(t *testing.T) {
	var in strings.Builder
	for i := range 20 {
		in.WriteString(frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"m","params":{"s":"é€😀 %d"}}`, i, i)))
	}
	msgs := readAll(t, NewConn(iotest.OneByteReader(strings.NewReader(in.String())), nil))
	if len(msgs) != 20 {
		t.Fatalf("got %d messages, want 20", len(msgs))
	}
	for i, m := range msgs {
		if n, ok := m.ID.Int64(); !ok || n != int64(i) {
			t.Errorf("message %d has id %v", i, m.ID)
		}
		if want := fmt.Sprintf(`{"s":"é€😀 %d"}`, i); string(m.Params) != want {
			t.Errorf("message %d params %s, want %s", i, m.Params, want)
		}
	}
}

func TestHostileHeaders(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		cause error // nil: a plain (fatal) I/O error
		fatal bool
	}{
		{"missing length", "Content-Type: x\r\n\r\n{}", ErrMissingContentLength, true},
		{"empty header block", "\r\n{}", ErrMissingContentLength, true},
		{"negative length", "Content-Length: -5\r\n\r\n", ErrInvalidContentLength, true},
		{"plus sign", "Content-Length: +5\r\n\r\n", ErrInvalidContentLength, true},
		{"non-numeric", "Content-Length: ten\r\n\r\n", ErrInvalidContentLength, true},
		{"empty value", "Content-Length:\r\n\r\n", ErrInvalidContentLength, true},
		{"hex", "Content-Length: 0x10\r\n\r\n", ErrInvalidContentLength, true},
		{"overflow", "Content-Length: 99999999999999999999999\r\n\r\n", ErrInvalidContentLength, true},
		{"conflicting", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", ErrInvalidContentLength, true},
		{"no colon", "garbage\r\n\r\n", ErrMalformedHeader, true},
		{"json without header", `{"jsonrpc":"2.0"}` + "\n", ErrMalformedHeader, true},
		{"binary", "\x00\xff\xfe\n", ErrMalformedHeader, true},
		{"long line", "X-Junk: " + strings.Repeat("a", 5000) + "\r\n", ErrHeaderTooLong, true},
		{"line without end", strings.Repeat("a", 100000), ErrHeaderTooLong, true},
		{"too many headers", strings.Repeat("X: y\r\n", 100), ErrTooManyHeaders, true},
		{"eof in header", "Content-Length: 5\r\n", nil, true},
		{"eof in body", "Content-Length: 5\r\n\r\n{}", nil, true},
		{"huge length, no body", "Content-Length: 1099511627776\r\n\r\n{}", ErrMessageTooLarge, true},
		{"max int64 length", "Content-Length: 9223372036854775807\r\n\r\n", ErrMessageTooLarge, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewConn(strings.NewReader(tt.in), nil)
			m, err := c.Read()
			if err == nil {
				t.Fatalf("Read = %+v, want an error", m)
			}
			if got := IsFatal(err); got != tt.fatal {
				t.Errorf("IsFatal(%v) = %v, want %v", err, got, tt.fatal)
			}
			var re *ReadError
			if tt.cause == nil {
				if err != io.ErrUnexpectedEOF {
					t.Errorf("err = %v, want io.ErrUnexpectedEOF", err)
				}
				return
			}
			if !errors.Is(err, tt.cause) || !errors.As(err, &re) {
				t.Fatalf("err = %v (%T), want a *ReadError wrapping %v", err, err, tt.cause)
			}
			if rpc := re.RPCError(); rpc.Code != ParseError && rpc.Code != InvalidRequest {
				t.Errorf("RPCError code = %d", rpc.Code)
			}
			// After a fatal error nothing is promised, but reading on must
			// not panic.
			for range 5 {
				if _, err := c.Read(); err == io.EOF {
					break
				}
			}
		})
	}
}

func TestHugeLengthDoesNotAllocate(t *testing.T) {
	in := "Content-Length: 1099511627776\r\n\r\n" + strings.Repeat("x", 1<<20)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c := NewConn(strings.NewReader(in), nil)
	_, err := c.Read()
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrMessageTooLarge) || !IsFatal(err) {
		t.Fatalf("err = %v, want a fatal ErrMessageTooLarge", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("allocated %d bytes for a message that was refused", alloc)
	}

	// A length under the limit but with little data behind it allocates in
	// proportion to the data, not to the announced length.
	in = "Content-Length: 60000000\r\n\r\n" + strings.Repeat("x", 1000)
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = NewConn(strings.NewReader(in), nil).Read()
	runtime.ReadMemStats(&after)
	if err != io.ErrUnexpectedEOF {
		t.Fatalf("err = %v, want io.ErrUnexpectedEOF", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("allocated %d bytes for 1000 bytes of body", alloc)
	}
}

func TestLargeBodyInChunks(t *testing.T) {
	s := strings.Repeat("é", 3<<20) // 6 MiB, over several chunks
	body := `{"jsonrpc":"2.0","method":"m","params":["` + s + `"]}`
	m, err := NewConn(strings.NewReader(frame(body)), nil).Read()
	if err != nil {
		t.Fatal(err)
	}
	var p []string
	if err := json.Unmarshal(m.Params, &p); err != nil || len(p) != 1 || p[0] != s {
		t.Errorf("params did not survive: %v", err)
	}
}

func TestTooLargeIsSkipped(t *testing.T) {
	in := frame(`{"jsonrpc":"2.0","id":1,"method":"big","params":{"pad":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}}`) +
		frame(`{"jsonrpc":"2.0","id":2,"method":"m"}`)
	c := NewConn(strings.NewReader(in), nil)
	c.MaxMessageSize = 60
	_, err := c.Read()
	if !errors.Is(err, ErrMessageTooLarge) || IsFatal(err) {
		t.Fatalf("err = %v, want a non-fatal ErrMessageTooLarge", err)
	}
	m, err := c.Read()
	if err != nil || m.Method != "m" {
		t.Fatalf("next Read = %+v, %v", m, err)
	}
	if _, err := c.Read(); err != io.EOF {
		t.Fatalf("final Read err = %v, want io.EOF", err)
	}
}

func TestInvalidBodiesAreRecoverable(t *testing.T) {
	tests := []struct {
		body  string
		code  int64
		cause error
		id    string // the salvaged id, "" when none
	}{
		{`{not json`, ParseError, ErrInvalidJSON, ""},
		{``, ParseError, ErrInvalidJSON, ""},
		{`{"jsonrpc":"2.0","id":1,"method":"m"} trailing`, ParseError, ErrInvalidJSON, ""},
		{`[{"jsonrpc":"2.0","id":1,"method":"m"}]`, InvalidRequest, ErrInvalidMessage, ""},
		{`42`, InvalidRequest, ErrInvalidMessage, ""},
		{`{"id":3,"method":"m"}`, InvalidRequest, ErrInvalidMessage, "3"},
		{`{"jsonrpc":"1.0","id":3,"method":"m"}`, InvalidRequest, ErrInvalidMessage, "3"},
		{`{"jsonrpc":"2.0","id":"q","method":5}`, InvalidRequest, ErrInvalidMessage, `"q"`},
		{`{"jsonrpc":"2.0","id":"q","method":""}`, InvalidRequest, ErrInvalidMessage, `"q"`},
		{`{"jsonrpc":"2.0","id":true,"method":"m"}`, InvalidRequest, ErrInvalidMessage, ""},
		{`{"jsonrpc":"2.0","id":{},"method":"m"}`, InvalidRequest, ErrInvalidMessage, ""},
		{`{"jsonrpc":"2.0","id":4,"method":"m","params":7}`, InvalidRequest, ErrInvalidMessage, "4"},
		{`{"jsonrpc":"2.0","id":4,"method":"m","result":1}`, InvalidRequest, ErrInvalidMessage, "4"},
		{`{"jsonrpc":"2.0"}`, InvalidRequest, ErrInvalidMessage, ""},
		{`{"jsonrpc":"2.0","id":5}`, InvalidRequest, ErrInvalidMessage, "5"},
		{`{"jsonrpc":"2.0","id":5,"result":1,"error":{"code":1,"message":"x"}}`, InvalidRequest, ErrInvalidMessage, "5"},
		{`{"jsonrpc":"2.0","id":5,"error":"boom"}`, InvalidRequest, ErrInvalidMessage, "5"},
		{`{"jsonrpc":"2.0","id":5,"error":{"message":"no code"}}`, InvalidRequest, ErrInvalidMessage, "5"},
		{`{"jsonrpc":"2.0","ID":5,"Method":"m"}`, InvalidRequest, ErrInvalidMessage, ""},
	}
	var in strings.Builder
	for _, tt := range tests {
		in.WriteString(frame(tt.body))
	}
	in.WriteString(frame(`{"jsonrpc":"2.0","method":"last"}`))
	c := NewConn(strings.NewReader(in.String()), nil)
	for _, tt := range tests {
		m, err := c.Read()
		var re *ReadError
		if !errors.As(err, &re) {
			t.Errorf("%s: Read = %+v, %v; want a *ReadError", tt.body, m, err)
			continue
		}
		if re.Fatal || IsFatal(err) {
			t.Errorf("%s: fatal error %v", tt.body, err)
		}
		if re.Code != tt.code || !errors.Is(err, tt.cause) {
			t.Errorf("%s: code %d, err %v; want code %d wrapping %v", tt.body, re.Code, err, tt.code, tt.cause)
		}
		gotID := ""
		if re.ID != nil {
			gotID = re.ID.String()
		}
		if gotID != tt.id {
			t.Errorf("%s: salvaged id %q, want %q", tt.body, gotID, tt.id)
		}
	}
	m, err := c.Read()
	if err != nil || m.Method != "last" {
		t.Fatalf("Read after the invalid messages = %+v, %v", m, err)
	}
}

func TestLenientShapes(t *testing.T) {
	in := frame(`{"jsonrpc":"2.0","id":1,"method":"shutdown","params":null}`) +
		frame(`{"jsonrpc":"2.0","id":2,"result":{"ok":true},"error":null}`) +
		frame(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad","data":{"k":[1,2]}}}`) +
		frame(` {"method":"m","jsonrpc":"2.0","extra":1} `)
	msgs := readAll(t, NewConn(strings.NewReader(in), nil))
	if len(msgs) != 4 {
		t.Fatalf("got %d messages", len(msgs))
	}
	if msgs[0].Params != nil || !msgs[0].IsRequest() {
		t.Errorf("params: null should read as absent: %+v", msgs[0])
	}
	if string(msgs[1].Result) != `{"ok":true}` || msgs[1].Error != nil {
		t.Errorf(`"error": null beside a result: %+v`, msgs[1])
	}
	e := msgs[2]
	if !e.IsResponse() || !e.ID.IsNull() || e.Error.Code != ParseError {
		t.Errorf("null-id error response: %+v", e)
	}
	if raw, ok := e.Error.Data.(json.RawMessage); !ok || string(raw) != `{"k":[1,2]}` {
		t.Errorf("error data = %#v", e.Error.Data)
	}
	if !msgs[3].IsNotification() {
		t.Errorf("notification with surrounding blanks: %+v", msgs[3])
	}
}

func TestIDRoundTrip(t *testing.T) {
	for _, lit := range []string{`1`, `"abc"`, `9007199254740993`, `-3`, `0`, `"9007199254740993"`, `""`, `"a\"b"`} {
		t.Run(lit, func(t *testing.T) {
			in := frame(`{"jsonrpc":"2.0","id":` + lit + `,"method":"m"}`)
			m, err := NewConn(strings.NewReader(in), nil).Read()
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := NewConn(nil, &out).Reply(m.ID, nil, nil); err != nil {
				t.Fatal(err)
			}
			want := frame(`{"jsonrpc":"2.0","id":` + lit + `,"result":null}`)
			if out.String() != want {
				t.Errorf("reply\n%q\nwant\n%q", out.String(), want)
			}
			b, err := json.Marshal(m.ID)
			if err != nil || string(b) != lit {
				t.Errorf("json.Marshal(id) = %s, %v; want %s", b, err, lit)
			}
			var back ID
			if err := json.Unmarshal(b, &back); err != nil || back != *m.ID {
				t.Errorf("id did not round-trip: %v != %v (%v)", back, *m.ID, err)
			}
		})
	}

	big := ID{}
	if err := json.Unmarshal([]byte("9007199254740993"), &big); err != nil {
		t.Fatal(err)
	}
	if n, ok := big.Int64(); !ok || n != 9007199254740993 {
		t.Errorf("Int64 = %d, %v", n, ok)
	}
	if *IntID(1) == *StringID("1") {
		t.Error("numeric and string ids compare equal")
	}
	if s, ok := StringID("abc").StringValue(); !ok || s != "abc" {
		t.Errorf("StringValue = %q, %v", s, ok)
	}
	if (ID{}).String() != "null" || !(ID{}).IsNull() {
		t.Error("zero ID is not null")
	}
	// As map keys, ids from the wire match ids we made.
	pending := map[ID]string{*IntID(1): "registerCapability"}
	var fromWire ID
	_ = json.Unmarshal([]byte(" 1 "), &fromWire)
	if pending[fromWire] != "registerCapability" {
		t.Error("id read from the wire does not find the pending request")
	}
}

func TestReply(t *testing.T) {
	tests := []struct {
		name   string
		id     *ID
		result any
		err    *Error
		want   string
	}{
		{"nil result", IntID(1), nil, nil, `{"jsonrpc":"2.0","id":1,"result":null}`},
		{"typed nil", IntID(1), (*InitializeResult)(nil), nil, `{"jsonrpc":"2.0","id":1,"result":null}`},
		{"empty slice", IntID(1), []CodeAction{}, nil, `{"jsonrpc":"2.0","id":1,"result":[]}`},
		{"raw result", StringID("a"), json.RawMessage(`{"x": 1}`), nil, `{"jsonrpc":"2.0","id":"a","result":{"x":1}}`},
		{"error", IntID(2), nil, &Error{Code: RequestCancelled, Message: "cancelled"}, `{"jsonrpc":"2.0","id":2,"error":{"code":-32800,"message":"cancelled"}}`},
		{"error wins over result", IntID(2), 5, &Error{Code: RequestFailed, Message: "x", Data: []int{1}}, `{"jsonrpc":"2.0","id":2,"error":{"code":-32803,"message":"x","data":[1]}}`},
		{"null id", nil, nil, &Error{Code: ParseError, Message: "bad"}, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}`},
		{"unmarshalable data dropped", IntID(3), nil, &Error{Code: InternalError, Message: "x", Data: make(chan int)}, `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"x"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := NewConn(nil, &out).Reply(tt.id, tt.result, tt.err); err != nil {
				t.Fatal(err)
			}
			if out.String() != frame(tt.want) {
				t.Errorf("got  %q\nwant %q", out.String(), frame(tt.want))
			}
		})
	}

	// A result that cannot be marshalled still answers the request.
	var out bytes.Buffer
	err := NewConn(nil, &out).Reply(IntID(9), func() {}, nil)
	if err == nil {
		t.Error("Reply with an unmarshalable result returned nil")
	}
	m, rerr := NewConn(&out, nil).Read()
	if rerr != nil || m.Error == nil || m.Error.Code != InternalError || m.ID.String() != "9" {
		t.Errorf("fallback reply = %+v, %v", m, rerr)
	}
}

func TestNotifyAndCall(t *testing.T) {
	var out bytes.Buffer
	c := NewConn(nil, &out)
	if err := c.Notify(MethodExit, nil); err != nil {
		t.Fatal(err)
	}
	var nilSlice []int
	if err := c.Notify("m", nilSlice); err != nil { // encodes as null: params left out
		t.Fatal(err)
	}
	for want := int64(1); want <= 3; want++ {
		id, err := c.Call(MethodShutdown, nil)
		if err != nil {
			t.Fatal(err)
		}
		if n, ok := id.Int64(); !ok || n != want {
			t.Errorf("Call id = %v, want %d", id, want)
		}
	}
	if err := c.Notify("bad", func() {}); err == nil {
		t.Error("Notify with unmarshalable params returned nil")
	}
	want := frame(`{"jsonrpc":"2.0","method":"exit"}`) +
		frame(`{"jsonrpc":"2.0","method":"m"}`) +
		frame(`{"jsonrpc":"2.0","id":1,"method":"shutdown"}`) +
		frame(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`) +
		frame(`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`)
	if out.String() != want {
		t.Errorf("got\n%q\nwant\n%q", out.String(), want)
	}
}

func TestConcurrentWrites(t *testing.T) {
	var out bytes.Buffer // guarded by the Conn's write lock
	c := NewConn(nil, &out)
	const writers, each = 16, 50
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				var err error
				switch i % 3 {
				case 0:
					err = c.Notify(MethodLogMessage, LogMessageParams{Type: MessageInfo, Message: strings.Repeat("x", 100*w+i)})
				case 1:
					_, err = c.Call(MethodRegisterCapability, RegistrationParams{})
				default:
					err = c.Reply(IntID(int64(w*each+i)), []int{w, i}, nil)
				}
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	msgs := readAll(t, NewConn(&out, nil))
	if len(msgs) != writers*each {
		t.Fatalf("read %d messages, want %d", len(msgs), writers*each)
	}
	ids := map[ID]bool{}
	for _, m := range msgs {
		if m.IsRequest() {
			if ids[*m.ID] {
				t.Errorf("duplicate Call id %v", m.ID)
			}
			ids[*m.ID] = true
		}
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	w.n++
	if w.n == 2 {
		return len(p) / 2, errors.New("broken pipe")
	}
	return len(p), nil
}

func TestWriteErrorIsSticky(t *testing.T) {
	w := &failWriter{}
	c := NewConn(nil, w)
	if err := c.Notify("a", nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Notify("b", nil); err == nil {
		t.Fatal("second write should fail")
	}
	if err := c.Notify("c", nil); err == nil || w.n != 2 {
		t.Fatalf("write after a failed write: err %v, %d writes", err, w.n)
	}
}

func TestMessageMarshal(t *testing.T) {
	tests := []struct {
		m    Message
		want string
	}{
		{Message{Method: "m", ID: IntID(1), Params: json.RawMessage(`{}`)}, `{"jsonrpc":"2.0","id":1,"method":"m","params":{}}`},
		{Message{Method: "n"}, `{"jsonrpc":"2.0","method":"n"}`},
		{Message{Method: "n", Params: json.RawMessage(`null`)}, `{"jsonrpc":"2.0","method":"n"}`},
		{Message{ID: StringID("r")}, `{"jsonrpc":"2.0","id":"r","result":null}`},
		{Message{ID: StringID("r"), Result: json.RawMessage(`[1]`)}, `{"jsonrpc":"2.0","id":"r","result":[1]}`},
		{Message{Error: &Error{Code: ParseError, Message: "p"}}, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"p"}}`},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		if err := NewConn(nil, &out).Write(&tt.m); err != nil {
			t.Fatal(err)
		}
		if out.String() != frame(tt.want) {
			t.Errorf("Write(%+v) = %q, want %q", tt.m, out.String(), frame(tt.want))
		}
	}
}

func TestIsFatal(t *testing.T) {
	if IsFatal(nil) {
		t.Error("IsFatal(nil)")
	}
	if !IsFatal(io.EOF) || !IsFatal(io.ErrUnexpectedEOF) || !IsFatal(errors.New("read: bad fd")) {
		t.Error("I/O errors must be fatal")
	}
	wrapped := fmt.Errorf("ctx: %w", &ReadError{Err: ErrInvalidJSON, Code: ParseError})
	if IsFatal(wrapped) {
		t.Error("a wrapped non-fatal ReadError is fatal")
	}
	e := Errorf(InvalidParams, "bad %d", 1)
	if e.Error() != "jsonrpc error -32602: bad 1" {
		t.Errorf("Error() = %q", e.Error())
	}
}

// TestParseErrorAnswered: a well-framed body that is not JSON is answered
// with JSON-RPC's parse error (-32700) and id null, as JSON-RPC 2.0
// requires when the id cannot be read, and the next message is read; an
// invalid message is answered with its id when it has one, and not at all
// when it has none (it may have been a notification) or when the stream
// cannot be framed any more.
func TestParseErrorAnswered(t *testing.T) {
	in := frame(`{"jsonrpc":"2.0","id":1,"method":"initialize"`) + // cut short
		frame(`{"jsonrpc":"2.0","id":7,"method":5}`) +
		frame(`{"jsonrpc":"2.0","params":{}}`) +
		frame(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`) +
		"Content-Length: x\r\n\r\n"
	var out bytes.Buffer
	c := NewConn(strings.NewReader(in), &out)
	answer := func() (string, bool) {
		t.Helper()
		_, err := c.Read()
		var re *ReadError
		if !errors.As(err, &re) {
			t.Fatalf("Read: %v, want a *ReadError", err)
		}
		id, ok := re.ReplyID()
		if !ok {
			return "", false
		}
		out.Reset()
		if err := c.Reply(id, nil, re.RPCError()); err != nil {
			t.Fatal(err)
		}
		_, body, _ := strings.Cut(out.String(), "\r\n\r\n")
		return body, true
	}
	body, ok := answer()
	if !ok || !strings.HasPrefix(body, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"invalid JSON: `) {
		t.Errorf("a body that is not JSON: answered %v with %s, want -32700 and id null", ok, body)
	}
	body, ok = answer()
	if !ok || !strings.HasPrefix(body, `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,`) {
		t.Errorf("an invalid request with an id: answered %v with %s, want -32600 and id 7", ok, body)
	}
	if body, ok := answer(); ok {
		t.Errorf("an invalid message without an id: answered with %s, want no answer", body)
	}
	if m, err := c.Read(); err != nil || m.Method != "shutdown" {
		t.Fatalf("the message after them: %+v, %v", m, err)
	}
	if body, ok := answer(); ok {
		t.Errorf("a header that cannot be framed: answered with %s, want no answer (the stream ends)", body)
	}
}
