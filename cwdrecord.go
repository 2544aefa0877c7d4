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
	for rest := output; ; {
		i := strings.Index(rest, "-cwd")
		j := strings.Index(rest, "/cwd-")
		if i < 0 && j < 0 {
			return false
		}
		var line string
		switch {
		case i >= 0 && (j < 0 || i < j):
			line, rest = lineAround(rest, i), rest[i+len("-cwd"):]
			if !cwdFile(line, "claude-", "-cwd") {
				continue
			}
		default:
			line, rest = lineAround(rest, j), rest[j+len("/cwd-"):]
			if !cwdFile(line, "/cwd-", "") {
				continue
			}
		}
		low := strings.ToLower(line)
		if containsAny(low, []string{"permission denied", "no such file", "read-only file system", "operation not permitted"}) {
			return true
		}
	}
}

// lineAround is the line of s that holds s[i].
func lineAround(s string, i int) string {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	end := strings.IndexByte(s[i:], '\n')
	if end < 0 {
		return s[start:]
	}
	return s[start : i+end]
}

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
