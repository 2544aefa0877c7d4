package engine

import (
	"path"
	"strings"
)

// matchGlob reports whether a trigger's glob matches a slash-separated
// path. "**" spans any number of directories, "*" and "?" stay within
// one, and a glob without a leading "/" matches any trailing run of the
// path's segments, so "*.py" matches "/a/b/c.py".
func matchGlob(glob, name string) bool {
	glob = strings.TrimSuffix(glob, "/")
	name = strings.TrimSuffix(name, "/")
	if glob == "" || name == "" {
		return false
	}
	// The suffix check is cheap and rejects most paths before the walk.
	return strings.HasSuffix(name, literalSuffix(glob)) && walkGlob(glob, name)
}

// walkGlob matches glob against name segment by segment. A glob without
// a leading "/" may match any trailing run of segments: it is "**/glob".
func walkGlob(glob, name string) bool {
	if rest, ok := strings.CutPrefix(glob, "/"); ok {
		return strings.HasPrefix(name, "/") && matchSegments(rest, name[1:])
	}
	return matchSegments("**/"+glob, strings.TrimPrefix(name, "/"))
}

// literalSuffix is the text every path a glob matches must end with: its
// last segment after the last wildcard ("**/*.py" -> ".py"), or "" when
// that segment is "**" or has an escape.
func literalSuffix(glob string) string {
	seg := glob[strings.LastIndexByte(glob, '/')+1:]
	if seg == "**" || strings.IndexByte(seg, '\\') >= 0 {
		return ""
	}
	return seg[strings.LastIndexAny(seg, "*?]")+1:]
}

// matchSegments matches slash-separated pattern segments against path
// segments, "" meaning none left, without allocating: it runs for every
// path lesson a call considers. "**" takes any number of segments. On a
// mismatch only the last "**" seen takes one segment more and the match
// resumes after it; earlier ones never need to (Russ Cox, "Glob Matching
// Can Be Simple And Fast Too"), so the time is at most segments of the
// pattern × segments of the path, whatever the pattern.
func matchSegments(pat, name string) bool {
	starPat, starName, star := "", "", false
	for {
		if pat != "" {
			p, prest, _ := strings.Cut(pat, "/")
			if p == "**" {
				starPat, starName, star = prest, name, true
				pat = prest
				continue
			}
			if name != "" {
				n, nrest, _ := strings.Cut(name, "/")
				if matchSegment(p, n) {
					pat, name = prest, nrest
					continue
				}
			}
		} else if name == "" {
			return true
		}
		if !star || starName == "" {
			return false
		}
		_, starName, _ = strings.Cut(starName, "/")
		pat, name = starPat, starName
	}
}

// matchSegment matches one segment; "**" inside a segment acts as "*".
func matchSegment(pat, seg string) bool {
	if !strings.ContainsAny(pat, `*?[\`) {
		return pat == seg
	}
	ok, err := path.Match(strings.ReplaceAll(pat, "**", "*"), seg)
	return ok && err == nil
}

// isToolPattern reports whether a trigger tool is a glob such as
// "mcp__github__*" rather than a name.
func isToolPattern(tool string) bool { return strings.ContainsAny(tool, "*?[") }

// matchTool reports whether a canonical tool name matches a tool pattern.
func matchTool(pattern, tool string) bool {
	ok, err := path.Match(pattern, tool)
	return ok && err == nil
}
