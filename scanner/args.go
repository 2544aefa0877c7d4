package scanner

import (
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// A tool other than the shell is called with arguments, not a command
// line: what a retry of it changed is in them. Calls keep their short
// settings as they are and a digest of their text, lists and objects, so
// that a retry with other text is told from the same call run again.

// An argsDiff is how a tool call that worked differs from the one that
// failed (argsChange).
type argsDiff struct {
	// change says it: the path, and each argument added, dropped or
	// changed.
	change string
	// settings is false when only the text of an argument (a prompt, a
	// script) or an opaque value (a session id, a ref, a uuid, a count)
	// changed, unless the value is a count and the error names the
	// argument ("use offset and limit"): another id ("Ref e25 not
	// found"), or another count for an error about something else, is no
	// way of calling the tool that a lesson can teach.
	settings bool
	// unsure is set when the retry asked for another text or value and
	// changed a setting too, and the error names none of the settings it
	// changed (a 404 for a URL, then another URL in another format):
	// nothing shows the setting fixed it.
	unsure bool
	// told is set when an argument was passed as the JSON type the error
	// asked for ("must be array"), or a count was set that the error
	// names ("use offset and limit"): it did what the error said.
	told bool
}

// argsChange compares a tool call that worked with the one that failed;
// errText is the failure's output, lower case.
func argsChange(failed, worked *Call, errText string) argsDiff {
	var d argsDiff
	var out []string
	pathTold := false
	if failed.Path != worked.Path && worked.Path != "" {
		missing := len(missingErrorLines(errText)) > 0
		out = append(out, pathChange(failed.Path, worked.Path, missing))
		// the error said the path was wrong: missing, or named ("EISDIR:
		// illegal operation on a directory, read '/p/docs'")
		pathTold = missing || strings.Contains(errText, strings.ToLower(failed.Path))
	}
	var texts []string   // said only when no setting changed
	var changed []string // the settings that did, and the values they had
	fa, wa := argPairs(failed.Args), argPairs(worked.Args)
	for _, kv := range wa {
		old, ok := lookupArg(fa, kv[0])
		n := len(out)
		shape, reshapedArg := reshaped(kv[0], old, kv[1], errText)
		switch {
		case reshapedArg:
			out = append(out, shape)
			d.told = d.told || slices.ContainsFunc(shapeWords[kv[1][1]], func(w string) bool { return containsWord(errText, w) })
		case (strings.HasPrefix(kv[1], textMark) || patternText(kv[1])) && old != kv[1]:
			texts = append(texts, "another `"+kv[0]+"`") // text or a search pattern: its words are the task's
		case !ok && isNumber(kv[1]):
			out = append(out, "`"+kv[0]+"` set")                             // a count or an offset: its value is the task's
			d.told = d.told || containsWord(errText, strings.ToLower(kv[0])) // "use offset and limit"
		case !ok:
			out = append(out, "`"+kv[0]+"` set to `"+kv[1]+"`")
		case old != kv[1] && strings.HasPrefix(old, textMark):
			out = append(out, "`"+kv[0]+"` `"+kv[1]+"`")
		case old != kv[1] && isNumber(old) && isNumber(kv[1]) && containsWord(errText, strings.ToLower(kv[0])) &&
			!errorSubject(errText, kv[0]):
			out = append(out, "another `"+kv[0]+"`") // a count the error asked for ("use offset and limit")
			d.told = true
		case old != kv[1] && opaque(old) && opaque(kv[1]):
			texts = append(texts, "another `"+kv[0]+"`") // another id, or a count the error did not name
		case old != kv[1]:
			out = append(out, "`"+kv[0]+"` `"+kv[1]+"` instead of `"+old+"`")
		}
		if len(out) > n {
			changed = append(changed, kv[0], old) // its name, or the value it gave ("Agent type 'db-auditor' not found")
		}
	}
	for _, kv := range fa {
		if _, ok := lookupArg(wa, kv[0]); !ok && !strings.HasPrefix(kv[1], textMark) {
			out = append(out, "no `"+kv[0]+"`")
		}
	}
	if len(out) == 0 {
		d.change = strings.Join(texts, ", ")
		return d
	}
	d.change, d.settings = strings.Join(out, ", "), true
	d.unsure = len(texts) > 0 && !namesAny(errText, changed)
	d.told = d.told || pathTold && len(out) == 1 && len(texts) == 0 // another path, and only that
	return d
}

// namesAny reports whether the error names one of the words.
func namesAny(errText string, keys []string) bool {
	for _, k := range keys {
		if containsWord(errText, strings.ToLower(k)) {
			return true
		}
	}
	return false
}

// errorSubject reports whether an error's first line is about argument
// key, lower case ("offset must be greater than or equal to 1", "Offset
// 4500 is out of range"): it rejected the value the call gave, and
// another value is what it already says, not a way of calling the tool.
func errorSubject(errText, key string) bool {
	line, _, _ := strings.Cut(strings.TrimSpace(errText), "\n")
	words := strings.FieldsFunc(line, func(r rune) bool { return notKeyRune(r) || r == '.' })
	for len(words) > 0 && (words[0] == "error" || words[0] == "tool_use_error") {
		words = words[1:] // a tool's wrapper or prefix, not the subject
	}
	return len(words) > 0 && words[0] == strings.ToLower(key)
}

// pathChange says how the path of a call that worked stands to the one
// that failed: by their relation when it holds in any task (a file
// inside the directory the failed call named), else by the two paths,
// which are this task's (the same name elsewhere is a guess corrected).
// After an error that said the failed path is missing, the relation says
// nothing of what the error will name next time (any missing file): the
// two paths, a guess corrected.
func pathChange(failed, worked string, missing bool) string {
	if f := strings.TrimSuffix(failed, "/"); f != "" && !missing && strings.HasPrefix(worked, f+"/") {
		return "the path of a file inside the directory it named"
	}
	return "path `" + clip(worked, 160) + "` instead of `" + clip(failed, 160) + "`"
}

// rootChange says a retry's change by its relation when it is a cd to the
// session's project directory: run it from the project's root holds on
// every machine, this machine's path does not.
func rootChange(change, project string) string {
	p := strings.TrimSuffix(project, "/")
	if p == "" || change != "run `cd "+p+"` first" && change != "run `cd "+p+"/` first" {
		return change
	}
	return "run it from the project's root: `cd` there first (the shell keeps the directory of an earlier `cd`)"
}

// rootCd is the unless of a lesson to run a command from the project's
// root: a cd to a full path before it, as the fix did.
const rootCd = wordStart + `cd\s+['"]?(?:/|~|[A-Za-z]:[\\/])`

// patternText reports whether a short value is a search pattern or
// code rather than a setting: it holds a regular expression's or a
// shell's operators (a setting is a name, a number, a word list).
func patternText(v string) bool {
	return strings.ContainsAny(v, `\|()*^$[]{}`)
}

// opaque reports whether an argument's value names one thing rather than
// a way of calling: a number, an id, a hash, a uuid, a timestamp, a path.
func opaque(v string) bool {
	return isNumber(v) || taskToken(v) || len(v) >= 8 && strings.Count(v, "-") >= 2 && strings.ContainsAny(v, "0123456789")
}

// argPairs splits Call.Args into its key and value pairs.
func argPairs(args string) [][2]string {
	var out [][2]string
	for line := range strings.Lines(args) {
		k, v, _ := strings.Cut(strings.TrimSuffix(line, "\n"), "=")
		out = append(out, [2]string{k, v})
	}
	return out
}

func lookupArg(kvs [][2]string, k string) (string, bool) {
	for _, kv := range kvs {
		if kv[0] == k {
			return kv[1], true
		}
	}
	return "", false
}

// notKeyRune reports a rune no argument's name holds: a key with spaces
// or braces is a model's malformed input, not a setting.
func notKeyRune(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '.'
}

// textMark starts the digest that stands for an argument's text; its
// shape (shapeOf) follows.
const textMark = "\x00"

// shapeOf is the JSON type of a raw value a digest stands for, as one
// letter: a list, an object or text.
func shapeOf(v []byte) string {
	switch v[0] {
	case '[':
		return "a"
	case '{':
		return "o"
	}
	return "t"
}

// shapeWords are the words an error uses for each shape ("must be
// array", "expected object").
var shapeWords = map[byte][]string{'a': {"array", "list"}, 'o': {"object", "dict", "map", "mapping"}, 't': {"string", "str", "text"}}

// shapes names the shapes shapeOf gives.
var shapes = map[byte]string{'a': "a list", 'o': "an object", 't': "text"}

// reshaped is what a retry did when it passed an argument the error
// names as another JSON type ("/findings: must be array", then a list
// for the object): the way of calling the tool, not its text, changed.
// ok is false when either value is no digest or the type is the same.
func reshaped(key, old, now, errText string) (string, bool) {
	if len(old) < 2 || len(now) < 2 || old[0] != textMark[0] || now[0] != textMark[0] || old[1] == now[1] ||
		!containsWord(errText, strings.ToLower(key)) {
		return "", false
	}
	return "`" + key + "` as " + shapes[now[1]] + " instead of " + shapes[old[1]], true
}

// Bounds of the arguments a call keeps for argsChange.
const (
	maxArgKey   = 64
	maxArgValue = 80
	maxArgs     = 300
)

// callArgs are the short scalar arguments of a tool call's input (not the
// command, path or written text, read elsewhere), as "key=value" lines:
// what a retry of a tool other than the shell may change.
func callArgs(input []byte) string {
	return argLines(input, func(key string, v []byte) (string, bool) {
		switch key {
		case "command", "cmd", "file_path", "filePath", "path", "notebook_path", "absolute_path", "content",
			"new_string", "newString", "old_string", "oldString", "new_source", "edits", "input", "patch":
			return "", false
		}
		val := ""
		switch {
		case len(v) > maxArgValue+2:
		case v[0] == '"':
			val = str(v)
		case v[0] != '{' && v[0] != '[':
			val = string(v) // a number, true, false, null
		}
		if val == "" || strings.ContainsAny(val, " =[{") || strings.ContainsFunc(val, unicode.IsControl) {
			// text (a description, a prompt, a script), a list or an
			// object, not a setting: a digest of its raw bytes tells a
			// retry with other text from the same call
			h := fnv.New32a()
			h.Write(v)
			val = textMark + shapeOf(v) + strconv.FormatUint(uint64(h.Sum32()), 36)
		}
		return val, true
	})
}

// argLines writes the arguments value keeps as "key=value" lines, up to
// maxArgs bytes; keys that are not names are left out.
func argLines(input []byte, value func(key string, v []byte) (string, bool)) string {
	var b strings.Builder
	eachField(input, func(k, v []byte) bool {
		key := string(k)
		if len(v) == 0 || len(key) > maxArgKey || strings.ContainsFunc(key, notKeyRune) {
			return true
		}
		val, ok := value(key, v)
		if !ok {
			return true
		}
		if b.Len()+len(key)+len(val)+2 > maxArgs {
			return false
		}
		b.WriteString(key + "=" + val + "\n")
		return true
	})
	return strings.TrimSuffix(b.String(), "\n")
}

// shellSettings are the settings a shell call switches on besides its
// command, as callArgs writes them: flags set to true and single-word
// values (Claude Code's dangerouslyDisableSandbox, Codex's
// sandbox_permissions=require_escalated, run_in_background). Text (a
// description, a justification), numbers (time limits, output sizes that
// change from call to call), paths and settings left off or false are
// not kept, so that two runs of one command differ only by a setting
// that changes what the shell may do.
func shellSettings(input []byte) string {
	return argLines(input, func(key string, v []byte) (string, bool) {
		switch {
		case key == "command" || key == "cmd":
			return "", false
		case string(v) == "true":
			return "true", true
		case v[0] == '"' && len(v) <= maxArgValue+2:
			val := str(v)
			return val, settingWord(val)
		}
		return "", false // false, null, a number, a list or an object
	})
}

// settingWord reports whether a string value is one a setting takes: a
// single word, not a number, a path or text.
func settingWord(val string) bool {
	return val != "" && !strings.ContainsAny(val, " =/\\") && !isNumber(val) && !strings.ContainsFunc(val, unicode.IsControl)
}
