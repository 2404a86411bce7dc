package cli

import (
	"strings"
	"testing"
)

// Flag values out of range are usage errors (exit 2) that say the range,
// and the largest value in it works.
func TestFlagRanges(t *testing.T) {
	dirty := writeTree(t, map[string]string{
		"resources_servers/plain/app.py":             plainServer,
		"resources_servers/plain/configs/plain.yaml": "plain:\n  resources_servers:\n    plain:\n      entrypoint: app.py\n      domain: other\n",
		"resources_servers/plain/requirements.txt":   "fastapi\n",
	})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-file-size", "9223372036854775807"}, "gymlint: --max-file-size must be a number of bytes from 1 to 1073741824 (1 GiB), not 9223372036854775807\n"},
		{[]string{"--max-file-size", "1073741825"}, "not 1073741825"},
		{[]string{"--max-file-size", "-1"}, "not -1"},
		{[]string{"--jobs", "1025"}, "gymlint: --jobs must be from 1 to 1024 (leave it out for the number of CPUs), not 1025\n"},
		{[]string{"--jobs", "-1"}, "not -1"},
		{[]string{"--jobs", "9223372036854775807"}, "not 9223372036854775807"},
	} {
		out, errOut, code := run(t, append(c.args, dirty)...)
		if code != ExitError || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errOut, c.want)
		}
	}
	for _, args := range [][]string{{"--max-file-size", "1073741824"}, {"--jobs", "1024"}, {"--jobs", "0"}, {"--max-file-size", "0"}} {
		out, errOut, code := run(t, append(args, dirty)...)
		if code != ExitFindings || !strings.Contains(out, "resources_servers/plain/app.py:4:7: GL101") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	// The configuration's max_file_size has the same range.
	big := writeTree(t, map[string]string{".gymlint.yaml": "max_file_size: 9223372036854775807\n"})
	if _, errOut, code := run(t, big); code != ExitError || !strings.Contains(errOut, ".gymlint.yaml:1: max_file_size must be a positive number of bytes, at most 1073741824 (1 GiB)") {
		t.Errorf("max_file_size: exit %d, stderr %q", code, errOut)
	}
}
