package engine

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"io"
)

// A record is written as four gob messages: its small fields, then its
// three large tables (paths, stamps, groups) one by one, so that neither
// gob's buffer nor the writer holds the whole record at once
// (diskcache.PutWith streams it to its file): on the generated 2,000-server
// repository the record is 12 MB, and encoding it in one message took
// 70 MB of memory that the scan had not needed before.

// writeRecord encodes rec to w.
func writeRecord(w io.Writer, rec *pyRecord) error {
	head := *rec
	head.Paths, head.Stamps, head.Groups = nil, nil, nil
	enc := gob.NewEncoder(w)
	for _, v := range []any{&head, rec.Paths, rec.Stamps, groupTable{rec.Groups}} {
		if err := enc.Encode(v); err != nil {
			return err
		}
	}
	return nil
}

// groupTable is the groups' message of a record.
type groupTable struct{ Groups []groupRecord }

// readRecord decodes what writeRecord wrote; the format and the indices
// are the caller's to check.
func readRecord(data []byte) (*pyRecord, error) {
	r := bytes.NewReader(data)
	dec := gob.NewDecoder(r)
	var rec pyRecord
	if err := dec.Decode(&rec); err != nil {
		return nil, err
	}
	if rec.Format != pyFormat {
		return nil, errTable
	}
	var groups groupTable
	for _, v := range []any{&rec.Paths, &rec.Stamps, &groups} {
		if err := dec.Decode(v); err != nil {
			return nil, err
		}
	}
	if r.Len() != 0 {
		return nil, errTable
	}
	rec.Groups = groups.Groups
	return &rec, nil
}

// The record's path and stamp tables are most of its bytes (NeMo Gym: 11,000
// paths, 9,900 of them looked for and not found), so they have an encoding
// of their own instead of gob's: paths sorted and front-coded (each the
// length of the prefix it shares with the one before, then the rest), a
// content hash as its 32 bytes. It halves what a warm scan reads and
// writes.

// pathList is a sorted list of paths.
type pathList []string

// stampList is the stamps of a pathList.
type stampList []stamp

var errTable = errors.New("engine: bad stamp table")

func (l pathList) GobEncode() ([]byte, error) {
	b := binary.AppendUvarint(nil, uint64(len(l)))
	prev := ""
	for _, p := range l {
		n := 0
		for n < len(p) && n < len(prev) && p[n] == prev[n] {
			n++
		}
		b = binary.AppendUvarint(b, uint64(n))
		b = binary.AppendUvarint(b, uint64(len(p)-n))
		b = append(b, p[n:]...)
		prev = p
	}
	return b, nil
}

func (l *pathList) GobDecode(b []byte) error {
	r := reader{b: b}
	n := r.uint()
	if n > uint64(len(b)) {
		return errTable
	}
	out := make(pathList, 0, n)
	prev := ""
	for range n {
		shared, rest := r.uint(), r.uint()
		if r.bad || shared > uint64(len(prev)) || rest > uint64(len(r.b)) {
			return errTable
		}
		p := prev[:shared] + string(r.b[:rest])
		r.b = r.b[rest:]
		out = append(out, p)
		prev = p
	}
	if r.bad || len(r.b) != 0 {
		return errTable
	}
	*l = out
	return nil
}

func (l stampList) GobEncode() ([]byte, error) {
	b := binary.AppendUvarint(nil, uint64(len(l)))
	for _, s := range l {
		if raw, err := hex.DecodeString(s.Hash); err == nil && len(raw) == 32 && hex.EncodeToString(raw) == s.Hash {
			b = append(b, 1)
			b = append(b, raw...)
		} else {
			b = append(b, 0)
			b = binary.AppendUvarint(b, uint64(len(s.Hash)))
			b = append(b, s.Hash...)
		}
		b = binary.AppendVarint(b, s.Size)
		b = binary.AppendVarint(b, s.MTime)
		b = binary.AppendUvarint(b, s.Ino)
		b = binary.AppendVarint(b, s.CTime)
		b = binary.AppendVarint(b, int64(s.Anchor))
	}
	return b, nil
}

func (l *stampList) GobDecode(b []byte) error {
	r := reader{b: b}
	n := r.uint()
	if n > uint64(len(b)) {
		return errTable
	}
	out := make(stampList, n)
	for i := range out {
		var s stamp
		switch r.byte() {
		case 1:
			if len(r.b) < 32 {
				return errTable
			}
			s.Hash = hex.EncodeToString(r.b[:32])
			r.b = r.b[32:]
		case 0:
			k := r.uint()
			if k > uint64(len(r.b)) {
				return errTable
			}
			s.Hash = string(r.b[:k])
			r.b = r.b[k:]
		default:
			return errTable
		}
		s.Size, s.MTime, s.Ino, s.CTime = r.int(), r.int(), r.uint(), r.int()
		a := r.int()
		if r.bad || a < 0 || a > 1<<31-1 {
			return errTable
		}
		s.Anchor = int32(a)
		out[i] = s
	}
	if r.bad || len(r.b) != 0 {
		return errTable
	}
	*l = out
	return nil
}

// reader reads varints, noting when the bytes run out.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) uint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) int() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		r.bad = true
		return 0xff
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}
