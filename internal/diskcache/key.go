package diskcache

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The key that authenticates the cache's entries (an HMAC-SHA256 key). It
// is kept outside the cache directory, so that whoever can write the cache
// directory (a CI cache restored from another job, a shared directory)
// cannot make an entry that verifies.

// KeyEnv is the environment variable that may hold the secret instead of
// the key file: for CI, where the user's configuration directory does not
// outlive a job but a secret of the repository's does. Its value must be
// at least minSecret characters.
const KeyEnv = "GYMLINT_CACHE_KEY"

// minSecret is the shortest secret taken from KeyEnv.
const minSecret = 16

// keyBytes is the length of a key that Open makes.
const keyBytes = 32

// DefaultKeyFile is where the key is kept: <user config dir>/gymlint/
// cache-key ($XDG_CONFIG_HOME/gymlint/cache-key, else
// ~/.config/gymlint/cache-key on Linux).
func DefaultKeyFile() (string, error) {
	d, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "gymlint", "cache-key"), nil
}

// keyModeError is a key file that others may read or write.
type keyModeError struct {
	path string
	mode fs.FileMode
}

func (e *keyModeError) Error() string {
	return fmt.Sprintf("the cache key %s may be read or written by others (mode %#o); chmod 600 it", e.path, e.mode)
}

// secretFor is the secret that authenticates the entries of the cache
// directory dir.
func secretFor(dir string, o Options) ([]byte, error) {
	if len(o.Secret) > 0 {
		return o.Secret, nil
	}
	if s := os.Getenv(KeyEnv); s != "" {
		if len(s) < minSecret {
			return nil, fmt.Errorf("$%s is shorter than %d characters", KeyEnv, minSecret)
		}
		return []byte(s), nil
	}
	kf := o.KeyFile
	if kf == "" {
		var err error
		if kf, err = DefaultKeyFile(); err != nil {
			return nil, fmt.Errorf("no place for the cache key (%v); set $%s", err, KeyEnv)
		}
	}
	kf, err := filepath.Abs(kf)
	if err != nil {
		return nil, err
	}
	if within(dir, kf) {
		return nil, fmt.Errorf("the cache key %s would be inside the cache directory %s, where it authenticates nothing", kf, dir)
	}
	return loadOrMakeKey(dir, kf)
}

// within reports whether p is dir or under it, as written or with links
// resolved.
func within(dir, p string) bool {
	in := func(dir, p string) bool {
		rel, err := filepath.Rel(dir, p)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	if in(dir, p) {
		return true
	}
	rd, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	// The key file's nearest directory that exists, resolved.
	rest := ""
	for q := p; ; q = filepath.Dir(q) {
		if rq, err := filepath.EvalSymlinks(q); err == nil {
			return in(rd, filepath.Join(rq, rest))
		}
		if filepath.Dir(q) == q {
			return false
		}
		rest = filepath.Join(filepath.Base(q), rest)
	}
}

// loadOrMakeKey reads the key file kf, making it (mode 0600, in a
// directory of mode 0700) when there is none.
func loadOrMakeKey(dir, kf string) ([]byte, error) {
	key, err := readKey(kf)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(filepath.Dir(kf), 0o700); err != nil {
		return nil, fmt.Errorf("cannot keep the cache key: %w", err)
	}
	// Made in the key's directory, possibly through links: check again.
	if within(dir, kf) {
		return nil, fmt.Errorf("the cache key %s would be inside the cache directory %s, where it authenticates nothing", kf, dir)
	}
	var raw [keyBytes]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return nil, err
	}
	// Written whole to a temporary file (mode 0600), then linked to its
	// name, which fails when another run made the key meanwhile: every
	// run reads the one key that is there.
	f, err := os.CreateTemp(filepath.Dir(kf), ".cache-key-*")
	if err != nil {
		return nil, fmt.Errorf("cannot keep the cache key: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	_, werr := f.WriteString(hex.EncodeToString(raw[:]) + "\n")
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		if werr = os.Link(tmp, kf); errors.Is(werr, fs.ErrExist) {
			werr = nil
		}
	}
	if werr != nil {
		return nil, fmt.Errorf("cannot keep the cache key: %w", werr)
	}
	return readKey(kf)
}

// readKey reads the key file kf: a regular file that only its owner may
// read and write, holding at least keyBytes bytes in hexadecimal.
func readKey(kf string) ([]byte, error) {
	b, err := readSmallWith(openKey, kf, fmt.Sprintf("the cache key %s is not a small regular file", kf), checkKeyMode)
	if err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(key) < keyBytes {
		return nil, fmt.Errorf("the cache key %s is not %d or more bytes in hexadecimal", kf, keyBytes)
	}
	return key, nil
}
