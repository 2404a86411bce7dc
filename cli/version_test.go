package cli

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	const rev = "662883d9727e3ce79d1bc17ea234b3485e11f26b"
	vcs := func(modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: "2026-12-01T23:37:05Z"}, {Key: "vcs.modified", Value: modified}}
	}
	main := func(v string, settings []debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: "github.com/gymlint/gymlint", Version: v}, Settings: settings}
	}
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build information", nil, "devel"},
		{"go install module@v0.3.1", main("v0.3.1", nil), "v0.3.1"},
		{"go install module@commit", main("v0.0.0-20261201233705-662883d9727e", nil), "v0.0.0-20261201233705-662883d9727e"},
		// Since Go 1.24 a build in a checkout stamps a pseudo-version; it wins over the settings.
		{"go build in a clean checkout", main("v0.0.0-20261201233705-662883d9727e", vcs("false")), "v0.0.0-20261201233705-662883d9727e"},
		{"go build in a dirty checkout", main("v0.0.0-20261201233705-662883d9727e+dirty", vcs("true")), "v0.0.0-20261201233705-662883d9727e+dirty"},
		{"devel, clean revision", main("(devel)", vcs("false")), "662883d9727e"},
		{"devel, modified work tree", main("(devel)", vcs("true")), "662883d9727e-dirty"},
		{"no version, revision", main("", vcs("false")), "662883d9727e"},
		{"short revision", main("(devel)", []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}}), "abc123"},
		{"-buildvcs=false", main("(devel)", []debug.BuildSetting{{Key: "-buildvcs", Value: "false"}}), "devel"},
		{"modified without a revision", main("(devel)", []debug.BuildSetting{{Key: "vcs.modified", Value: "true"}}), "devel"},
	} {
		if got := buildVersion(tc.bi); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestVersionFlag checks --version's form, and that the -ldflags -X value
// comes before the build information.
func TestVersionFlag(t *testing.T) {
	bi, _ := debug.ReadBuildInfo()
	if out, errOut, code := run(t, "--version"); code != ExitClean || out != "gymlint "+buildVersion(bi)+"\n" || errOut != "" {
		t.Errorf("--version: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	old := Version
	t.Cleanup(func() { Version = old })
	Version = "v9.8.7"
	if out, _, code := run(t, "--version"); code != ExitClean || out != "gymlint v9.8.7\n" {
		t.Errorf("--version with Version set: exit %d, %q", code, out)
	}
}
