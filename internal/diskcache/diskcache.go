// Package diskcache is gymlint's content-addressed cache on disk: what one
// run computed (a group of entrypoints' findings, a Go package's type data)
// kept under a key made of everything it was computed from, so that the
// next run with the same inputs reads it instead of computing it again.
//
// The cache lives in the user cache directory ($XDG_CACHE_HOME/gymlint, or
// os.UserCacheDir()/gymlint; --cache-dir chooses another). An entry is one
// file, <dir>/<kind>/<first two hex digits of the key>/<key in hex>, that
// starts with a header: a magic string, the format version, the entry's
// kind and key, the length of its data and an HMAC-SHA256 of all of these
// and the data.
//
// The cache directory is not trusted: it may have been restored from a CI
// cache that an untrusted job wrote, or be writable by others. So:
//
//   - An entry is authenticated. The HMAC's key is a secret kept outside
//     the cache directory: $GYMLINT_CACHE_KEY when set, else the key file
//     (DefaultKeyFile: <user config dir>/gymlint/cache-key, made with mode
//     0600 on first use, refused when others may read or write it). An
//     entry whose HMAC does not verify (truncated, corrupt, written by
//     another program, another version of the format, or with another
//     key, or moved to another key's path) is treated as missing and
//     removed. When no key can be had, Open fails: the cache is not used
//     at all.
//   - An entry is opened without blocking and without following a link,
//     and read only when it is a regular file of at most MaxEntryBytes
//     (checked before reading): a named pipe, a device, a link or an
//     oversized file at an entry's path is a miss (and removed).
//   - Writes, trims and cleaning touch only names shaped as the cache's
//     own (<kind>/<xx>/<64 hex digits>, and temporary files), and a write
//     refuses a kind or shard directory that is a link.
//
// Put writes to a temporary file in the same directory and renames it into
// place: concurrent runs (pre-commit runs hooks in parallel) see either no
// entry or a whole one, and two runs that write one key write the same
// bytes. A directory that cannot be written is Open's error; a write that
// fails later (a full disk) is reported once (Options.OnWriteError), and
// the run writes no more entries.
//
// The cache is bounded: when it holds more than its limit, Trim removes the
// entries least recently used until it holds less than three quarters of
// it. A run trims at most once an hour (the time of the last trim is the
// modification time of <dir>/trim.txt). Removing the directory clears the
// cache; so does `gymlint clean`.
package diskcache

import (
	"bufio"
	"crypto/hmac"
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
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMaxBytes is the default bound on the cache's size.
const DefaultMaxBytes = 512 << 20

// DefaultMaxEntryBytes is the default bound on one entry's data: an entry
// larger than this is neither written nor read. The largest entries
// gymlint writes are a few megabytes (NeMo Gym's Python record is 0.65 MB
// and its configs' 1 MB; a generated 2,000-server repository's record is
// 12 MB).
const DefaultMaxEntryBytes = 64 << 20

// magic starts every entry; formatVersion is the entry format's version
// (1: a SHA-256 of the data; 2: an HMAC of the header and the data).
const (
	magic         = "gymlint-cache\x00"
	formatVersion = 2
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
	dir      string
	max      int64
	maxEntry int64
	// secret is the key of the entries' HMAC; nil for a cache opened to
	// be inspected or cleaned (Inspect), which reads and writes no entry.
	secret []byte
	// writeErr is the first error that kept an entry from being written;
	// once set, no entry is written any more.
	writeErr     atomic.Pointer[error]
	onWriteError func(error)
	reportOnce   sync.Once
}

// Options say how a cache is opened.
type Options struct {
	// MaxBytes bounds the cache's size; 0: DefaultMaxBytes.
	MaxBytes int64
	// MaxEntryBytes bounds one entry's data; 0: DefaultMaxEntryBytes.
	MaxEntryBytes int64
	// Secret is the key that authenticates entries. Empty: $GYMLINT_CACHE_KEY
	// (KeyEnv) when set, else the content of KeyFile.
	Secret []byte
	// KeyFile is where the key is kept when neither Secret nor
	// $GYMLINT_CACHE_KEY gives it, made on first use; "": DefaultKeyFile().
	// It must not be inside the cache directory.
	KeyFile string
	// OnWriteError, when set, is called once, with the first error from the
	// disk that kept an entry from being written (a full disk, a directory
	// made read-only or replaced during the run). No entry is written after
	// it.
	OnWriteError func(error)
}

// Open opens the cache directory dir, making it when it does not exist
// (mode 0700), with the key that authenticates its entries. A directory
// that cannot be made or written, or a key that cannot be had, is Open's
// error: the caller runs without a cache.
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
	secret, err := secretFor(abs, o)
	if err != nil {
		return nil, err
	}
	c := &Cache{dir: abs, max: o.MaxBytes, maxEntry: o.MaxEntryBytes, secret: secret, onWriteError: o.OnWriteError}
	if c.max <= 0 {
		c.max = DefaultMaxBytes
	}
	if c.maxEntry <= 0 {
		c.maxEntry = DefaultMaxEntryBytes
	}
	if err := c.probe(); err != nil {
		return nil, err
	}
	c.writeReadme()
	return c, nil
}

// Inspect opens the existing cache directory dir to say what it holds and
// to clean it (Size, Clean, Trim), writing nothing and needing no key: it
// reads and writes no entry.
func Inspect(dir string) (*Cache, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", abs)
	}
	return &Cache{dir: abs, max: DefaultMaxBytes, maxEntry: DefaultMaxEntryBytes}, nil
}

// Dir is the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// probe checks that the directory can be written: a file is made in it,
// written and removed.
func (c *Cache) probe() error {
	f, err := os.CreateTemp(c.dir, ".tmp-probe-*")
	if err == nil {
		_, err = f.Write([]byte("gymlint\n"))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		os.Remove(f.Name())
	}
	if err != nil {
		// The probe's name is random: the cause without it.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot write in %s: %w", c.dir, err)
	}
	return nil
}

// readme is written at the top of the cache, so that whoever finds the
// directory knows what it is and how to clear it.
const readme = `This directory is gymlint's cache: what earlier runs computed, kept by
content hash so that a run over unchanged files reads it instead of computing
it again. It is safe to delete at any time: "gymlint clean", or remove
the directory. "gymlint --no-cache" runs without it; "--cache-dir DIR" uses
another directory.
`

// oldReadme is the README that earlier versions wrote (Clean removes it
// too).
const oldReadme = `This directory is gymlint's cache: what earlier runs computed, kept by
content hash so that a run over unchanged files reads it instead of computing
it again. It is safe to delete at any time: "gymlint cache clean", or remove
the directory. "gymlint --no-cache" runs without it; "--cache-dir DIR" uses
another directory.
`

// cachedirTag tells backup tools to leave the directory out
// (https://bford.info/cachedir/).
const cachedirTag = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by gymlint.\n"

// writeReadme writes the README and CACHEDIR.TAG into a cache directory
// that has neither and is otherwise empty: a directory that holds other
// files (--cache-dir naming one by mistake) is not tagged for backup
// tools to skip.
func (c *Cache) writeReadme() {
	p := filepath.Join(c.dir, "README")
	if _, err := os.Lstat(p); err == nil {
		return
	}
	ents, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !isTemp(e.Name()) && e.Name() != "CACHEDIR.TAG" {
			return
		}
	}
	_ = writeAtomic(p, []byte(readme))
	_ = writeAtomic(filepath.Join(c.dir, "CACHEDIR.TAG"), []byte(cachedirTag))
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

// isHex reports whether s is n lowercase hexadecimal digits.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := range len(s) {
		if !(s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'f') {
			return false
		}
	}
	return true
}

func (c *Cache) path(kind string, k Key) string {
	s := k.String()
	return filepath.Join(c.dir, kind, s[:2], s)
}

// realDirs reports whether the kind and shard directories of the entry of
// kind and key are directories, not links: what the cache writes or
// removes stays in the cache directory.
func (c *Cache) realDirs(kind string, k Key) bool {
	for _, d := range []string{filepath.Join(c.dir, kind), filepath.Dir(c.path(kind, k))} {
		if st, err := os.Lstat(d); err != nil || !st.IsDir() {
			return false
		}
	}
	return true
}

// mkdirReal makes the directory d (mode 0700) when it is not there, and
// fails when what is there is not a directory (a link to one included).
func mkdirReal(d string) error {
	err := os.Mkdir(d, 0o700)
	if err == nil || !errors.Is(err, fs.ErrExist) {
		return err
	}
	if st, err := os.Lstat(d); err != nil {
		return err
	} else if !st.IsDir() {
		return fmt.Errorf("%s: not a directory of the cache's own (%v)", d, st.Mode().Type())
	}
	return nil
}

// prefix is the part of an entry's header before the data's length.
func prefix(kind string, k Key) []byte {
	b := make([]byte, 0, len(magic)+2+len(kind)+len(k))
	b = append(b, magic...)
	b = append(b, formatVersion, byte(len(kind)))
	b = append(b, kind...)
	return append(b, k[:]...)
}

// headerLen is the length of the header of an entry of kind.
func headerLen(kind string) int { return len(magic) + 2 + len(kind) + len(Key{}) + 8 + sha256.Size }

// mac starts the HMAC of an entry of kind and key: its prefix, then (the
// caller's) the data, then the data's length (sealed by seal).
func (c *Cache) mac(kind string, k Key) hash.Hash {
	m := hmac.New(sha256.New, c.secret)
	m.Write(prefix(kind, k))
	return m
}

// seal is the header of n bytes of data whose HMAC m has taken.
func seal(kind string, k Key, m hash.Hash, n int64) []byte {
	var size [8]byte
	binary.LittleEndian.PutUint64(size[:], uint64(n))
	m.Write(size[:])
	b := append(prefix(kind, k), size[:]...)
	return m.Sum(b)
}

// header is the header of the entry of kind and key holding data.
func (c *Cache) header(kind string, k Key, data []byte) []byte {
	m := c.mac(kind, k)
	m.Write(data)
	return seal(kind, k, m, int64(len(data)))
}

// Get returns the data of the entry of kind and key. ok is false when there
// is no such entry, or when the entry is not a regular file of at most the
// entry bound, or not whole and authentic (it is then removed).
func (c *Cache) Get(kind string, k Key) (data []byte, ok bool) {
	if c == nil || c.secret == nil || !validKind(kind) {
		return nil, false
	}
	p := c.path(kind, k)
	f, err := openEntry(p)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			c.discard(kind, k) // a link, or what cannot be opened
		}
		return nil, false
	}
	defer f.Close()
	hl := int64(headerLen(kind))
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() < hl || st.Size()-hl > c.maxEntry {
		// A named pipe, a device, a directory, or more than an entry
		// may hold: not read.
		c.discard(kind, k)
		return nil, false
	}
	// Read in one piece of the size the stat gives (an entry written
	// since is longer, and then fails its check).
	raw := make([]byte, st.Size())
	if _, err := io.ReadFull(f, raw); err != nil {
		return nil, false
	}
	data, ok = c.decode(kind, k, raw)
	if !ok {
		c.discard(kind, k) // corrupt or foreign: never trusted, and not read again
		return nil, false
	}
	if time.Since(st.ModTime()) > touchInterval {
		now := time.Now()
		_ = os.Chtimes(p, now, now)
	}
	return data, true
}

// discard removes what is at the path of the entry of kind and key, when
// that path is inside the cache directory.
func (c *Cache) discard(kind string, k Key) {
	if c.realDirs(kind, k) {
		os.Remove(c.path(kind, k))
	}
}

// decode checks an entry's header against kind and key and its HMAC, and
// returns its data.
func (c *Cache) decode(kind string, k Key, raw []byte) ([]byte, bool) {
	hl := headerLen(kind)
	if len(raw) < hl {
		return nil, false
	}
	data := raw[hl:]
	want := c.header(kind, k, data)
	// hmac.Equal: the comparison takes the same time wherever the first
	// difference is.
	if !hmac.Equal(raw[:hl], want) {
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

// errTooLarge is PutWith's error for data past the entry bound.
var errTooLarge = errors.New("cache entry larger than the bound")

// PutWith stores what write writes as the entry of kind and key, without
// holding it in memory: for an entry of many megabytes. An error from write
// or from the disk means the entry was not stored; the first error from
// the disk is reported (Options.OnWriteError), and no entry is written
// after it.
func (c *Cache) PutWith(kind string, k Key, write func(w io.Writer) error) error {
	if c == nil || c.secret == nil {
		return errors.New("no cache")
	}
	if !validKind(kind) {
		return fmt.Errorf("invalid cache kind %q", kind)
	}
	if e := c.writeErr.Load(); e != nil {
		return *e
	}
	p := c.path(kind, k)
	// The kind's and the shard's directories are made one by one, so that
	// a link planted at either is not written through.
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return c.failed(err)
	}
	for _, d := range []string{filepath.Join(c.dir, kind), filepath.Dir(p)} {
		if err := mkdirReal(d); err != nil {
			return c.failed(err)
		}
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return c.failed(err)
	}
	tmp := f.Name()
	// The header's place first; it is written once the data's length and
	// HMAC are known.
	_, werr := f.Write(make([]byte, headerLen(kind)))
	disk := werr != nil
	if werr == nil {
		m := c.mac(kind, k)
		fw := &fileWriter{w: f}
		bw := bufio.NewWriterSize(io.MultiWriter(fw, m), 256<<10)
		cw := &countWriter{w: bw, max: c.maxEntry}
		werr = write(cw)
		if werr == nil {
			werr = bw.Flush()
		}
		if werr == nil {
			if _, werr = f.WriteAt(seal(kind, k, m, cw.n), 0); werr != nil {
				disk = true
			}
		}
		// An error of write's own (an encoder's, the bound) is not the
		// disk's.
		disk = disk || fw.err != nil
	}
	if cerr := f.Close(); werr == nil {
		werr, disk = cerr, cerr != nil
	}
	if werr == nil {
		werr = os.Rename(tmp, p)
		disk = werr != nil
	}
	if werr != nil {
		os.Remove(tmp)
		if disk {
			return c.failed(werr)
		}
		return werr
	}
	c.maybeTrim()
	return nil
}

// failed notes err as the error that keeps entries from being written,
// reports it once, and returns it.
func (c *Cache) failed(err error) error {
	c.writeErr.CompareAndSwap(nil, &err)
	c.reportOnce.Do(func() {
		if c.onWriteError != nil {
			c.onWriteError(err)
		}
	})
	return err
}

// WriteError is the first error from the disk that kept an entry from
// being written, nil when there was none.
func (c *Cache) WriteError() error {
	if c == nil {
		return nil
	}
	if e := c.writeErr.Load(); e != nil {
		return *e
	}
	return nil
}

// fileWriter notes the error of the file it writes to.
type fileWriter struct {
	w   io.Writer
	err error
}

func (f *fileWriter) Write(b []byte) (int, error) {
	n, err := f.w.Write(b)
	if err != nil && f.err == nil {
		f.err = err
	}
	return n, err
}

// countWriter counts the bytes written through it, and refuses more than
// max.
type countWriter struct {
	w   io.Writer
	n   int64
	max int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	if c.n+int64(len(b)) > c.max {
		return 0, errTooLarge
	}
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

// file is an entry, or a temporary file, of the cache.
type file struct {
	path string
	size int64
	used time.Time
	tmp  bool
}

// files lists the cache's entries and temporary files: the regular files
// named as an entry (64 hex digits) or a temporary file in a shard
// directory (2 hex digits) of a kind's directory, and the temporary files
// at the top. Nothing else in the directory is the cache's: a directory
// named by mistake keeps its files.
func (c *Cache) files() (fs []file, shards []string, kinds []string) {
	add := func(dir string, e os.DirEntry, entries bool) {
		tmp := isTemp(e.Name())
		if !tmp && !(entries && isHex(e.Name(), 2*len(Key{}))) || !e.Type().IsRegular() {
			return
		}
		if info, err := e.Info(); err == nil {
			fs = append(fs, file{filepath.Join(dir, e.Name()), info.Size(), info.ModTime(), tmp})
		}
	}
	top, _ := os.ReadDir(c.dir)
	for _, kd := range top {
		if !kd.IsDir() {
			add(c.dir, kd, false)
			continue
		}
		if !validKind(kd.Name()) {
			continue
		}
		kind := filepath.Join(c.dir, kd.Name())
		kinds = append(kinds, kind)
		subs, _ := os.ReadDir(kind)
		for _, sd := range subs {
			if !sd.IsDir() || !isHex(sd.Name(), 2) {
				continue
			}
			shard := filepath.Join(kind, sd.Name())
			shards = append(shards, shard)
			ents, _ := os.ReadDir(shard)
			for _, e := range ents {
				add(shard, e, true)
			}
		}
	}
	return fs, shards, kinds
}

// isTemp reports whether name is that of a temporary file the cache
// makes: ".tmp-" (or ".tmp-probe-") and the digits os.CreateTemp adds.
func isTemp(name string) bool {
	rest, ok := strings.CutPrefix(name, ".tmp-")
	if !ok {
		return false
	}
	rest = strings.TrimPrefix(rest, "probe-")
	return rest != "" && strings.Trim(rest, "0123456789") == ""
}

// Trim removes the least recently used entries while the cache holds more
// than its bound, down to three quarters of it, and the temporary files
// that a run which was killed left behind. It returns the bytes the cache
// holds after.
func (c *Cache) Trim() int64 {
	all, _, _ := c.files()
	var es []file
	var total int64
	for _, f := range all {
		if f.tmp {
			if time.Since(f.used) > trimInterval {
				os.Remove(f.path)
			}
			continue
		}
		es = append(es, f)
		total += f.size
	}
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

// Clean removes every entry of the cache and its temporary files, the
// directories that held them once empty, the README, CACHEDIR.TAG and
// trim.txt it wrote, and the directory itself when nothing else is left in
// it. What the cache did not write stays.
func (c *Cache) Clean() error {
	if _, err := os.ReadDir(c.dir); err != nil {
		return err
	}
	all, shards, kinds := c.files()
	var errs []error
	for _, f := range all {
		if err := os.Remove(f.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	// Each only when empty.
	for _, d := range append(shards, kinds...) {
		os.Remove(d)
	}
	for name, wrote := range map[string][]string{"README": {readme, oldReadme}, "CACHEDIR.TAG": {cachedirTag}} {
		p := filepath.Join(c.dir, name)
		if b, err := readSmall(p); err == nil && slices.Contains(wrote, string(b)) {
			os.Remove(p)
		}
	}
	stamp := filepath.Join(c.dir, "trim.txt")
	if b, err := readSmall(stamp); err == nil {
		if _, perr := time.Parse(time.RFC3339, strings.TrimSpace(string(b))); perr == nil {
			os.Remove(stamp)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	os.Remove(c.dir) // only when empty
	return nil
}

// readSmall reads the small regular file p, as an entry is opened.
func readSmall(p string) ([]byte, error) {
	return readSmallWith(openEntry, p, fmt.Sprintf("%s: not a small regular file", p), nil)
}

// readSmallWith opens p with open and reads it when it is a regular file
// of at most 4 KiB that check (when not nil) accepts; notSmall is the
// error's text otherwise.
func readSmallWith(open func(string) (*os.File, error), p, notSmall string, check func(string, os.FileInfo) error) ([]byte, error) {
	f, err := open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > 4096 {
		return nil, errors.New(notSmall)
	}
	if check != nil {
		if err := check(p, st); err != nil {
			return nil, err
		}
	}
	return io.ReadAll(io.LimitReader(f, 4096))
}

// Size is the number of entries and bytes the cache holds.
func (c *Cache) Size() (entries int, size int64) {
	all, _, _ := c.files()
	for _, f := range all {
		if !f.tmp {
			entries++
			size += f.size
		}
	}
	return entries, size
}
