package settings

import "testing"

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
