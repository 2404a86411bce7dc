// Package diskcache is gymlint's content-addressed cache on disk: what one
// run computed (a group of entrypoints' findings, a Go package's type data)
// kept under a key made of everything it was computed from, so that the
// next run with the same inputs reads it instead of computing it again.
//
// The cache lives in the user cache directory ($XDG_CACHE_HOME/gymlint, or
// os.UserCacheDir()/gymlint; --cache-dir chooses another). An entry is one
// file, <dir>/<kind>/<first two hex digits of the key>/<key in hex>, that
// starts with a header: a magic string, the format version, the entry's
// kind and key, the length of its data and the SHA-256 of the data. Get
// checks all of it, so that an entry that is truncated, corrupt, written by
// another program or by another version of the format is detected and
// treated as missing, never trusted. Put writes to a temporary file in the
// same directory and renames it into place: concurrent runs (pre-commit
// runs hooks in parallel) see either no entry or a whole one, and two runs
// that write one key write the same bytes.
//
// The cache is bounded: when it holds more than its limit, Trim removes the
// entries least recently used until it holds less than three quarters of
// it. A run trims at most once an hour (the time of the last trim is the
// modification time of <dir>/trim.txt). Removing the directory clears the
// cache; so does `gymlint cache clean`.
package diskcache

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// DefaultMaxBytes is the default bound on the cache's size.
const DefaultMaxBytes = 512 << 20

// magic starts every entry; formatVersion is the entry format's version.
const (
	magic         = "gymlint-cache\x00"
	formatVersion = 1
)

// trimInterval is how often a cache is trimmed at most; touchInterval is
// how old an entry's modification time must be for Get to renew it (so
// that a warm run does not write to every entry it reads).
const (
	trimInterval  = time.Hour
	touchInterval = time.Hour
)

// DefaultDir is the default cache directory: $XDG_CACHE_HOME/gymlint when
// XDG_CACHE_HOME is set to an absolute path, else os.UserCacheDir()/gymlint.
func DefaultDir() (string, error) {
	if x := os.Getenv("XDG_CACHE_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "gymlint"), nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		home, herr := os.UserHomeDir()
		if herr != nil {
			return "", err
		}
		d = filepath.Join(home, ".cache")
	}
	return filepath.Join(d, "gymlint"), nil
}

// Key is an entry's key: the SHA-256 of what the entry was computed from
// (see Hasher).
type Key [sha256.Size]byte

// String is the key in hexadecimal.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// Hasher makes a Key from a sequence of values. Each value is written with
// its length, so that ("ab", "c") and ("a", "bc") make different keys.
type Hasher struct{ h hash.Hash }

// NewHasher starts a key for entries of one kind.
func NewHasher(kind string) *Hasher {
	h := &Hasher{h: sha256.New()}
	h.String(magic)
	h.String(kind)
	return h
}

// Bytes adds a value.
func (h *Hasher) Bytes(b []byte) *Hasher {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
	h.h.Write(n[:])
	h.h.Write(b)
	return h
}

// String adds a value.
func (h *Hasher) String(s string) *Hasher { return h.Bytes([]byte(s)) }

// Int adds a value.
func (h *Hasher) Int(i int64) *Hasher {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(i))
	return h.Bytes(n[:])
}

// Key is the key of what was added.
func (h *Hasher) Key() Key {
	var k Key
	h.h.Sum(k[:0])
	return k
}

// Sum is the SHA-256 of data: a file's content hash.
func Sum(data []byte) Key { return sha256.Sum256(data) }

// Cache is a cache directory. Its methods are safe for concurrent use, by
// goroutines and by processes.
type Cache struct {
	dir string
	max int64
}

// Options say how a cache is opened.
type Options struct {
	// MaxBytes bounds the cache's size; 0: DefaultMaxBytes.
	MaxBytes int64
}

// Open opens the cache directory dir, making it when it does not exist
// (mode 0700). A directory that cannot be made is Open's error: the caller
// runs without a cache.
func Open(dir string, o Options) (*Cache, error) {
	if dir == "" {
		return nil, errors.New("no cache directory")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, err
	}
	c := &Cache{dir: abs, max: o.MaxBytes}
	if c.max <= 0 {
		c.max = DefaultMaxBytes
	}
	c.writeReadme()
	return c, nil
}

// Dir is the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// readme is written at the top of the cache, so that whoever finds the
// directory knows what it is and how to clear it.
const readme = `This directory is gymlint's cache: what earlier runs computed, kept by
content hash so that a run over unchanged files reads it instead of computing
it again. It is safe to delete at any time: "gymlint cache clean", or remove
the directory. "gymlint --no-cache" runs without it; "--cache-dir DIR" uses
another directory.
`

func (c *Cache) writeReadme() {
	p := filepath.Join(c.dir, "README")
	if _, err := os.Lstat(p); err == nil {
		return
	}
	_ = writeAtomic(p, []byte(readme))
	// CACHEDIR.TAG tells backup tools to leave the directory out
	// (https://bford.info/cachedir/).
	_ = writeAtomic(filepath.Join(c.dir, "CACHEDIR.TAG"), []byte("Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by gymlint.\n"))
}

// validKind reports whether kind can name a directory of the cache.
func validKind(kind string) bool {
	if kind == "" || len(kind) > 64 {
		return false
	}
	for _, r := range kind {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

func (c *Cache) path(kind string, k Key) string {
	s := k.String()
	return filepath.Join(c.dir, kind, s[:2], s)
}

// header is an entry's header for kind, key and data.
func header(kind string, k Key, data []byte) []byte {
	return headerOf(kind, k, int64(len(data)), sha256.Sum256(data))
}

// headerOf is the header of n bytes of data whose SHA-256 is sum.
func headerOf(kind string, k Key, n int64, sum [sha256.Size]byte) []byte {
	var b bytes.Buffer
	b.WriteString(magic)
	b.WriteByte(formatVersion)
	b.WriteByte(byte(len(kind)))
	b.WriteString(kind)
	b.Write(k[:])
	var size [8]byte
	binary.LittleEndian.PutUint64(size[:], uint64(n))
	b.Write(size[:])
	b.Write(sum[:])
	return b.Bytes()
}

// maxEntry bounds what Get reads of one entry.
const maxEntry = 1 << 30

// Get returns the data of the entry of kind and key. ok is false when there
// is no such entry, or when the entry is not whole and correct (it is then
// removed).
func (c *Cache) Get(kind string, k Key) (data []byte, ok bool) {
	if c == nil || !validKind(kind) {
		return nil, false
	}
	p := c.path(kind, k)
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxEntry {
		return nil, false
	}
	// Read in one piece of the size the stat gives (an entry written
	// since is longer, and then fails its header check).
	raw := make([]byte, st.Size())
	if _, err := io.ReadFull(f, raw); err != nil {
		return nil, false
	}
	data, ok = decode(kind, k, raw)
	if !ok {
		os.Remove(p) // corrupt or foreign: never trusted, and not read again
		return nil, false
	}
	if time.Since(st.ModTime()) > touchInterval {
		now := time.Now()
		_ = os.Chtimes(p, now, now)
	}
	return data, true
}

// decode checks an entry's header against kind and key and returns its
// data.
func decode(kind string, k Key, raw []byte) ([]byte, bool) {
	hl := len(header(kind, k, nil))
	if len(raw) < hl {
		return nil, false
	}
	data := raw[hl:]
	if !bytes.Equal(raw[:hl], header(kind, k, data)) {
		return nil, false
	}
	return data, true
}

// Put stores data as the entry of kind and key. An error means the entry
// was not stored; the run goes on without it.
func (c *Cache) Put(kind string, k Key, data []byte) error {
	return c.PutWith(kind, k, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// PutWith stores what write writes as the entry of kind and key, without
// holding it in memory: for an entry of many megabytes. An error from write
// or from the disk means the entry was not stored.
func (c *Cache) PutWith(kind string, k Key, write func(w io.Writer) error) error {
	if c == nil {
		return errors.New("no cache")
	}
	if !validKind(kind) {
		return fmt.Errorf("invalid cache kind %q", kind)
	}
	p := c.path(kind, k)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	// The header's place first; it is written once the data's length and
	// hash are known.
	hl := len(header(kind, k, nil))
	_, werr := f.Write(make([]byte, hl))
	if werr == nil {
		sum := sha256.New()
		bw := bufio.NewWriterSize(io.MultiWriter(f, sum), 256<<10)
		cw := &countWriter{w: bw}
		werr = write(cw)
		if werr == nil {
			werr = bw.Flush()
		}
		if werr == nil {
			_, werr = f.WriteAt(headerOf(kind, k, cw.n, [sha256.Size]byte(sum.Sum(nil))), 0)
		}
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, p)
	}
	if werr != nil {
		os.Remove(tmp)
		return werr
	}
	c.maybeTrim()
	return nil
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// writeAtomic writes the parts to a temporary file beside p and renames
// it to p.
func writeAtomic(p string, parts ...[]byte) error {
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	var werr error
	for _, b := range parts {
		if werr == nil {
			_, werr = f.Write(b)
		}
	}
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, p)
	}
	if werr != nil {
		os.Remove(tmp)
	}
	return werr
}

// maybeTrim trims the cache when it was last trimmed more than
// trimInterval ago.
func (c *Cache) maybeTrim() {
	stamp := filepath.Join(c.dir, "trim.txt")
	if st, err := os.Stat(stamp); err == nil && time.Since(st.ModTime()) < trimInterval {
		return
	}
	_ = writeAtomic(stamp, []byte(time.Now().UTC().Format(time.RFC3339)+"\n"))
	c.Trim()
}

// Trim removes the least recently used entries while the cache holds more
// than its bound, down to three quarters of it, and the temporary files
// that a run which was killed left behind. It returns the bytes the cache
// holds after.
func (c *Cache) Trim() int64 {
	type entry struct {
		path string
		size int64
		used time.Time
	}
	var es []entry
	var total int64
	_ = filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil || !info.Mode().IsRegular() {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".tmp-") {
			if time.Since(info.ModTime()) > trimInterval {
				os.Remove(p)
			}
			return nil
		}
		if filepath.Dir(filepath.Dir(filepath.Dir(p))) != c.dir {
			return nil // README, CACHEDIR.TAG, trim.txt
		}
		es = append(es, entry{p, info.Size(), info.ModTime()})
		total += info.Size()
		return nil
	})
	if total <= c.max {
		return total
	}
	sort.Slice(es, func(i, j int) bool { return es[i].used.Before(es[j].used) })
	for _, e := range es {
		if total <= c.max/4*3 {
			break
		}
		if os.Remove(e.path) == nil {
			total -= e.size
		}
	}
	return total
}

// Clean removes every entry of the cache, and the directory itself when
// nothing else is left in it.
func (c *Cache) Clean() error {
	ents, err := os.ReadDir(c.dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range ents {
		if e.IsDir() && validKind(e.Name()) || e.Name() == "trim.txt" || e.Name() == "README" || e.Name() == "CACHEDIR.TAG" || strings.HasPrefix(e.Name(), ".tmp-") {
			errs = append(errs, os.RemoveAll(filepath.Join(c.dir, e.Name())))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	os.Remove(c.dir) // only when empty
	return nil
}

// Size is the number of entries and bytes the cache holds.
func (c *Cache) Size() (entries int, bytes int64) {
	_ = filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".tmp-") {
			return nil
		}
		if filepath.Dir(filepath.Dir(filepath.Dir(p))) != c.dir {
			return nil
		}
		if info, err := d.Info(); err == nil {
			entries++
			bytes += info.Size()
		}
		return nil
	})
	return entries, bytes
}
