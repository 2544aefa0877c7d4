package cmdutil

import (
	"runtime/debug"
	"testing"
)

// TestBuildVersion: a pseudo-version from Go's VCS stamping never
// becomes the version; a release's stamp or a module tag does.
func TestBuildVersion(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "5f29330ff2851234567890abcdef1234567890ab"}}
	cases := []struct {
		name                string
		main                string
		settings            []debug.BuildSetting
		stamped, stampedRev string
		version, commit     string
	}{
		{"checkout, stamping off", "(devel)", nil, "0.1.0", "", "0.1.0", ""},
		{"checkout, stamping on", "v0.0.0-20261124121209-5f29330ff285", rev, "0.1.0", "", "0.1.0", "5f29330ff285"},
		{"dirty checkout", "v0.0.0-20261124121209-5f29330ff285+dirty", rev, "0.1.0", "", "0.1.0", "5f29330ff285"},
		{"after a tag", "v0.2.1-0.20261124121209-5f29330ff285", rev, "0.1.0", "", "0.1.0", "5f29330ff285"},
		{"go install @tag", "v0.2.0", nil, "0.1.0", "", "0.2.0", ""},
		{"go install @rc", "v0.3.0-rc1", nil, "0.1.0", "", "0.3.0-rc1", ""},
		{"release", "v0.0.0-20261124121209-5f29330ff285", rev, "0.4.0", "abcdefabcdef", "0.4.0", "abcdefabcdef"},
	}
	for _, c := range cases {
		info := &debug.BuildInfo{Main: debug.Module{Version: c.main}, Settings: c.settings}
		v, commit := buildVersion(info, c.stamped, c.stampedRev)
		if v != c.version || commit != c.commit {
			t.Errorf("%s: buildVersion(%q) = %q, %q; want %q, %q", c.name, c.main, v, commit, c.version, c.commit)
		}
	}
}
