package settings

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// LoadFile reads the configuration file at p (--config PATH), instead of
// the one Load would find at the root: a pyproject.toml (any file whose
// name ends in .toml), whose [tool.gymlint] table is read, or else a
// .gymlint.yaml-style YAML file. p is the user's choice, not the
// repository's, so it may lie outside the root and a symbolic link is
// followed; it must still be a regular file of at most 1 MiB. Everything
// that is wrong with it, that it cannot be read included, is LoadFile's
// error (an *Error that names p as given): the user asked for this file,
// so the defaults do not stand in for it.
//
// The file is named, in errors and in the findings about it (an unused
// exemption), by its path relative to root when it lies in root (as the
// configuration Load finds is), else by p as given. The isort
// configuration (KnownFirstParty) is read from root, as Load reads it.
func LoadFile(p, root string) (*Settings, error) {
	name := displayName(p, root)
	st, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &Error{File: name, Msg: "no such configuration file"}
		}
		return nil, &Error{File: name, Msg: fmt.Sprintf("cannot read the configuration file (%v)", errors.Unwrap(err))}
	}
	if u := notRegular(name, st.Mode()); u != nil {
		return nil, &Error{File: name, Msg: strings.TrimPrefix(what(u), name+" ") + ": give a regular file"}
	}
	if st.Size() > maxSize {
		return nil, &Error{File: name, Msg: fmt.Sprintf("the configuration file is larger than %d bytes (1 MiB)", maxSize)}
	}
	fh, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, &Error{File: name, Msg: fmt.Sprintf("cannot read the configuration file (%v)", errors.Unwrap(err))}
	}
	defer fh.Close()
	if st, err = fh.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, &Error{File: name, Msg: "is not a regular file: give a regular file"}
	}
	data, err := io.ReadAll(io.LimitReader(fh, maxSize+1))
	if err != nil {
		return nil, &Error{File: name, Msg: fmt.Sprintf("cannot read the configuration file (%v)", err)}
	}
	if len(data) > maxSize {
		return nil, &Error{File: name, Msg: fmt.Sprintf("the configuration file is larger than %d bytes (1 MiB)", maxSize)}
	}
	if strings.HasSuffix(filepath.Base(p), ".toml") {
		s, found, err := ParseTOML(name, data)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, &Error{File: name, Msg: "has no [tool.gymlint] table: give a pyproject.toml with one, or a .gymlint.yaml"}
		}
		s.File = name
		s.KnownFirstParty = ReadKnownFirstParty(root)
		return s, nil
	}
	s, err := Parse(name, data)
	if err != nil {
		return nil, err
	}
	s.KnownFirstParty = ReadKnownFirstParty(root)
	return s, nil
}

// what is the part of an unread file's message that says what it is.
func what(u *unreadError) string {
	msg, _, _ := strings.Cut(u.Msg, ": gymlint did not read it")
	return msg
}

// displayName is p relative to root, slash-separated, when p lies in
// root; else p.
func displayName(p, root string) string {
	ap, err1 := filepath.Abs(p)
	ar, err2 := filepath.Abs(root)
	if err1 != nil || err2 != nil {
		return p
	}
	if rel, err := filepath.Rel(ar, ap); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != "." {
		return filepath.ToSlash(rel)
	}
	return p
}
