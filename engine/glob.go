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

// walkGlob matches glob against name segment by segment.
func walkGlob(glob, name string) bool {
	if rest, ok := strings.CutPrefix(glob, "/"); ok {
		return strings.HasPrefix(name, "/") && matchSegments(rest, name[1:])
	}
	name = strings.TrimPrefix(name, "/")
	for {
		if matchSegments(glob, name) {
			return true
		}
		i := strings.IndexByte(name, '/')
		if i < 0 {
			return false
		}
		name = name[i+1:]
	}
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
// path lesson a call considers.
func matchSegments(pat, name string) bool {
	for pat != "" {
		p, prest, _ := strings.Cut(pat, "/")
		if p == "**" {
			for prest == "**" || strings.HasPrefix(prest, "**/") {
				_, prest, _ = strings.Cut(prest, "/")
			}
			if prest == "" {
				return true
			}
			for {
				if matchSegments(prest, name) {
					return true
				}
				i := strings.IndexByte(name, '/')
				if i < 0 {
					return false
				}
				name = name[i+1:]
			}
		}
		if name == "" {
			return false
		}
		n, nrest, _ := strings.Cut(name, "/")
		if !matchSegment(p, n) {
			return false
		}
		pat, name = prest, nrest
	}
	return name == ""
}

// matchSegment matches one segment; "**" inside a segment acts as "*".
func matchSegment(pat, seg string) bool {
	if !strings.ContainsAny(pat, `*?[\`) {
		return pat == seg
	}
	ok, err := path.Match(strings.ReplaceAll(pat, "**", "*"), seg)
	return ok && err == nil
}

// expandBraces turns "*.{js,ts}" into "*.js" and "*.ts"; nested and
// repeated groups expand too. Unbalanced braces are kept literally.
func expandBraces(glob string) []string {
	open := strings.IndexByte(glob, '{')
	if open < 0 {
		return []string{glob}
	}
	depth, start := 0, open+1
	var alts []string
	for i := open; i < len(glob); i++ {
		switch glob[i] {
		case '{':
			depth++
		case ',':
			if depth == 1 {
				alts = append(alts, glob[start:i])
				start = i + 1
			}
		case '}':
			depth--
			if depth == 0 {
				alts = append(alts, glob[start:i])
				var out []string
				for _, a := range alts {
					out = append(out, expandBraces(glob[:open]+a+glob[i+1:])...)
				}
				return out
			}
		}
	}
	return []string{glob}
}

// isToolPattern reports whether a trigger tool is a glob such as
// "mcp__github__*" rather than a name.
func isToolPattern(tool string) bool { return strings.ContainsAny(tool, "*?[") }

// matchTool reports whether a canonical tool name matches a tool pattern.
func matchTool(pattern, tool string) bool {
	ok, err := path.Match(pattern, tool)
	return ok && err == nil
}
