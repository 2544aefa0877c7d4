package engine

import (
	"path"
	"strings"
)

// Heredoc bodies are data unless a shell or an interpreter reads them: the
// text of `git commit -m "$(cat <<'EOF' … EOF)"` or of `gh pr create
// --body-file - <<EOF` is a message, and a command trigger that finds
// `docker exec -it` or `apt-get install` on one of its lines would fire
// on what the agent wrote about a command, not on a command it runs.

// heredocReaders are the programs whose heredoc is code to run, kept for
// the command triggers to see: shells, remote and container shells, and
// interpreters.
var heredocReaders = map[string]bool{
	"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "ssh": true,
	"docker": true, "podman": true, "kubectl": true, "lxc": true, "nix": true, "env": true,
	"python": true, "python3": true, "node": true, "deno": true, "bun": true, "ruby": true, "perl": true, "php": true,
	"psql": true, "mysql": true, "sqlite3": true, "osascript": true, "sudo": true, "uv": true, "npx": true,
}

// maxHeredocs caps the heredocs read in one command.
const maxHeredocs = 8

// triggerText is cmd as command triggers read it: the bodies of its
// heredocs that no shell or interpreter reads cut out (their `<<EOF` and
// closing line stay). A command without `<<` comes back as it is, with
// no work done.
func triggerText(cmd string) string {
	if !strings.Contains(cmd, "<<") {
		return cmd
	}
	var b strings.Builder
	rest := cmd
	for n := 0; n < maxHeredocs; n++ {
		i := heredocStart(rest)
		if i < 0 {
			break
		}
		delim, strip, after := heredocDelim(rest[i+2:])
		if delim == "" {
			b.WriteString(rest[:i+2])
			rest = rest[i+2:]
			continue
		}
		opEnd := len(rest) - len(after)
		nl := strings.IndexByte(after, '\n')
		if nl < 0 {
			break
		}
		body := after[nl+1:]
		end, closing := heredocEnd(body, delim, strip)
		b.WriteString(rest[:opEnd+nl+1])
		if heredocReaders[heredocReader(rest[:i])] {
			b.WriteString(body[:end])
		}
		b.WriteString(closing)
		rest = body[min(end+len(closing), len(body)):]
	}
	if b.Len() == 0 {
		return cmd
	}
	b.WriteString(rest)
	return b.String()
}

// heredocStart is the index of the next `<<` in s that starts a heredoc
// (not `<<<`, a here-string), or -1.
func heredocStart(s string) int {
	for off := 0; ; {
		i := strings.Index(s[off:], "<<")
		if i < 0 {
			return -1
		}
		i += off
		if strings.HasPrefix(s[i:], "<<<") {
			off = i + 3
			continue
		}
		return i
	}
}

// heredocDelim reads the delimiter after `<<`: an optional `-` (leading
// tabs stripped), then a word, bare or quoted. It returns the word,
// whether tabs are stripped, and what follows it; "" when there is none.
func heredocDelim(s string) (delim string, strip bool, after string) {
	if strings.HasPrefix(s, "-") {
		strip, s = true, s[1:]
	}
	s = strings.TrimLeft(s, " \t")
	if s == "" {
		return "", false, s
	}
	if q := s[0]; q == '\'' || q == '"' {
		j := strings.IndexByte(s[1:], q)
		if j <= 0 {
			return "", false, s
		}
		return s[1 : j+1], strip, s[j+2:]
	}
	j := 0
	for j < len(s) && (s[j] == '_' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9') {
		j++
	}
	return s[:j], strip, s[j:]
}

// heredocEnd finds the line of body that closes the heredoc: the
// delimiter alone (after tabs, for `<<-`), or its end with `)` or `"`
// after it, as a heredoc inside `$( … )` closes. It returns the body's
// length before that line and the line with its newline; the whole body
// and "" when no line closes it.
func heredocEnd(body, delim string, strip bool) (int, string) {
	for off := 0; off < len(body); {
		line := body[off:]
		nl := strings.IndexByte(line, '\n')
		if nl >= 0 {
			line = line[:nl+1]
		}
		word := strings.TrimRight(line, "\r\n")
		if strip {
			word = strings.TrimLeft(word, "\t")
		}
		if word == delim || strings.HasPrefix(word, delim) && strings.Trim(word[len(delim):], ` )"'`) == "" {
			return off, line
		}
		off += len(line)
	}
	return len(body), ""
}

// heredocReader is the program of the simple command a heredoc is given
// to: the first word after the last `;`, `&`, `|`, `(`, a newline or
// `$(` before it, past variable assignments.
func heredocReader(before string) string {
	start := strings.LastIndexAny(before, ";&|(\n")
	words := strings.Fields(before[start+1:])
	for _, w := range words {
		if strings.Contains(w, "=") && !strings.HasPrefix(w, "-") {
			continue // VAR=value
		}
		return path.Base(strings.Trim(w, `"'`))
	}
	return ""
}
