package scanner

import (
	"cmp"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine/secret"
)

// Wrong paths: a call failed because a path it named does not exist (a
// script guessed at scripts/x.sh that lives under tools/…/scripts/x.sh, a
// file read where it is not, a notes file that is never there), and a
// later call of the session used a path of the same name elsewhere and
// worked. The first path was a guess; the lesson is where the file is.
// Only the same mistake uses the wrong path again, so its trigger is the
// path itself and the lesson comes before the call, from one session: a
// fix that worked. A path missing in several sessions with nothing of its
// name found instead is the same lesson without the right path, and waits
// for a second session.
//
// Not a wrong path: one the session then wrote or used again and it
// worked (it was missing then, a precondition, or the shell stood
// elsewhere); a bare name or one directory (README.md, src), a variable
// or a glob, a path with "..", a temporary file, a directory a relative
// cd did not find (the shell keeps the directory of the last cd).

// KindPath is a path that did not exist, and where the file was instead.
const KindPath = "path"

// Bounds of the wrong paths a session watches.
const (
	maxMissing   = 8   // missing paths watched in a session
	missingReach = 200 // calls after a failure in which the path's name may turn up
	missingLines = 20  // lines of a failure's output read for the path
)

// missingWatch is a path a failed call named that did not exist.
type missingWatch struct {
	rec  *callRec
	res  *Result
	path string // as the call named it
	abs  string // absolute when the session says where it was ("" else)
	key  string // as a lesson keeps it (pathKey)
	// found is a path of the same name elsewhere that a later call used
	// and that worked, and by the call that used it; gone is set when
	// the path itself was used again and worked, or was written.
	found string
	by    *Call
	gone  bool
	// run is set when the shell ran the path: the program, or the script
	// an interpreter was given.
	run bool
	// tail is set when found is the missing path's tail (the same file
	// under the project): only a wrong folder's lesson may come of it.
	tail bool
	// dirs are the folders (up to two) of the files of its name that
	// later calls used: two say the name does not tell one file.
	dirs []string
	// at is the line of the failure's result: a call made before it was
	// made alongside the failed one, not in answer to it.
	at int
}

// wrongPath is what a lesson on a wrong path is made of.
type wrongPath struct {
	Path   string   // the wrong path as the call named it
	Found  string   // where the file was, or ""
	Forms  []string // the wrong path's forms a command may name it by
	Glob   string   // the path glob of a file tool's lesson
	Shell  bool     // the failed call was a shell command
	Key    string   // the wrong path as the project's lessons name it (pathKey)
	Worked string   // the call that used Found, as the session logged it
}

// missingPhrases are the words of an error line that says a path does not
// exist, lower case.
var missingPathWords = []string{"no such file", "does not exist", "doesn't exist", "enoent", "cannot access",
	"can't open file", "cannot open", "not found", "cannot find", "could not find", "can't find", "no such directory"}

// saysMissing reports whether a lower-case error line says a path does
// not exist (missingPathWords).
func saysMissing(low string) bool {
	return slices.ContainsFunc(missingPathWords, func(w string) bool { return strings.Contains(low, w) })
}

// existenceProbes ask whether a path exists: their failure is an answer,
// and their success after a "||" says nothing.
var existenceProbes = map[string]bool{"test": true, "[": true, "[[": true, "ls": true, "stat": true, "file": true,
	"which": true, "find": true, "realpath": true, "readlink": true, "type": true, "command": true}

// creators make the paths they name: a path one of them names worked
// because it made it.
var creators = map[string]bool{"mkdir": true, "touch": true, "cp": true, "mv": true, "ln": true, "tee": true,
	"install": true, "rsync": true, "echo": true, "printf": true, "git": true, "curl": true, "wget": true, "tar": true, "unzip": true}

// watchMissing starts watching a failed call whose error says a path it
// named does not exist.
func (a *analyzer) watchMissing(rec *callRec, r *Result, at int) {
	if len(a.missing) >= maxMissing || r.Timeout {
		return
	}
	c := rec.call
	p, abs, run := a.missingPath(c, r)
	if p == "" {
		return
	}
	key := pathKey(cmp.Or(abs, p), a.sess.Project)
	for _, m := range a.missing {
		if m.key == key {
			return // the same path again: one lesson
		}
	}
	a.missing = append(a.missing, &missingWatch{rec: rec, res: r, path: p, abs: abs, key: key, run: run, at: at})
}

// missingPath is the path of a failed call that its error says does not
// exist, as the call named it and absolute when known; "" when the error
// names none of the call's paths, or the path is not one a lesson can be
// about. run is set for a path the shell ran.
func (a *analyzer) missingPath(c *Call, r *Result) (p, abs string, run bool) {
	lines := missingErrorLines(r.Output)
	if len(lines) == 0 {
		return "", "", false
	}
	if c.Tool != "Bash" {
		if c.Path == "" || c.Tool == "Write" || !aboutTheCall(r.Output, c) {
			return "", "", false // or the error names another path (the tool's own program)
		}
		p = c.Path
		abs = a.resolve(p, c.Dir)
		if !lessonPath(p, abs, a.sess.Project) {
			return "", "", false
		}
		return p, abs, false
	}
	if strings.Contains(r.Output, "command not found") {
		return "", "", false // a program the shell did not find: known.go and onerror.go say it
	}
	cd := ""
	for _, seg := range segments(c.Command) {
		exe, _ := commandHead(seg)
		for i, w := range seg {
			w = pathWord(w)
			if w == "" || i > 0 && strings.ContainsAny(seg[i-1], "<>") {
				continue
			}
			if exe == "cd" && !absPath(w) {
				continue // a relative cd: where it leads depends on the last one
			}
			if existenceProbes[exe] || creators[exe] {
				continue // asked whether it exists, or made it
			}
			at := namedIn(lines, w)
			if at == "" || a.shellMoved && !absPath(w) && !absPath(at) {
				continue // not named; or named only as written, by a shell an earlier cd may have left elsewhere
			}
			abs := a.resolve(w, c.Dir)
			if cd != "" && !absPath(w) {
				abs = a.resolve(path.Join(cd, w), c.Dir)
			}
			if absPath(at) {
				abs = path.Clean(at)
			}
			if lessonPath(w, abs, a.sess.Project) {
				return w, abs, ranBy(seg, i, exe)
			}
		}
		if exe == "cd" && len(seg) == 2 {
			cd = seg[1]
		}
	}
	return "", "", false
}

// noteCd notes a shell call that changed to another directory than the
// project's: a shell that keeps its directory between calls (Claude
// Code's, even after cd x && …) may stand elsewhere from then on, so a
// relative path its errors name only as written says nothing of where
// the file is; a cd back to the project's folder ends that.
func (a *analyzer) noteCd(c *Call) {
	if c == nil || c.Tool != "Bash" || !strings.Contains(c.Command, "cd ") {
		return // most commands: no need to split them
	}
	for _, seg := range segments(c.Command) {
		if len(seg) == 0 || seg[0] != "cd" {
			continue
		}
		a.shellMoved = len(seg) < 2 || a.resolve(seg[1], c.Dir) != path.Clean(a.sess.Project)
	}
}

// interpreters run the script their first argument names.
var interpreters = map[string]bool{"bash": true, "sh": true, "zsh": true, "source": true, ".": true, "python": true,
	"python3": true, "node": true, "bun": true, "deno": true, "tsx": true, "ts-node": true, "ruby": true, "perl": true, "php": true}

// ranBy reports whether word i of a simple command is what it runs: the
// program, or the first argument of an interpreter.
func ranBy(seg []string, i int, exe string) bool {
	if path.Base(seg[i]) == exe {
		return true
	}
	if !interpreters[exe] {
		return false
	}
	for j := i - 1; j >= 0; j-- {
		if path.Base(seg[j]) == exe {
			return true
		}
		if !strings.HasPrefix(seg[j], "-") {
			return false
		}
	}
	return false
}

// missingErrorLines are the lines of an output, near its head, that say
// a path does not exist, lower case... kept as written: paths keep their
// case.
func missingErrorLines(out string) []string {
	var lines []string
	n := 0
	for line := range strings.Lines(out) {
		if n++; n > missingLines {
			break
		}
		low := strings.ToLower(line)
		if saysMissing(low) {
			lines = append(lines, strings.TrimSpace(withoutReferrer(line, low)))
		}
	}
	return lines
}

// referrers are the words with which an error names the file that asked
// for the missing one ("Cannot find module 'a' imported from b.mjs"): that
// file is there.
var referrers = []string{" imported from ", " required from ", " referenced from ", " included from "}

// withoutReferrer is an error line (low, lower case) up to where it names
// the file that asked for the missing one.
func withoutReferrer(line, low string) string {
	for _, r := range referrers {
		if i := strings.Index(low, r); i >= 0 {
			line, low = line[:i], low[:i]
		}
	}
	return line
}

// cdFailed reports whether the output of a shell command says a folder
// one of its cds named by its full path does not exist: a folder guessed
// wrong. A relative cd that failed may have been run where an earlier
// one left the shell, and what got past it is a way to run the rest.
func cdFailed(cmd, out string) bool {
	if !strings.Contains(cmd, "cd ") {
		return false
	}
	var lines []string
	read := false
	for _, seg := range segments(cmd) {
		if exe, _ := commandHead(seg); exe != "cd" || len(seg) < 2 || !strings.HasPrefix(seg[len(seg)-1], "/") && !strings.HasPrefix(seg[len(seg)-1], "~") {
			continue
		}
		if !read {
			lines, read = missingErrorLines(out), true
		}
		if namedIn(lines, strings.TrimSuffix(seg[len(seg)-1], "/")) != "" {
			return true
		}
	}
	return false
}

// pathWord is a shell word as the path it names ("" for a word that is no
// path): an option's value after "=", without a leading "./"; a path has
// a directory part, and names no package, URL, remote or variable.
func pathWord(w string) string {
	if strings.HasPrefix(w, "-") {
		_, v, ok := strings.Cut(w, "=")
		if !ok {
			return ""
		}
		w = v
	}
	if d, ok := driveSlashed(w); ok {
		if strings.ContainsAny(d[2:], "$*?[]{}<>`=: \t\n") || !strings.Contains(strings.TrimSuffix(d[3:], "/"), "/") {
			return ""
		}
		return d
	}
	w = strings.TrimPrefix(w, "./")
	if !strings.Contains(strings.TrimSuffix(w, "/"), "/") || strings.HasPrefix(w, "@") || strings.ContainsAny(w, "$*?[]{}<>`=: \t\n") {
		return "" // no folder; a package (@scope/name), a URL or a remote (host:path), a variable or a glob
	}
	return w
}

// namedIn is how an error line names path word w: w itself, or an
// absolute path that ends in it (the program resolved it); "" when no
// line names it. A Windows path is named with either slash.
func namedIn(lines []string, w string) string {
	drive := lessons.WindowsDrive(w)
	for _, line := range lines {
		if drive {
			line = strings.ReplaceAll(line, "\\", "/")
		}
		for i := 0; ; {
			j := strings.Index(line[i:], w)
			if j < 0 {
				break
			}
			j += i
			i = j + 1
			end := j + len(w)
			if end < len(line) && !pathDelimiter(line[end]) {
				continue
			}
			if j == 0 || pathDelimiter(line[j-1]) {
				return w
			}
			if line[j-1] != '/' {
				continue
			}
			k := j - 1
			for k > 0 && !pathDelimiter(line[k-1]) {
				k--
			}
			if tok := line[k:end]; strings.HasPrefix(tok, "/") {
				return tok
			}
		}
	}
	return ""
}

func pathDelimiter(b byte) bool {
	return b == ' ' || b == '\t' || b == '\'' || b == '"' || b == '`' || b == ':' || b == ',' || b == '(' || b == ')' || b == '\u00a0'
}

// resolve is p as an absolute path when the session says where it ran: p
// itself when absolute, else under the call's directory or the project's;
// "" when neither is known or p starts at the home directory.
func (a *analyzer) resolve(p, dir string) string {
	switch {
	case absPath(p):
		return path.Clean(p)
	case strings.HasPrefix(p, "~"):
		return ""
	case strings.HasPrefix(dir, "/"):
		return path.Join(dir, p)
	case strings.HasPrefix(a.sess.Project, "/"):
		return path.Join(a.sess.Project, dir, p)
	}
	return ""
}

// maxPathLen caps the wrong path a lesson is about.
const maxPathLen = 300

// tempDirs are where a path is one task's scratch file.
var tempDirs = []string{"/tmp/", "/var/tmp/", "/var/folders/", "/private/", "/dev/", "/proc/"}

// lessonPath reports whether a missing path can be a lesson's trigger: a
// file or directory with at least two parts below the project or the
// home directory, not "." or "..", not under a temporary directory, with
// no variable or glob in it.
func lessonPath(p, abs, project string) bool {
	if p == "" || len(p) > maxPathLen || slices.Contains(strings.Split(p, "/"), "..") ||
		strings.ContainsAny(p, "$*?[]{}") || strings.ContainsFunc(p, unicode.IsControl) {
		return false // a variable or a glob, or a path from a log too long or odd to be a trigger
	}
	for _, t := range tempDirs {
		if strings.HasPrefix(abs, t) || strings.HasPrefix(p, t) {
			return false
		}
	}
	key := pathKey(cmp.Or(abs, p), project)
	parts := slices.DeleteFunc(strings.Split(strings.Trim(key, "/"), "/"), func(s string) bool { return s == "~" || s == "" || s == "." })
	if len(parts) < 2 {
		return false
	}
	if base := path.Base(key); base == "." || base == "/" || base == "~" {
		return false
	}
	return true
}

// pathKey is a path as a lesson keeps it, the same on every machine and
// checkout of the project: relative to the project when inside it, from
// "~" when in a home directory, and with the project's own name in a
// folder name (an agent's per-project folder, -Users-me-src-app) as "*".
func pathKey(p, project string) string {
	p = strings.TrimSuffix(path.Clean(p), "/")
	if d, ok := driveSlashed(project); ok {
		project = d
	}
	project = strings.TrimSuffix(project, "/")
	if project != "" && strings.HasPrefix(p, project+"/") {
		return p[len(project)+1:]
	}
	if rest, ok := homeRest(p); ok {
		p = "~/" + rest
	}
	if slug := folderSlug(project); slug != "" {
		parts := strings.Split(p, "/")
		for i, s := range parts {
			if folderSlug(s) == slug {
				parts[i] = "*"
			}
		}
		p = strings.Join(parts, "/")
	}
	return p
}

// homeRest is what follows a home directory (/home/me, /Users/me, /root)
// in an absolute path.
func homeRest(p string) (string, bool) {
	if lessons.WindowsDrive(p) && strings.HasPrefix(p[2:], "/Users/") {
		p = p[2:] // C:/Users/me/…
	}
	for _, h := range []string{"/home/", "/Users/"} {
		if rest, ok := strings.CutPrefix(p, h); ok {
			if _, after, ok := strings.Cut(rest, "/"); ok {
				return after, true
			}
		}
	}
	return strings.CutPrefix(p, "/root/")
}

// folderSlug is a name with every run of characters other than letters
// and digits as one "-", lower case: an agent names a project's folder
// after its path that way. "" for a name too short to tell.
func folderSlug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.Trim(b.String(), "-")
	if strings.Count(out, "-") < 2 {
		return "" // a plain name, not a path made a name
	}
	return out
}

// usedPaths are the paths a call that worked used: a file tool's path, or
// the path words of a shell command but those an existence probe asked
// about after "||" and those a command made. written is set for a path
// the call may have made (a Write, or a creating command).
func usedPaths(c *Call, visit func(p string, written bool)) {
	if c.Tool != "Bash" {
		if c.Path != "" {
			visit(strings.TrimPrefix(c.Path, "./"), c.Tool == "Write")
		}
		return
	}
	fallback := strings.Contains(c.Command, "||")
	for _, seg := range segments(c.Command) {
		exe, _ := commandHead(seg)
		if existenceProbes[exe] && fallback {
			continue
		}
		for i, w := range seg {
			if w = pathWord(w); w != "" {
				visit(w, creators[exe] || i > 0 && strings.ContainsAny(seg[i-1], ">"))
			}
		}
	}
}

// fileFolder is the folder of the file a file tool's call named, when
// absolute (file tools name absolute paths; a relative one is in the
// project), else "".
func fileFolder(c *Call) string {
	if i := strings.LastIndexByte(c.Path, '/'); i > 0 && c.Path[0] == '/' && c.Tool != "Bash" {
		return c.Path[:i]
	}
	return ""
}

// foundFile is the absolute path of the file a file tool's call that
// worked found there (not one a Write made there), or "".
func foundFile(c *Call) string {
	if c.Tool == "Write" || fileFolder(c) == "" {
		return ""
	}
	return c.Path
}

// missingSaw sees a call that worked: a path of a watched one's name
// elsewhere is where it was; the watched path itself is no wrong path.
func (a *analyzer) missingSaw(rec *callRec) {
	c := rec.call
	if d := fileFolder(c); d != "" && len(a.areas) < maxAreas {
		if a.areas == nil {
			a.areas = map[string]bool{}
		}
		a.areas[d] = true
		if len(a.folders) < sampleCallsPerFile && !slices.Contains(a.folders, d) {
			a.folders = append(a.folders, d)
		}
		if f := foundFile(c); f != "" && len(a.files) < sampleFilesPerFile && !slices.Contains(a.files, f) {
			a.files = append(a.files, f)
		}
	}
	if strings.HasPrefix(c.Dir, "/") && len(a.cwds) < maxAreas {
		if a.cwds == nil {
			a.cwds = map[string]bool{}
		}
		a.cwds[path.Clean(c.Dir)] = true
	}
	if len(a.missing) == 0 {
		return
	}
	for _, m := range a.missing {
		if m.gone || rec.seq-m.rec.seq > missingReach {
			continue
		}
		if c.Tool != "Bash" && m.abs != "" && strings.HasPrefix(c.Path, m.abs+"/") ||
			c.Tool == "Bash" && strings.Contains(c.Command, strings.TrimSuffix(m.path, "/")+"/") {
			m.gone = true // a file in it used or made: the folder is there now, it was missing, not wrong
			continue
		}
		base := path.Base(m.path)
		if c.Tool == "Bash" && !strings.Contains(c.Command, base) || c.Tool != "Bash" && path.Base(c.Path) != base {
			continue
		}
		usedPaths(c, func(p string, written bool) {
			if path.Base(p) != base || m.gone {
				return
			}
			abs := a.resolve(p, c.Dir)
			if p == m.path && (abs == "" || m.abs == "" || abs == m.abs) || pathKey(cmp.Or(abs, p), a.sess.Project) == m.key {
				m.gone = true // used again and it worked, or written: it was missing, not wrong
				return
			}
			if rec.line < m.at {
				return // made alongside the failed call: no answer to it
			}
			if dir := path.Dir(cmp.Or(abs, p)); len(m.dirs) < 2 && !slices.Contains(m.dirs, dir) {
				m.dirs = append(m.dirs, dir)
			}
			// the first path of the name that worked, unless a later one
			// shares more of the missing path's folders (app/generate/x.ts
			// for app-app/app/generate/x.ts, not app/settings/x.ts)
			better := !written && (m.found == "" || sharedTail(m.path, p) > sharedTail(m.path, m.found))
			if strings.HasSuffix(m.key, "/"+pathKey(cmp.Or(abs, p), a.sess.Project)) {
				// the right path is the wrong one's tail: the call stood in
				// another folder (a copy, a checkout), which changes from
				// task to task, and the lesson on its error says so; unless
				// the root was guessed wrong (settlePaths, wrongFolder)
				if better {
					m.found, m.by, m.tail = p, c, true
				}
				return
			}
			if better && !strings.HasPrefix(p, "~") && lessonPath(p, abs, a.sess.Project) &&
				(!m.run || c.Tool != "Bash" || runs(c.Command, p)) {
				m.found, m.by, m.tail = p, c, false
			}
		})
	}
}

// sharedTail is the number of trailing path elements a and b share.
func sharedTail(a, b string) int {
	x, y := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < min(len(x), len(y)) && x[len(x)-1-n] == y[len(y)-1-n] {
		n++
	}
	return n
}

// settlePaths turns the session's wrong paths into findings, before the
// other findings of the session are settled: a known failure or a lesson
// on the error of the same call then leaves it to the wrong path, whose
// trigger comes before the call; a retry of it says less than where the
// file is.
func (a *analyzer) settlePaths() {
	for _, m := range a.missing {
		if m.gone || m.found == "" && a.workArea(m) {
			continue
		}
		c := m.rec.call
		wp := &wrongPath{Path: m.path, Found: m.found, Shell: c.Tool == "Bash", Key: m.key}
		if m.by != nil {
			wp.Worked = callTrigger(m.by)
		}
		if wrong, right := a.wrongFolder(m); wrong != "" {
			wp.Path, wp.Found, wp.Key, wp.Glob = wrong+"/", right+"/", pathKey(wrong, a.sess.Project)+"/", wrong+"/**"
		} else if m.tail || m.namesNone() || !wp.trigger(m, a.sess.Project) {
			continue
		}
		// a file of the project read where it is not and found elsewhere
		// in it: the code moved with the work (a refactor, a branch) and
		// may move again, so a second session says it is no one task's; a
		// script the shell ran, or a file found outside the project (a
		// tool, a skill's script), stays where it is. A path with a number
		// in it (a version, a run) is one task's too, and so is a wrong
		// path outside the project: a guess at where this machine keeps a
		// tool's files is the agent's of the day, not the project's, and
		// one session does not say it is guessed again.
		moved := m.found != "" && !m.run && a.workArea(m) && a.inProject(m.found, m.by)
		moved = moved || strings.ContainsAny(wp.Key, "0123456789") || outsideProject(wp.Key)
		if m.found != "" {
			a.findings = slices.DeleteFunc(a.findings, func(f finding) bool { return f.Call == m.rec.id && f.Kind == KindRetry })
		}
		a.findings = append(a.findings, finding{
			Kind: KindPath, Line: m.rec.line, UID: m.rec.uid, Tool: c.Tool, Trigger: callTrigger(c), Fixed: wp.Worked,
			Call: m.rec.id, Change: wp.Key, Problem: m.res.errorText(), Path: wp,
			Signals: Signals{FixConfirmed: m.found != "", OneOff: moved},
		})
	}
	a.missing, a.areas, a.cwds = nil, nil, nil
}

// namesNone reports whether the file found shares no more of the missing
// path than another file used that worked: only its name (an index.ts, a
// SKILL.md), or the same folders and name (src/lib.rs in a workspace of
// crates). The path does not say which file was meant, and the one found
// is as likely another file.
func (m *missingWatch) namesNone() bool {
	if m.found == "" || len(m.dirs) < 2 {
		return false
	}
	n := sharedTail(m.path, m.found)
	if n < 2 {
		return true
	}
	for _, d := range m.dirs {
		if other := path.Join(d, path.Base(m.path)); !strings.HasSuffix(m.found, other) && !strings.HasSuffix(other, m.found) && sharedTail(m.path, other) >= n {
			return true
		}
	}
	return false
}

// wrongFolder finds a folder guessed wrong: a file tool's path was
// missing, and the file it named was found where the same folders and
// file name (at least one folder and the name) hang under another
// folder, a root guessed wrong (app/src/x.ts read as src/x.ts, or under
// app-app/). wrong is the first folder of the missing path off the path
// that worked, right the folder that stands for it there. None when the
// session used a file under wrong: it exists, and only the file was not
// in it.
func (a *analyzer) wrongFolder(m *missingWatch) (wrong, right string) {
	if m.by == nil || m.by.Tool == "Bash" || m.rec.call.Tool == "Bash" || m.abs == "" {
		return "", ""
	}
	found := a.resolve(m.found, m.by.Dir)
	if found == "" {
		return "", ""
	}
	w, r := strings.Split(m.abs, "/"), strings.Split(found, "/")
	tail := sharedTail(m.abs, found)
	if tail < 2 || tail == len(w) || tail == len(r) {
		return "", "" // only the name is the same, or one path is the other's tail
	}
	// the first folder off the path that worked, after all the folders
	// the two share from the root: where a name repeats (App/App/x.swift
	// read as App/x.swift), the shared tail alone would point at a folder
	// that is there
	k := 0
	for k < len(w)-1 && k < len(r)-1 && w[k] == r[k] {
		k++
	}
	if k < minAreaDepth || len(w)-k-1 > tail {
		return "", "" // a guess near the root (another home, another volume), or folders the right path lacks
	}
	wrong = strings.Join(w[:k+1], "/")
	right = strings.Join(r[:len(r)-(len(w)-k-1)], "/")
	under := func(d string) bool { return d == wrong || strings.HasPrefix(d, wrong+"/") }
	if anyKey(a.areas, under) || anyKey(a.cwds, under) || under(a.sess.Dir) || under(a.sess.Project) ||
		!lessonPath(wrong, wrong, a.sess.Project) {
		return "", "" // the session used a file in it, or ran in it: it is there
	}
	return wrong, right
}

// outsideProject reports whether a path as a lesson keeps it (pathKey)
// lies outside the project: in the home directory or elsewhere on the
// machine.
func outsideProject(key string) bool {
	return strings.HasPrefix(key, "/") || strings.HasPrefix(key, "~")
}

// maxAreas caps the folders a session remembers using files in, and
// running in.
const maxAreas = 1024

// anyKey reports whether f holds for a key of set.
func anyKey(set map[string]bool, f func(string) bool) bool {
	for k := range set {
		if f(k) {
			return true
		}
	}
	return false
}

// workArea reports whether a missing path lies where the session works:
// in the project, or in a folder it shares two levels below the home
// directory (three below the root elsewhere) with a file the session
// used: a checkout the log does not name as its directory. There files
// come and go with the work (a branch, a refactor, a file not written
// yet). A path outside (an agent's notes folder, a tool's guessed
// location) is not.
func (a *analyzer) workArea(m *missingWatch) bool {
	if m.abs == "" || !outsideProject(m.key) {
		return true // relative to the project, or nowhere known
	}
	return a.inArea(path.Dir(m.abs))
}

// inArea reports whether folder dir shares enough levels with a folder
// of a file the session used (workArea).
func (a *analyzer) inArea(dir string) bool {
	parts := strings.Split(dir, "/")
	need := minAreaDepth
	if _, home := homeRest(dir + "/"); home {
		need++ // /home/me/src, not /home/me/.config
	}
	return anyKey(a.areas, func(d string) bool {
		n := 0
		for i, part := range strings.Split(d, "/") {
			if i >= len(parts) || parts[i] != part {
				break
			}
			n = i
		}
		return n >= need
	})
}

// inProject reports whether a path a call used is in the project or where
// the session works.
func (a *analyzer) inProject(p string, c *Call) bool {
	abs := a.resolve(p, c.Dir)
	key := pathKey(cmp.Or(abs, p), a.sess.Project)
	return abs == "" || !outsideProject(key) || a.inArea(path.Dir(abs))
}

// minAreaDepth is the levels below the root a missing path shares with a
// file the session used for it to be where the session works.
const minAreaDepth = 3

// trigger sets the forms and the glob of a wrong path's lesson; false
// when they would fire on the path that worked too.
func (wp *wrongPath) trigger(m *missingWatch, project string) bool {
	if wp.Shell {
		wp.Forms = []string{m.path}
		if m.abs != "" && m.abs != m.path {
			wp.Forms = append(wp.Forms, m.abs)
		}
		if k := m.key; k != m.path && !strings.HasPrefix(k, "~") && !strings.HasPrefix(k, "/") && !strings.Contains(k, "*") {
			wp.Forms = append(wp.Forms, k)
		}
		return wp.Found == "" || !slices.Contains(wp.Forms, wp.Found)
	}
	glob := strings.TrimPrefix(m.key, "~/")
	if wp.Found != "" && globMatches(glob, wp.Found) && project != "" && !strings.HasPrefix(m.key, "/") && !strings.HasPrefix(m.key, "~") {
		glob = path.Base(project) + "/" + glob // the path that worked ends in the same parts: the project's folder too
	}
	if strings.HasPrefix(m.key, "/") || wp.Found != "" && globMatches(glob, wp.Found) {
		glob = cmp.Or(m.abs, m.path) // anchored
		if !strings.HasPrefix(glob, "/") {
			return false
		}
	}
	wp.Glob = glob
	return wp.Found == "" || !globMatches(glob, wp.Found)
}

// globMatches reports whether a path glob as lessons read it (a glob
// without a leading "/" matches any trailing run of a path's parts; "*"
// within one part) matches p.
func globMatches(glob, p string) bool {
	gs, ps := strings.Split(strings.Trim(glob, "/"), "/"), strings.Split(strings.Trim(p, "/"), "/")
	if strings.HasPrefix(glob, "/") && len(gs) != len(ps) || len(gs) > len(ps) {
		return false
	}
	ps = ps[len(ps)-len(gs):]
	for i := range gs {
		if ok, _ := path.Match(gs[i], ps[i]); !ok {
			return false
		}
	}
	return true
}

// pathPattern is a command trigger on any of a path's forms as a whole
// word of a command (not the end of a longer path).
func pathPattern(forms []string) string {
	var alts []string
	for _, f := range forms {
		e := esc(f)
		if lessons.WindowsDrive(f) {
			e = strings.ReplaceAll(e, `\/`, `[\\/]`) // C:\Users\… or C:/Users/…
		}
		alts = append(alts, e)
	}
	return `(?:^|[\s;&|(<>='"])(?:\./)?(?:` + strings.Join(alts, "|") + `)(?=$|[\s;&|)<>'"])`
}

// askingPattern matches a command that only asks whether a path exists
// (ls, test, stat first): the wrong path's lesson need not come before it.
const askingPattern = `^\s*(?:ls|test|\[\[?|stat|file|realpath|readlink|which)\s`

// readingTools are the file tools that need the path to exist.
var readingTools = []string{"Read", "Edit", "MultiEdit", "NotebookEdit", "Glob", "Grep"}

// onPath fills a lesson on a wrong path from its finding: its trigger on
// the path, and its text.
func (c *Candidate) onPath(f finding) bool {
	wp := f.Path
	if wp.Shell {
		c.Triggers = lessons.Trigger{Commands: []string{redactPattern(pathPattern(wp.Forms))}, Unless: []string{askingPattern}}
		c.Examples = lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: c.Trigger}}}
		if !commandFires(c.Triggers, c.Trigger) {
			return false
		}
		if c.Fixed != "" {
			if commandFires(c.Triggers, c.Fixed) {
				return false
			}
			c.Examples.NoMatch = []lessons.ToolCall{{Tool: "Bash", Command: c.Fixed}}
		}
	} else {
		c.Triggers = lessons.Trigger{Tools: slices.Clone(readingTools), Paths: []string{wp.Glob}}
		c.Examples = lessons.Examples{Match: []lessons.ToolCall{{Tool: c.Tool, Path: c.Trigger}}}
		if wp.Found != "" {
			c.Examples.NoMatch = []lessons.ToolCall{{Tool: c.Tool, Path: wp.Found}}
		}
	}
	c.Family = Redact(wp.Path)
	if !wp.Shell {
		c.Family = Redact(wp.Key) // the same file in every checkout; a command names it as it was typed
	}
	c.Fixed = Redact(wp.Found)
	return true
}

// onFolder reports whether a lesson on a wrong path is on a folder
// guessed wrong (wrongFolder): its path ends in "/".
func (c *Candidate) onFolder() bool { return strings.HasSuffix(c.Family, "/") }

// pathText writes a wrong path's lesson, for the sessions it was seen in
// so far.
func (c *Candidate) pathText() {
	wrong, n := "`"+clip(c.Family, 200)+"`", len(c.Sessions)
	if c.onFolder() && c.Fixed != "" && len(c.Triggers.Paths) > 1 {
		c.shiftText()
		return
	}
	if c.onFolder() && c.Fixed != "" {
		right := "`" + clip(c.Fixed, 200) + "`"
		c.Summary = secret.Sentence(pathSummary("Files are under %s, not %s", c.Fixed, c.Family, false))
		c.Solution = "There is no folder " + wrong + " (the call failed: " + firstLine(errorHeadline(c.Problem)) + "). " +
			"A later call found the same file under " + right + ": look for files there."
		return
	}
	if c.Fixed != "" {
		right := "`" + clip(c.Fixed, 200) + "`"
		// the name first: cut at its comma, the summary still says where
		c.Summary = secret.Sentence(pathSummary("`"+strings.ReplaceAll(path.Base(c.Fixed), "%", "%%")+"` is at %s, not %s", c.Fixed, c.Family, true))
		c.Solution = wrong + " does not exist in this project (the call failed: " + firstLine(errorHeadline(c.Problem)) + "). " +
			"A later call used " + right + " instead and it worked: use that path."
		return
	}
	c.Summary = secret.Sentence(shorten(wrong+" does not exist here", maxSummary))
	c.Solution = wrong + " was missing in " + sessionCount(n) + " of this project, and nothing of that name was used elsewhere after it. " +
		"Do not read or run it on a guess: look for what you need first, or go on without it."
}

// pathSummary is format (a sentence with two %s, the right path and the
// wrong one) within maxSummary. Paths too long for it leave out the
// folders they end in alike ("/srv/app/src/…/cart.ts, not lib/…/cart.ts"),
// then the first of those they differ in, and, when the sentence names
// the file already (named), the file's name: so that the summary still
// says where the file is and how that differs from where it is not.
func pathSummary(format, right, wrong string, named bool) string {
	say := func(r, w string) string { return fmt.Sprintf(format, "`"+r+"`", "`"+w+"`") }
	if s := say(right, wrong); len(s) <= maxSummary {
		return s
	}
	r, w := strings.Split(strings.Trim(right, "/"), "/"), strings.Split(strings.Trim(wrong, "/"), "/")
	same := 1 // names both end in, the file's own at least
	for same < min(len(r), len(w))-1 && r[len(r)-1-same] == w[len(w)-1-same] {
		same++
	}
	if r[len(r)-1] != w[len(w)-1] {
		same = 0
	}
	// form is p's folders that differ from the other path's (the last
	// keep of them), then "…" for those alike, then its last name
	form := func(p string, parts []string, keep int, end bool) string {
		head, lead := parts[:len(parts)-same], ""
		if strings.HasPrefix(p, "/") {
			lead = "/"
		}
		if keep < len(head) {
			head, lead = head[len(head)-keep:], "…/"
		}
		if !end {
			return lead + strings.Join(head, "/") + "/"
		}
		if same > 1 {
			head = append(slices.Clone(head), "…")
		}
		if same > 0 {
			head = append(slices.Clone(head), parts[len(parts)-1])
		}
		out := lead + strings.Join(head, "/")
		if strings.HasSuffix(p, "/") {
			out += "/"
		}
		return out
	}
	for _, end := range []bool{true, !named} {
		for keep := max(len(r), len(w)); keep > 0; keep-- {
			if s := say(form(right, r, keep, end), form(wrong, w, keep, end)); len(s) <= maxSummary {
				return s
			}
		}
	}
	return shorten(say(form(right, r, 1, !named), form(wrong, w, 1, !named)), maxSummary)
}

// shiftText writes the lesson on folders guessed the same level off
// (foldShifts): which folders are not where the agent looked, and the
// folder that holds them.
func (c *Candidate) shiftText() {
	wrong := path.Dir(strings.TrimSuffix(c.Family, "/"))
	right := path.Dir(strings.TrimSuffix(c.Fixed, "/"))
	if len(c.Projects) == 1 {
		right = pathKey(right, c.Projects[0]) // as the wrong folders are named
	}
	right = "`" + clip(right, 200) + "/`"
	var names []string
	for _, g := range c.Triggers.Paths {
		names = append(names, "`"+path.Join(wrong, path.Base(strings.TrimSuffix(g, "/**")))+"/`")
	}
	list := strings.Join(names, ", ")
	c.Summary = secret.Sentence(shorten(list+" are under "+right, maxSummary))
	c.Solution = "There are no folders " + list + " (the call failed: " + firstLine(errorHeadline(c.Problem)) + "). " +
		"Later calls found the same files under " + right + ": look for them there."
}

// pathAfterError keeps a wrong path's lesson that one session does not
// make the project's (onePath) to after the same path failed again: an
// error trigger on any program's words for a missing path, its failing
// example the error line that said so, a reminder never proposed. Once
// a second session saw it, it comes before the call again, where it
// stops the mistake rather than cuts it short.
func (c *Candidate) pathAfterError() {
	if c.onePath() && len(c.Examples.Match) > 0 {
		if line, _ := lessons.ErrorLine(c.Problem); saysMissing(strings.ToLower(line)) {
			c.Triggers.Errors, c.Examples.Match[0].Error = []string{missingPathPattern}, line
			return
		}
	}
	c.Triggers.Errors = nil
	if len(c.Examples.Match) > 0 {
		c.Examples.Match[0].Error = ""
	}
}

// missingPathPattern finds an error saying a path does not exist
// (missingPathWords), in any program's words: the lesson's own trigger
// says which path.
var missingPathPattern = func() string {
	words := make([]string, len(missingPathWords))
	for i, w := range missingPathWords {
		words[i] = strings.ReplaceAll(regexp.QuoteMeta(w), " ", `\s+`)
	}
	return "(?i)" + strings.Join(words, "|")
}()

// onePath reports whether a wrong path's lesson is not the project's:
// seen in a single session with its path one task's (OneOff), or
// nothing of its name found elsewhere, however often it was missing (a
// guess, or a file not there yet: labellers kept 3 of 11 such lessons,
// none on the sets labelled blind or afresh; it tells where a file is
// not, not where it is), or the file found where one session looked and
// no other session found it there (FixAgain): another session found
// another file of that name ("Did you mean index.tsx?"), or nothing, and
// one session's find is a guess. A lesson on a folder is drawn from
// several files, and has its own rule (Signals.Broad).
func (c *Candidate) onePath() bool {
	return c.Kind == KindPath && (c.Fixed == "" || len(c.Sessions) < 2 && c.Signals.OneOff || !c.onFolder() && !c.Signals.FixAgain)
}

// anotherSession reports whether n was seen in a session c was not.
func anotherSession(c *Candidate, n Candidate) bool {
	return slices.ContainsFunc(n.Sessions, func(s string) bool { return !slices.Contains(c.Sessions, s) })
}

// foldPath folds a wrong path seen again into c: the first right path
// found is kept, and a lesson that had none takes the new one's. Found
// by another session too, the same path marks it FixAgain, another
// FixVaries.
func (c *Candidate) foldPath(n Candidate) {
	if c.Fixed != "" && n.Fixed != "" && anotherSession(c, n) {
		if n.Fixed == c.Fixed {
			c.Signals.FixAgain = true
		} else {
			c.Signals.FixVaries = true
		}
	}
	if c.Fixed != "" || n.Fixed == "" {
		return
	}
	c.Summary, c.Problem, c.Solution, c.Fixed, c.Trigger = n.Summary, n.Problem, n.Solution, n.Fixed, n.Trigger
	c.Triggers, c.Examples = n.Triggers, n.Examples
}

// runs reports whether a shell command runs the program or script at p:
// p is the first word of one of its simple commands (after any
// assignments), or the first word after it that is no flag (an
// interpreter's script). A program the shell did not find is found
// again only where a command runs it, not where one names a word of its
// shape (gh --repo owner/name).
func runs(cmd, p string) bool {
	for _, seg := range segments(cmd) {
		i := programAt(seg)
		for j := i; j < len(seg); j++ {
			if w := strings.Trim(seg[j], `'"`); w == p {
				return true
			} else if j > i && !strings.HasPrefix(w, "-") {
				break // the first argument is not it
			}
		}
	}
	return false
}

// driveSlashed is a Windows path from a drive (C:\Users\me\x, C:/src)
// with forward slashes, as the path functions here read it, and whether
// w is one.
func driveSlashed(w string) (string, bool) {
	if !lessons.WindowsDrive(w) {
		return "", false
	}
	return strings.ReplaceAll(w, "\\", "/"), true
}

// absPath reports whether p is absolute: from the root, or from a
// Windows drive.
func absPath(p string) bool { return strings.HasPrefix(p, "/") || lessons.WindowsDrive(p) }
