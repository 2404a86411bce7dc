package settings

import (
	"strconv"
	"strings"
	"testing"
)

func TestParseExemptions(t *testing.T) {
	data := []byte("# réglages\nexempt:\n  - reason: Base class module.\n    path: resources_servers/gymnasium/base.py\n  - {reason: \"é\", path: b.py}\nframework_package: my_gym\nserver_types: [a, b]\nmax_file_size: 1024\n")
	s, err := Parse(".gymlint.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Exempt) != 2 || s.FrameworkPackage != "my_gym" || len(s.ServerTypes) != 2 || s.MaxFileSize != 1024 {
		t.Fatalf("%+v", s)
	}
	x := s.Exempt[0]
	if x.Path != "resources_servers/gymnasium/base.py" || x.Reason != "Base class module." || x.Source != ".gymlint.yaml" || x.Flag {
		t.Errorf("%+v", x)
	}
	if x.Pos.Line != 4 || x.Pos.Col != 11 || string(data[x.Pos.Offset:x.Pos.Offset+4]) != "reso" {
		t.Errorf("first exemption at %+v", x.Pos)
	}
	// yaml.v3 counts the "é" before the path as one column; gymlint counts bytes.
	y := s.Exempt[1]
	if y.Pos.Line != 5 || string(data[y.Pos.Offset:y.Pos.Offset+4]) != "b.py" || y.Pos.Col != 26 {
		t.Errorf("second exemption at %+v (byte %q)", y.Pos, data[y.Pos.Offset:])
	}
}

func TestParseEmpty(t *testing.T) {
	for _, in := range []string{"", "# nothing\n", "~\n"} {
		s, err := Parse("x", []byte(in))
		if err != nil || len(s.Exempt) != 0 {
			t.Errorf("%q: %v %+v", in, err, s)
		}
	}
	if _, err := Parse("x", []byte("a: 1\n---\nb: 2\n")); err == nil {
		t.Error("two documents should be an error")
	}
	if _, err := Parse("x", []byte("[1, 2]\n")); err == nil {
		t.Error("a list should be an error")
	}
}

func TestParseContract(t *testing.T) {
	s, err := Parse(".gymlint.yaml", []byte("contract: latest\nframework_path: third_party/./nemo_gym/\n"))
	if err != nil || s.Contract != "latest" || s.FrameworkPath != "third_party/nemo_gym" {
		t.Fatalf("%v %+v", err, s)
	}
	for in, want := range map[string]string{
		"contract: newest\n":       "contract must be auto or latest",
		"framework_path: ../gym\n": "framework_path must be a directory inside the repository",
		"framework_path: /opt/x\n": "framework_path must be a directory inside the repository",
		"framework_path: .\n":      "framework_path must be a directory inside the repository",
	} {
		if _, err := Parse(".gymlint.yaml", []byte(in)); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), ":1") {
			t.Errorf("%q: %v", in, err)
		}
	}
	// And from [tool.gymlint].
	s, _, err = ParseTOML("pyproject.toml", []byte("[tool.gymlint]\ncontract = \"auto\"\nframework_path = \"vendor/nemo_gym\"\n"))
	if err != nil || s.Contract != "auto" || s.FrameworkPath != "vendor/nemo_gym" {
		t.Errorf("TOML: %v %+v", err, s)
	}
}

// TestMaxFileSizeOnlyLowers checks that a repository's configuration may
// lower the size limit but not raise it past the default: a limit that
// protects the machine running the scan is the user's to raise, with
// --max-file-size (a 62 MB app.py let in by max_file_size: 1073741824
// took 1.45 GB to parse).
func TestMaxFileSizeOnlyLowers(t *testing.T) {
	for _, n := range []string{"1", "1024", "4194304"} {
		s, err := Parse(".gymlint.yaml", []byte("max_file_size: "+n+"\n"))
		if err != nil || strconv.FormatInt(s.MaxFileSize, 10) != n {
			t.Errorf("max_file_size: %s: %v, %+v", n, err, s)
		}
	}
	for _, n := range []string{"4194305", "1073741824"} {
		_, err := Parse(".gymlint.yaml", []byte("max_file_size: "+n+"\n"))
		want := ".gymlint.yaml:1: max_file_size may only lower the size limit, to at most 4194304 bytes (the default), not " + n
		if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "--max-file-size") {
			t.Errorf("max_file_size: %s: got %v, want %q", n, err, want)
		}
		_, _, err = ParseTOML("pyproject.toml", []byte("[tool.gymlint]\nmax_file_size = "+n+"\n"))
		if err == nil || !strings.Contains(err.Error(), "max_file_size may only lower the size limit") {
			t.Errorf("[tool.gymlint] max_file_size = %s: got %v", n, err)
		}
	}
}
