package lessons

import "strings"

// Claude Code runs a shell call as `source SNAPSHOT && eval COMMAND &&
// pwd -P >| $TMPDIR/claude-ID-cwd` (`cwd-ID` in its sandbox's folder) to
// learn where the command left the shell (its bundles, 1.0.115 and
// 2.1.332). That last write runs only once the command succeeded; when
// it fails (zsh's "permission denied: /var/folders/…/T/claude-46eb-cwd"
// where the temporary folder is not writable) the call reads as failed
// though its command did not fail.

// CwdRecordFailed reports whether an output holds the error of that
// write: the command before it succeeded.
func CwdRecordFailed(output string) bool {
	if !strings.Contains(output, "cwd") {
		return false
	}
	for line := range strings.Lines(output) {
		if strings.Contains(line, "cwd") && (cwdFile(line, "claude-", "-cwd") || cwdFile(line, "/cwd-", "")) &&
			containsAny(strings.ToLower(line), writeFailures) {
			return true
		}
	}
	return false
}

// writeFailures are how shells say a write to a file failed, lower case.
var writeFailures = []string{"permission denied", "no such file", "read-only file system", "operation not permitted"}

// cwdFile reports whether line names a file prefix+ID+suffix, ID four or
// more hexadecimal digits.
func cwdFile(line, prefix, suffix string) bool {
	for from := 0; ; {
		k := strings.Index(line[from:], prefix)
		if k < 0 {
			return false
		}
		k += from + len(prefix)
		n := 0
		for k+n < len(line) && strings.IndexByte("0123456789abcdef", line[k+n]) >= 0 {
			n++
		}
		if n >= 4 && strings.HasPrefix(line[k+n:], suffix) {
			return true
		}
		from = k
	}
}
