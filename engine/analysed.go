package engine

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/gymlint/gymlint/goanalysis"
	"github.com/gymlint/gymlint/internal/repofs"
)

// Analysed returns the SHA-256 of the content of a root-relative file that
// the scan's findings were computed from: what the Python side read of it
// (every read of a batch scan is hashed, repofs.FS.KeepSums), what the Go
// analyzers parsed of it, and, for findings a warm scan took from the
// cache, the content its stamp holds. ok is false when the scan has no
// such content of the file (it did not read it, read it only from an
// overlay or an extra root), or has more than one (the file changed
// during the scan). gymlint --fix applies a fix only to a file that holds
// this content (package fixes).
func (r *Result) Analysed(p string) (sum [sha256.Size]byte, ok bool) {
	if r.analysed == nil {
		return sum, false
	}
	return r.analysed(p)
}

// goParsed is goanalysis.Result.ParsedSum.
type goParsed func(path string) (sum [sha256.Size]byte, parsed, varied bool)

// goParsedOf is what the Go side parsed, nil when it ran not.
func goParsedOf(r *goanalysis.Result) goParsed {
	if r == nil {
		return nil
	}
	return r.ParsedSum
}

// analysedSums combines what the Python side read (fsys, nil for none), a
// warm scan's stamps (nil for none) and what the Go side parsed (nil for
// none) into Result.Analysed.
func analysedSums(fsys *repofs.FS, stamps *hashes, goSums goParsed) func(string) ([sha256.Size]byte, bool) {
	return func(p string) (sum [sha256.Size]byte, ok bool) {
		c, clean := repofs.Clean(p)
		if !clean {
			return sum, false
		}
		var sums [][sha256.Size]byte
		if fsys != nil {
			if rs, read := fsys.Sum(c); read {
				if rs.Varied {
					return sum, false
				}
				sums = append(sums, rs.Sum)
			}
		}
		if stamps != nil {
			if s, known := stamps.sumOf(c); known {
				sums = append(sums, s)
			}
		}
		if goSums != nil {
			if s, parsed, varied := goSums(c); varied {
				return sum, false
			} else if parsed {
				sums = append(sums, s)
			}
		}
		if len(sums) == 0 {
			return sum, false
		}
		for _, s := range sums[1:] {
			if s != sums[0] {
				return sum, false
			}
		}
		return sums[0], true
	}
}

// sumOf returns the content hash the stamps of this scan hold for the
// file p, ok false when they hold none (p was not stamped, is absent,
// unreadable or a directory).
func (h *hashes) sumOf(p string) (sum [sha256.Size]byte, ok bool) {
	h.mu.Lock()
	sp, stamped := h.memo[p]
	h.mu.Unlock()
	if !stamped || len(sp.Hash) != hex.EncodedLen(sha256.Size) {
		return sum, false
	}
	if _, err := hex.Decode(sum[:], []byte(sp.Hash)); err != nil {
		return sum, false
	}
	return sum, true
}
