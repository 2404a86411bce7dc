package protocol

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"testing"
)

// FuzzRead feeds arbitrary bytes to Conn.Read until it reports a fatal
// error. Read must never panic, must make progress, and every message it
// returns must survive a write/read round trip unchanged.
func FuzzRead(f *testing.F) {
	f.Add([]byte(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null}}`)))
	f.Add([]byte(frame(`{"jsonrpc":"2.0","method":"exit"}`) + frame(`{"jsonrpc":"2.0","id":"x","result":null}`)))
	f.Add([]byte(frame(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m","data":[1]}}`)))
	f.Add([]byte(frame(`{bad json`) + frame(`[]`) + frame(`{"jsonrpc":"2.0","id":9007199254740993,"method":"m"}`)))
	f.Add([]byte("Content-Length: 5\n\n{}{}{Content-Length: 2\r\n\r\n{}"))
	f.Add([]byte("Content-Length: -1\r\n\r\n"))
	f.Add([]byte("Content-Length: 99999999999\r\n\r\nabc"))
	f.Add([]byte("content-type: x\r\ncontent-length: 2\r\n\r\n{}"))
	f.Add([]byte("\r\n\r\n"))
	f.Add([]byte("Content-Length: 300\r\n\r\n" + `{"jsonrpc":"2.0","method":"m","params":{"a":"\u00e9\ud83d\ude00"}}`))

	f.Fuzz(func(t *testing.T, data []byte) {
		c := NewConn(bytes.NewReader(data), io.Discard)
		c.MaxMessageSize = 1 << 12
		// Each Read consumes at least one byte, so len(data)+1 reads end it.
		for range len(data) + 2 {
			m, err := c.Read()
			if err != nil {
				var re *ReadError
				if isRE := asReadError(err, &re); isRE && re.RPCError() == nil {
					t.Fatal("nil RPCError")
				}
				if IsFatal(err) {
					return
				}
				continue
			}
			checkRoundTrip(t, m)
		}
		t.Fatalf("Read did not reach a fatal error after %d reads of %d bytes", len(data)+2, len(data))
	})
}

func asReadError(err error, re **ReadError) bool {
	r, ok := err.(*ReadError)
	*re = r
	return ok
}

func checkRoundTrip(t *testing.T, m *Message) {
	t.Helper()
	kinds := 0
	for _, is := range []bool{m.IsRequest(), m.IsNotification(), m.IsResponse()} {
		if is {
			kinds++
		}
	}
	if kinds != 1 {
		t.Fatalf("message is not exactly one kind: %+v", m)
	}
	var buf bytes.Buffer
	if err := NewConn(nil, &buf).Write(m); err != nil {
		t.Fatalf("Write(%+v): %v", m, err)
	}
	back, err := NewConn(&buf, nil).Read()
	if err != nil {
		t.Fatalf("reading back %q: %v", buf.String(), err)
	}
	if (m.ID == nil) != (back.ID == nil) || m.ID != nil && *m.ID != *back.ID {
		t.Fatalf("id changed: %v -> %v", m.ID, back.ID)
	}
	if m.Method != back.Method || (m.Error == nil) != (back.Error == nil) {
		t.Fatalf("message changed:\n%+v\n%+v", m, back)
	}
	sameJSON(t, "params", m.Params, back.Params)
	sameJSON(t, "result", m.Result, back.Result)
	if m.Error != nil {
		if m.Error.Code != back.Error.Code || m.Error.Message != back.Error.Message {
			t.Fatalf("error changed: %+v -> %+v", m.Error, back.Error)
		}
		d1, _ := m.Error.Data.(json.RawMessage)
		d2, _ := back.Error.Data.(json.RawMessage)
		sameJSON(t, "error data", d1, d2)
	}
}

func sameJSON(t *testing.T, what string, a, b json.RawMessage) {
	t.Helper()
	if (len(a) == 0) != (len(b) == 0) {
		t.Fatalf("%s presence changed: %q -> %q", what, a, b)
	}
	if len(a) == 0 {
		return
	}
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("%s %q: %v", what, a, err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("%s %q: %v", what, b, err)
	}
	if !reflect.DeepEqual(va, vb) {
		t.Fatalf("%s changed: %q -> %q", what, a, b)
	}
}
