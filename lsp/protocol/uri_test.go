package protocol

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestPathToURI(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX paths")
	}
	tests := []struct{ path, want string }{
		{"/home/u/proj/a.py", "file:///home/u/proj/a.py"},
		{"/home/u/my proj/a b.py", "file:///home/u/my%20proj/a%20b.py"},
		{"/tmp/c#/x.py", "file:///tmp/c%23/x.py"},
		{"/tmp/100%/x.py", "file:///tmp/100%25/x.py"},
		{"/tmp/q?/x.py", "file:///tmp/q%3F/x.py"},
		{"/tmp/café/€.py", "file:///tmp/caf%C3%A9/%E2%82%AC.py"},
		{"/tmp/😀.py", "file:///tmp/%F0%9F%98%80.py"},
		{"/tmp/a:b@c+d,e;f=g&h'i(j)k!l$m*n", "file:///tmp/a%3Ab%40c%2Bd%2Ce%3Bf%3Dg%26h%27i%28j%29k%21l%24m%2An"},
		{"/tmp/keep-._~", "file:///tmp/keep-._~"},
		{"/", "file:///"},
	}
	for _, tt := range tests {
		if got := PathToURI(tt.path); got != tt.want {
			t.Errorf("PathToURI(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestPathToURIRelative(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	got, err := URIToPath(PathToURI("sub/x.py"))
	if err != nil || got != filepath.Join(wd, "sub", "x.py") {
		t.Errorf("relative path became %q, %v", got, err)
	}
}

func TestURIRoundTrip(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX paths")
	}
	for _, p := range []string{
		"/home/u/proj/a.py",
		"/home/u/my proj/a b.py",
		"/tmp/c#sharp/x.py",
		"/tmp/100%/x%20y.py",
		"/tmp/café/日本語/€😀.py",
		"/tmp/a:b/[x]/{y}/q?.py",
		"/tmp/tab\there/new\nline",
		"/tmp/trailing/",
	} {
		uri := PathToURI(p)
		if strings.Trim(uri[len("file://"):], "/%-._~ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") != "" {
			t.Errorf("PathToURI(%q) = %q left characters unencoded", p, uri)
		}
		back, err := URIToPath(uri)
		if err != nil || back != p {
			t.Errorf("URIToPath(PathToURI(%q)) = %q, %v (uri %q)", p, back, err, uri)
		}
	}
}

func TestURIToPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX paths")
	}
	tests := []struct{ uri, want string }{
		{"file:///home/u/a.py", "/home/u/a.py"},
		{"FILE:///home/u/a.py", "/home/u/a.py"},
		{"file://localhost/home/u/a.py", "/home/u/a.py"},
		{"file:/home/u/a.py", "/home/u/a.py"},
		{"file:///home/u/my%20proj/a%20b.py", "/home/u/my proj/a b.py"},
		{"file:///tmp/caf%c3%a9.py", "/tmp/café.py"},  // lower-case hex
		{"file:///tmp/caf%C3%A9.py", "/tmp/café.py"},  // upper-case hex
		{"file:///tmp/café.py", "/tmp/café.py"},       // not encoded at all
		{"file:///tmp/a+b.py", "/tmp/a+b.py"},         // '+' is not a space
		{"file:///tmp/x.py#L10", "/tmp/x.py"},         // fragment dropped
		{"file:///tmp/x.py?query", "/tmp/x.py"},       // query dropped
		{"file:///c%3A/Users/x.py", "/c:/Users/x.py"}, // VS Code Windows URI, kept on POSIX
		{"file:///C:/Users/x.py", "/C:/Users/x.py"},   // no crash
	}
	for _, tt := range tests {
		got, err := URIToPath(tt.uri)
		if err != nil || got != tt.want {
			t.Errorf("URIToPath(%q) = %q, %v; want %q", tt.uri, got, err, tt.want)
		}
	}

	for _, bad := range []string{
		"",
		"/home/u/a.py",
		"untitled:Untitled-1",
		"https://example.com/a.py",
		"vscode-notebook-cell:/x.ipynb#W0",
		"file://server/share/a.py",
		"file://",
		"file:relative/a.py",
		"file:///tmp/bad%zzescape",
		"file:///tmp/trunc%4",
		"file:///tmp/nul%00byte",
		"file:",
	} {
		if got, err := URIToPath(bad); err == nil {
			t.Errorf("URIToPath(%q) = %q, want an error", bad, got)
		}
	}
}
