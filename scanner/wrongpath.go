package scanner

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine/secret"
)

// Wrong paths: a call fails because a path it names does not exist (a
// script guessed at scripts/x.sh that lives under plugins/…/scripts/x.sh,
// a file read where it is not, a toolchain at a guessed place), and a
// later call of the session uses a path of the same name elsewhere, and
// works. Only the same mistake ever uses that path again, so the lesson
// "X is at B, not A" can come before the call, on the wrong path A
// itself: a shell command naming A as a word, a file tool on A. A path
// that was missing and that nothing of its name replaced is a lesson
// only once it was missing in two sessions: "A does not exist here".
//
// What is never a wrong path: a path the session then created or used
// (it was missing, not wrong: a precondition), a path read relative to a
// directory the shell had left (the project-relative and absolute forms
// of one path are one path), a bare name, a variable or a glob, a path
// under a temporary directory, and a path a tool's own error names that
// the call did not (the tool's binary missing).

// KindWrongPath is a path that did not exist, and, when the session
// found it, where it was.
const KindWrongPath = "wrongpath"

// Bounds of what the analyzer remembers of missing paths.
const (
	wrongPathWindow = 20   // calls after a missing path in which the same name found elsewhere is its place
	maxMissing      = 8    // missing paths waiting at once
	maxPathLines    = 40   // lines of an error searched for the missing path
	maxPathLen      = 300  // longest path taken
	maxWorked       = 256  // paths that worked one session remembers
	maxUseBytes     = 2048 // bytes of a command that worked read for the paths it used
)

// missing is a path a failed call named that did not exist, waiting for
// the session to say where it was.
type missing struct {
	rec  *callRec
	res  *Result
	path string // as the call wrote it
	abs  string // resolved (resolvePath)
	dir  string // the directory it was resolved in: the project, or the call's
	// found is the path of the same name that worked, as written, and
	// by the call that used it; gone is set once the session created or
	// used the path itself.
	found, by string
	gone      bool
}

// wrongPathOf is what a wrong-path finding needs that build cannot get
// back from the session (replay may rename its project).
type wrongPathOf struct {
	key      string // the tool's kind and the path, project-relative when inside the project
	name     string // the path as the lesson says it: project-relative when inside it
	triggers lessons.Trigger
	found    string // where it was, "" when the session found nothing
	instead  string // the failed call at the path found: its command, or the path as written
}

// missingPhrases are the words of an error about a path that does not
// exist, lower case.
var missingPathPhrases = []string{"no such file or directory", "enoent", "does not exist", "cannot find the path",
	"cannot find the file", "no such directory", "path not found", "file not found", "directory not found"}

// saysMissing reports whether an error line says a path does not exist.
func saysMissing(line string) bool {
	l := strings.ToLower(line)
	for _, p := range missingPathPhrases {
		if strings.Contains(l, p) {
			return true
		}
	}
	return false
}

// pathTools are the file tools a wrong path's trigger covers: those that
// need the path to exist (Write creates it).
var pathTools = []string{"Read", "Edit", "MultiEdit", "NotebookEdit", "Glob", "Grep"}

// missingPath remembers the path a failed call named that did not exist,
// if the error says so of a path the call wrote.
func (a *analyzer) missingPath(rec *callRec, r *Result) {
	c := rec.call
	if c == nil {
		return
	}
	defer a.moved(c) // after this call's own paths, read from where it started
	if r.Timeout || len(a.missing) >= maxMissing && !a.dropStale(rec.seq) {
		return
	}
	dir := cmpDir(c.Dir, a.sess.Project)
	var p string
	switch {
	case c.Tool == "Bash":
		if a.shellMoved || cdElsewhere(c.Command, a.sess.Project) {
			p = missingIn(c.Command, r.Output, dir, true)
		} else {
			p = missingIn(c.Command, r.Output, dir, false)
		}
	case c.Path != "" && !strings.Contains(c.Tool, "Write"):
		if line := missingLine(r.Output); line != "" && aboutTheCall(r.Output, c) && pathLike(c.Path, true) {
			p = c.Path
		}
	}
	if p == "" {
		return
	}
	abs := resolvePath(p, dir)
	for _, m := range a.missing {
		if m.abs == abs && m.rec.call.Tool == c.Tool {
			return // the same path again: the first failure is the lesson
		}
	}
	a.missing = append(a.missing, &missing{rec: rec, res: r, path: p, abs: abs, dir: dir})
}

// dropStale forgets a found or gone missing path past the window, to
// make room; it reports whether it did.
func (a *analyzer) dropStale(seq int) bool {
	for i, m := range a.missing {
		if m.gone || seq-m.rec.seq > wrongPathWindow && m.found != "" {
			a.settleWrongPath(m)
			a.missing = append(a.missing[:i], a.missing[i+1:]...)
			return true
		}
	}
	return false
}

func cmpDir(dir, project string) string {
	if dir != "" {
		return dir
	}
	return project
}

// missingLine is the first line of an error that says a path does not
// exist, "" when none does.
func missingLine(out string) string {
	n := 0
	for line := range strings.Lines(out) {
		if n++; n > maxPathLines {
			break
		}
		if saysMissing(line) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// missingIn is the path of a shell command that its error says does not
// exist: the longest path the command wrote that a line saying so names,
// "" for none. With absOnly (the shell may be in another directory) only
// a path from the root or home counts.
func missingIn(cmd, out, dir string, absOnly bool) string {
	best := ""
	n := 0
	for line := range strings.Lines(out) {
		if n++; n > maxPathLines {
			break
		}
		if !saysMissing(line) {
			continue
		}
		for _, t := range pathTokens(cmd) {
			if len(t) <= len(best) || !pathLike(t, absOnly) {
				continue
			}
			if namedIn(line, t, dir) {
				best = t
			}
		}
	}
	return best
}

// namedIn reports whether an error line names path t as the path that
// failed: as written (without ./), or as the shell resolved it from dir;
// not inside a longer path (the shell was elsewhere: cd sub, then sub/x).
func namedIn(line, t, dir string) bool {
	bare := strings.TrimPrefix(t, "./")
	for i := 0; ; {
		j := strings.Index(line[i:], bare)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(bare)
		if (end == len(line) || !pathByte(line[end]) || line[end] == '.') && boundaryBefore(line, j, bare, dir) {
			return true
		}
		i = j + 1
	}
}

// boundaryBefore reports whether the path at line[j:] starts there, or
// is the end of the same path resolved from dir.
func boundaryBefore(line string, j int, bare, dir string) bool {
	if j == 0 || !pathByte(line[j-1]) {
		return true
	}
	if line[j-1] != '/' || strings.HasPrefix(bare, "/") {
		return false
	}
	k := j - 1
	for k > 0 && pathByte(line[k-1]) {
		k--
	}
	return path.Clean(line[k:j]+bare) == resolvePath(bare, dir) // the shell's own resolution of it
}

func pathByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '.' || b == '/' || b == '~'
}

// pathTokens are the words of a command that may be paths: split at
// spaces, quotes and shell operators, a flag's or variable's value kept.
func pathTokens(cmd string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(cmd, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || strings.ContainsRune(";&|()<>'\"`,", r)
	}) {
		if i := strings.IndexByte(w, '='); i >= 0 {
			w = w[i+1:]
		}
		w = strings.TrimRight(w, ":")
		if w != "" && len(w) <= maxPathLen {
			out = append(out, w)
		}
	}
	return out
}

// pathLike reports whether a word is a path a lesson may trigger on: from
// the root or home, or of two parts or more; no variable, glob, URL,
// flag or package scope; not under a temporary directory.
func pathLike(p string, absOnly bool) bool {
	if !strings.ContainsAny(p, "/\\") {
		return false // a word, or a bare name: most words of a command
	}
	p = strings.TrimSuffix(strings.ReplaceAll(p, "\\", "/"), "/")
	if len(p) < 3 || strings.ContainsAny(p, "$*?[]{}%@!#") || strings.Contains(p, "://") || strings.HasPrefix(p, "-") {
		return false
	}
	abs := strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~/") || len(p) > 2 && p[1] == ':' && p[2] == '/'
	if strings.Contains(p[min(len(p), 2):], ":") {
		return false // a revision's file (HEAD:a.go), a host's (srv:/etc), a list of paths
	}
	if absOnly && !abs {
		return false
	}
	if tempPath(p) {
		return false
	}
	rest := strings.TrimPrefix(path.Clean(p), "/")
	rest = strings.TrimPrefix(rest, "~/")
	parts := strings.Split(rest, "/")
	if len(parts) < 2 && !abs {
		return false // a bare name: which one, from where?
	}
	for _, s := range parts {
		if s == ".." {
			return false
		}
	}
	return true
}

// tempPath reports whether p lies under a temporary directory: a
// one-off of one task.
func tempPath(p string) bool {
	l := strings.ToLower(p)
	for _, t := range []string{"/tmp/", "/var/folders/", "/private/var/", "/appdata/local/temp/", "/temp/", "/dev/"} {
		if strings.HasPrefix(l, t) || strings.Contains(l, t) && t != "/tmp/" && t != "/dev/" {
			return true
		}
	}
	return l == "/tmp" || strings.HasPrefix(l, "tmp/")
}

// resolvePath is p cleaned, made absolute from dir when it is relative,
// with a home directory written as ~: one path, however written.
func resolvePath(p, dir string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !(len(p) > 2 && p[1] == ':') && dir != "" {
		p = strings.ReplaceAll(dir, "\\", "/") + "/" + p
	}
	p = path.Clean(p)
	if n := homeLen(p); n > 0 {
		p = "~/" + strings.TrimPrefix(p[n:], "/")
	}
	return strings.TrimSuffix(p, "/")
}

// homeLen is the length of the home directory p starts with (/home/NAME,
// /Users/NAME, C:/Users/NAME), 0 for none.
func homeLen(p string) int {
	q := p
	if len(q) > 2 && q[1] == ':' {
		q = q[2:]
	}
	rest, ok := strings.CutPrefix(q, "/home/")
	if !ok {
		if rest, ok = strings.CutPrefix(q, "/Users/"); !ok {
			return 0
		}
	}
	name, _, _ := strings.Cut(rest, "/")
	if name == "" {
		return 0
	}
	return len(p) - len(rest) + len(name)
}

// cdElsewhere reports whether a command changes to a directory other than
// the project's before what it runs.
func cdElsewhere(cmd, project string) bool {
	if !strings.Contains(cmd, "cd ") {
		return false // most commands: no need to split them
	}
	for _, seg := range segments(cmd) {
		if len(seg) > 0 && seg[0] == "cd" && (len(seg) < 2 || resolvePath(seg[1], project) != resolvePath(project, "")) {
			return true
		}
	}
	return false
}

// moved notes a shell call that changed to another directory than the
// project's: a shell that keeps its directory between calls (Claude
// Code's, even after cd x && …) may be elsewhere from then on.
func (a *analyzer) moved(c *Call) {
	if c.Tool == "Bash" && !a.shellMoved && cdElsewhere(c.Command, a.sess.Project) {
		a.shellMoved = true
	}
}

// pathSaw sees a call that worked: the missing paths it uses again were
// not wrong (created, or found where written); a path of the same name
// elsewhere, within the window, is where a missing one was.
func (a *analyzer) pathSaw(rec *callRec) {
	c := rec.call
	if c == nil {
		return
	}
	a.moved(c)
	if len(a.missing) == 0 && len(a.worked) >= maxWorked {
		return
	}
	dir := cmpDir(c.Dir, a.sess.Project)
	var uses []string
	if c.Tool == "Bash" {
		if cmd := c.Command[:min(len(c.Command), maxUseBytes)]; strings.Contains(cmd, "/") && !hedgedCommand(c.Command) {
			uses = pathTokens(cmd) // the paths it runs on come first; a heredoc's text is no use of a path
		}
		if a.shellMoved || cdElsewhere(c.Command, a.sess.Project) {
			// from where? only a path from the root or home says
			uses = slices.DeleteFunc(uses, func(u string) bool { return !pathLike(u, true) })
		}
	} else if c.Path != "" {
		uses = []string{c.Path}
	}
	a.sawWorking(c, uses, dir)
	for _, m := range a.missing {
		if m.gone {
			continue
		}
		for _, u := range uses {
			abs := resolvePath(u, dir)
			if abs == m.abs || strings.HasPrefix(abs, m.abs+"/") {
				m.gone = true // it exists now: created, or it was there
				break
			}
		}
		if m.gone || m.found != "" || rec.seq-m.rec.seq > wrongPathWindow {
			continue
		}
		for _, u := range uses {
			if a.sameName(m, u, dir) && !creates(c, u) {
				m.found, m.by = u, callTrigger(c)
				break
			}
		}
	}
}

// hedgedCommand reports whether a shell command works whether or not its paths
// exist: it tests for them, or falls back or hides the error when they
// do not (test -f x || echo missing, ls x 2>/dev/null). Its paths say
// nothing about where a file is.
func hedgedCommand(cmd string) bool {
	for _, s := range []string{"||", "/dev/null", "[ ", "[[", "test ", "if "} {
		if strings.Contains(cmd, s) {
			return true
		}
	}
	return false
}

// sawWorking remembers the paths a call that worked used (not those it
// created), as a wrong path's key says them.
func (a *analyzer) sawWorking(c *Call, uses []string, dir string) {
	if len(uses) == 0 {
		return
	}
	if a.root == "" {
		a.root = resolvePath(a.sess.Project, "")
	}
	makes := c.Tool != "Bash" || makesPaths(c.Command)
	for _, u := range uses {
		if len(a.worked) >= maxWorked {
			return
		}
		if !pathLike(u, false) || makes && creates(c, u) {
			continue
		}
		if k := pathKey(resolvePath(u, dir), a.root, a.sess.Project != ""); k != "" && !a.workedSet[k] {
			if a.workedSet == nil {
				a.workedSet = map[string]bool{}
			}
			a.workedSet[k] = true
			a.worked = append(a.worked, k)
		}
	}
}

// pathKey is how a wrong path is named across sessions: from the
// project's folder inside it (any checkout), else from the root or home.
func pathKey(abs, root string, haveRoot bool) string {
	if rel, ok := strings.CutPrefix(abs, root+"/"); ok && haveRoot {
		return rel
	}
	return abs
}

// sameName reports whether u, used from dir, is the missing path's name
// at another place: the same last two parts, or the same distinctive
// file name.
func (a *analyzer) sameName(m *missing, u, dir string) bool {
	if !pathLike(u, false) && !strings.HasPrefix(u, "/") {
		return false
	}
	abs := resolvePath(u, dir)
	if abs == m.abs {
		return false
	}
	base := path.Base(m.abs)
	if path.Base(abs) != base {
		return false
	}
	if path.Base(path.Dir(abs)) == path.Base(path.Dir(m.abs)) {
		return true
	}
	return distinctive(base)
}

// distinctive reports whether a file name says which file it is: more
// than one word or an extension and a long stem (dispatch-prompt.sh,
// usePhotoImport.ts), not index.ts or main.go, which many folders hold.
func distinctive(base string) bool {
	stem := strings.TrimSuffix(base, path.Ext(base))
	return len(stem) >= 8 || strings.ContainsAny(stem, "-_")
}

// creates reports whether call c makes path u rather than uses it: a
// Write, or a shell step that creates, copies or moves to it, or removes
// it (rm -f works whether the path is there or not).
func creates(c *Call, u string) bool {
	if c.Tool != "Bash" {
		return strings.Contains(c.Tool, "Write")
	}
	if strings.Contains(c.Command, ">"+u) || strings.Contains(c.Command, "> "+u) {
		return true
	}
	if !makesPaths(c.Command) {
		return false
	}
	for _, seg := range segments(c.Command) {
		if len(seg) == 0 {
			continue
		}
		switch path.Base(seg[0]) {
		case "mkdir", "touch", "cp", "mv", "ln", "tee", "install", "rsync", "rm":
			for _, w := range seg[1:] {
				if strings.Contains(w, u) {
					return true
				}
			}
		}
	}
	return false
}

// makesPaths reports whether a command may hold a step that makes,
// copies, moves or removes paths: a cheap test before splitting it.
func makesPaths(cmd string) bool {
	for _, w := range []string{"mkdir", "touch", "cp ", "mv ", "ln ", "tee ", "install", "rsync", "rm "} {
		if strings.Contains(cmd, w) {
			return true
		}
	}
	return false
}

// settleWrongPaths turns the session's missing paths into findings:
// found elsewhere, "A is at B"; found nowhere, "A does not exist", a
// lesson once a second session misses it too.
func (a *analyzer) settleWrongPaths() {
	for _, m := range a.missing {
		a.settleWrongPath(m)
	}
	a.missing = nil
}

func (a *analyzer) settleWrongPath(m *missing) {
	if m.gone || a.explained(m.rec.id) {
		return
	}
	c := m.rec.call
	key, name, t, ok := wrongPathTrigger(c, m, a.sess.Project)
	if !ok {
		return
	}
	found := m.found
	if abs := resolvePath(found, m.dir); found != "" {
		if rel, ok := strings.CutPrefix(abs, resolvePath(a.sess.Project, "")+"/"); ok && a.sess.Project != "" {
			found = rel // said from the project, as the lesson says the wrong one
		} else if strings.HasPrefix(abs, "~/") {
			found = abs // from home, whoever's it is
		}
	}
	problem := m.res.errorText()
	if line := missingLine(m.res.Output); line != "" {
		problem = clip(line, 400)
	}
	a.findings = append(a.findings, finding{
		Kind: KindWrongPath, Line: m.rec.line, UID: m.rec.uid, Tool: c.Tool, Trigger: callTrigger(c), Fixed: m.by,
		Call: m.rec.id, Change: m.found, Problem: problem,
		Signals: Signals{FixConfirmed: m.found != "", OneOff: m.found == ""},
		wrong:   &wrongPathOf{key: key, name: name, triggers: t, found: found, instead: cmpDir(wrongCall(c, m.path, m.found).Command, m.found)},
	})
}

// wrongPathTrigger is the key and trigger of a wrong path: a shell
// command naming it as a word (as written, ./ in front, or from the root
// of a checkout named as the project's), a file tool on it (the project's
// folder and the path in it, or the path from the root outside the
// project). ok is false when the trigger would fire on where the path
// was found, or not on the failed call.
func wrongPathTrigger(c *Call, m *missing, project string) (key, name string, t lessons.Trigger, ok bool) {
	root := resolvePath(project, "")
	rel, inside := strings.CutPrefix(m.abs, root+"/")
	inside = inside && project != ""
	base := path.Base(root)
	key, name = m.abs, m.abs
	if inside {
		key, name = "./"+rel, rel
	}
	if c.Tool == "Bash" {
		var p string
		switch {
		case inside:
			p = `(?:\.[/\\]|[^\s;&|()'"]*[/\\]` + regexp.QuoteMeta(base) + `[/\\])?` + pathPattern(rel)
		case strings.HasPrefix(m.abs, "~/"):
			p = `(?:~|(?:[A-Za-z]:)?[/\\](?:home|Users)[/\\][^/\\\s;&|()'"]+)[/\\]` + pathPattern(strings.TrimPrefix(m.abs, "~/"))
		default:
			p = pathPattern(m.abs)
		}
		// a command that asks whether the path exists is no use of it
		t = lessons.Trigger{Commands: []string{`(?:^|[\s;&|(='"])` + p + `(?=$|[\s;&|)'":/])`}, Unless: []string{existenceTest}}
		return "Bash\x00" + key, name, t, fits(c, m, t)
	}
	// inside the project: the path in it, from any checkout, unless that
	// fires where the file was found; then from a checkout named the same
	globs := []string{m.abs}
	switch {
	case inside && strings.Contains(rel, "/"):
		globs = []string{rel, base + "/" + rel}
	case inside:
		globs = []string{base + "/" + rel}
	case strings.HasPrefix(m.abs, "~/"):
		globs = []string{strings.ReplaceAll(m.path, "\\", "/")}
	}
	for _, glob := range globs {
		if strings.ContainsAny(glob, "*?[]{}\\") {
			continue
		}
		if t = (lessons.Trigger{Tools: pathTools, Paths: []string{glob}}); fits(c, m, t) {
			return "files\x00" + key, name, t, true
		}
	}
	return "", "", t, false
}

// pathPattern matches path p written with either separator.
func pathPattern(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = regexp.QuoteMeta(s)
	}
	return strings.Join(parts, `[/\\]`)
}

// existenceTest matches a shell command that tests whether a path exists
// (test, [ ], ls, stat): it asks, it does not use the path.
const existenceTest = `(?:^|[\s;&|(])(?:test|ls|stat|\[\[?)\s`

// fits reports whether a wrong path's trigger fires on the failed call,
// and not on the same call where the path was found.
func fits(c *Call, m *missing, t lessons.Trigger) bool {
	l := lessons.Lesson{Triggers: t}
	if !firesOn(l, []lessons.ToolCall{wrongCall(c, m.path, "")}) {
		return false
	}
	return m.found == "" || !firesOn(l, []lessons.ToolCall{wrongCall(c, m.path, m.found)})
}

// wrongCall is the failed call c, whose wrong path was p, as an example,
// or, with found set, the same call at the path found.
func wrongCall(c *Call, p, found string) lessons.ToolCall {
	if c.Tool == "Bash" {
		if found != "" {
			return lessons.ToolCall{Tool: "Bash", Command: strings.ReplaceAll(c.Command, p, found)}
		}
		return lessons.ToolCall{Tool: "Bash", Command: c.Command}
	}
	tool := c.Tool
	if !slices.Contains(pathTools, tool) {
		tool = "Read"
	}
	return lessons.ToolCall{Tool: tool, Path: cmpDir(found, c.Path)}
}

// wrongPath fills a wrong path's candidate from its finding.
func (c *Candidate) wrongPath(f finding) {
	w := f.wrong
	c.Triggers = w.triggers
	failed := &Call{Tool: c.Tool, Command: c.Trigger, Path: c.Trigger}
	c.Examples.Match = []lessons.ToolCall{wrongCall(failed, "", "")}
	if w.found != "" {
		c.FoundAt = Redact(w.found)
		if c.Tool == "Bash" {
			c.Examples.NoMatch = []lessons.ToolCall{{Tool: "Bash", Command: Redact(w.instead)}}
		} else {
			c.Examples.NoMatch = []lessons.ToolCall{wrongCall(failed, "", Redact(w.instead))}
		}
	}
	c.WrongPath = Redact(w.name)
	c.wrongPathText()
}

// wrongPathText writes a wrong path's lesson: where it was, or that it
// was missing in the sessions seen so far.
func (c *Candidate) wrongPathText() {
	a := "`" + c.WrongPath + "`"
	if c.FoundAt != "" {
		b := "`" + c.FoundAt + "`"
		c.Summary = secret.Sentence(shorten(a+" does not exist: it is at "+b, maxSummary))
		c.Solution = a + " does not exist in this project: " + b + " is the path that worked (`" + clip(c.Fixed, 200) +
			"`). Use " + b + "."
		return
	}
	n := len(c.Sessions)
	c.Summary = secret.Sentence(shorten(a+" does not exist here", maxSummary))
	c.Solution = a + " did not exist in " + strconv.Itoa(n) + " session" + plural(n) +
		" of this project, and nothing of that name was found instead: do not use it; " +
		"look for where it is first (a search by its name), or whether it is needed at all."
}

// addWorked adds a path that worked to a set of them, under "=" and the
// path, and under "/" and each of its tails (a file tool's trigger on a
// project path fires wherever the path ends so). It reports whether the
// path is new.
func addWorked(worked map[string]bool, p string) bool {
	if worked["="+p] {
		return false
	}
	worked["="+p] = true
	for t := p; ; {
		worked["/"+t] = true
		i := strings.IndexByte(t, '/')
		if i < 0 {
			return true
		}
		t = t[i+1:]
	}
}

// tails are p and the paths it ends with, longest first.
func tails(p string) []string {
	out := []string{p}
	for i := strings.IndexByte(p, '/'); i >= 0; i = strings.IndexByte(p, '/') {
		p = p[i+1:]
		out = append(out, p)
	}
	return out
}

// workedBefore holds back a wrong path that a call of some session used
// and that worked (addWorked): the path exists, at some time, so a lesson
// that it does not would speak before calls that go fine (Signals.Broad).
// It reports whether it changed c.
func (c *Candidate) workedBefore(worked map[string]bool) bool {
	if c.Kind != KindWrongPath || c.Signals.Broad {
		return false
	}
	key := "=" + c.WrongPath
	if slices.Contains(c.Triggers.Paths, c.WrongPath) {
		key = "/" + c.WrongPath // its glob fires on any path ending so
	}
	if !worked[key] {
		return false
	}
	c.Signals.Broad = true
	return true
}
