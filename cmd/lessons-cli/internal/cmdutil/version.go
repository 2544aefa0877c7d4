package cmdutil

import (
	"regexp"
	"runtime/debug"
	"strings"

	lessons "github.com/lessons-dev/lessons"
)

// BuildVersion is the version this binary reports, both in `lessons-cli
// --version` and in the Claude Code plugin it writes, and the commit it
// was built from ("" when unknown). A release stamps both with -ldflags;
// `go install …@v0.2.0` records the tag, which wins over the source's
// lessons.Version; a checkout's build, whatever Go's VCS stamping
// setting, reports lessons.Version, since the pseudo-version Go stamps
// there ("v0.0.0-20261124121209-5f29330ff285") is no release.
func BuildVersion() (version, commit string) {
	info, _ := debug.ReadBuildInfo()
	return buildVersion(info, lessons.Version, lessons.Commit)
}

// releaseTag is a module version that names a tagged release: no
// "+dirty" or other build part.
var releaseTag = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

// pseudoTail ends every pseudo-version: a 14-digit UTC time and a
// 12-digit commit hash.
var pseudoTail = regexp.MustCompile(`[.-][0-9]{14}-[0-9a-f]{12}$`)

// buildVersion is BuildVersion over what the build recorded (info may
// be nil) and what -ldflags stamped.
func buildVersion(info *debug.BuildInfo, stamped, stampedCommit string) (version, commit string) {
	version, commit = stamped, stampedCommit
	if info == nil {
		return version, commit
	}
	if v := info.Main.Version; stampedCommit == "" && releaseTag.MatchString(v) && !pseudoTail.MatchString(v) {
		version = strings.TrimPrefix(v, "v")
	}
	if commit == "" {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				commit = s.Value[:12]
			}
		}
	}
	return version, commit
}
