package protocol

import (
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
)

// URIToPath converts a file URI to a file system path. It accepts
// "file:///abs/path", "file://localhost/abs/path" and "file:/abs/path",
// a scheme in any case, and percent-encoded bytes anywhere in the path
// ("%20", "%23", "%3A", UTF-8 sequences such as "%C3%A9"). A query or
// fragment is dropped (a '#' or '?' that belongs to the path must be
// percent-encoded, as clients do). It returns an error for other schemes,
// for a host other than localhost, for invalid percent-escapes and for a
// NUL byte. On Windows "/C:/x" becomes "C:\x"; elsewhere such a path is
// returned as it is. The path is not cleaned.
func URIToPath(uri string) (string, error) {
	scheme, rest, ok := strings.Cut(uri, ":")
	if !ok || !strings.EqualFold(scheme, "file") {
		return "", fmt.Errorf("not a file URI: %.80q", uri)
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	if strings.HasPrefix(rest, "//") {
		authority, path, found := strings.Cut(rest[2:], "/")
		host, err := url.PathUnescape(authority)
		if err != nil {
			return "", fmt.Errorf("file URI %.80q: %w", uri, err)
		}
		if host != "" && !strings.EqualFold(host, "localhost") {
			return "", fmt.Errorf("file URI %.80q: remote host %q is not supported", uri, host)
		}
		rest = ""
		if found {
			rest = "/" + path
		}
	}
	if !strings.HasPrefix(rest, "/") {
		return "", fmt.Errorf("file URI %.80q has no absolute path", uri)
	}
	path, err := url.PathUnescape(rest)
	if err != nil {
		return "", fmt.Errorf("file URI %.80q: %w", uri, err)
	}
	if strings.IndexByte(path, 0) >= 0 {
		return "", fmt.Errorf("file URI %.80q contains a NUL byte", uri)
	}
	if runtime.GOOS == "windows" {
		if len(path) >= 3 && path[0] == '/' && isASCIILetter(path[1]) && path[2] == ':' {
			path = path[1:]
		}
		path = filepath.FromSlash(path)
	}
	return path, nil
}

// PathToURI converts a file system path to a file URI the way VS Code
// writes them: every byte except ASCII letters, digits, "-._~" and the
// separator "/" is percent-encoded with upper-case hex digits, so spaces
// become %20, '#' %23, '%' %25, ':' %3A and non-ASCII characters their
// UTF-8 bytes ("é" is %C3%A9). A relative path is made absolute against the
// working directory first. Other clients (Neovim, for one) encode a
// different set of characters or use lower-case hex digits, giving different
// but equivalent URIs: compare documents by URIToPath, not by URI text.
func PathToURI(path string) string {
	if !filepath.IsAbs(path) {
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
	}
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive: /C:/x
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len("file://") + len(p))
	b.WriteString("file://")
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '/' || isUnreserved(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&0xF])
	}
	return b.String()
}

func isASCIILetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// isUnreserved reports the unreserved characters of RFC 3986.
func isUnreserved(c byte) bool {
	return isASCIILetter(c) || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}
