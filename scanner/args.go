package scanner

import (
	"hash/fnv"
	"strconv"
	"strings"
	"unicode"
)

// A tool other than the shell is called with arguments, not a command
// line: what a retry of it changed is in them. Calls keep their short
// settings as they are and a digest of their text, lists and objects, so
// that a retry with other text is told from the same call run again.

// argsChange says how a tool call that worked differs from the one that
// failed: the path, and each argument added, dropped or changed; settings
// is false when only the text of an argument (a prompt, a script) did.
func argsChange(failed, worked *Call) (change string, settings bool) {
	var out []string
	if failed.Path != worked.Path && worked.Path != "" {
		out = append(out, "path `"+clip(worked.Path, 160)+"` instead of `"+clip(failed.Path, 160)+"`")
	}
	var texts []string // said only when no setting changed
	fa, wa := argPairs(failed.Args), argPairs(worked.Args)
	for _, kv := range wa {
		old, ok := lookupArg(fa, kv[0])
		switch {
		case strings.HasPrefix(kv[1], textMark) && old != kv[1]:
			texts = append(texts, "another `"+kv[0]+"`") // text: its words are the task's
		case !ok && isNumber(kv[1]):
			out = append(out, "`"+kv[0]+"` set") // a count or an offset: its value is the task's
		case !ok:
			out = append(out, "`"+kv[0]+"` set to `"+kv[1]+"`")
		case old != kv[1] && strings.HasPrefix(old, textMark):
			out = append(out, "`"+kv[0]+"` `"+kv[1]+"`")
		case old != kv[1] && isNumber(kv[1]):
			out = append(out, "another `"+kv[0]+"`")
		case old != kv[1]:
			out = append(out, "`"+kv[0]+"` `"+kv[1]+"` instead of `"+old+"`")
		}
	}
	for _, kv := range fa {
		if _, ok := lookupArg(wa, kv[0]); !ok && !strings.HasPrefix(kv[1], textMark) {
			out = append(out, "no `"+kv[0]+"`")
		}
	}
	if len(out) == 0 {
		return strings.Join(texts, ", "), false
	}
	return strings.Join(out, ", "), true
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

// textMark starts the digest that stands for an argument's text.
const textMark = "\x00"

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
	var b strings.Builder
	eachField(input, func(k, v []byte) bool {
		key := string(k)
		switch key {
		case "command", "cmd", "file_path", "filePath", "path", "notebook_path", "absolute_path", "content",
			"new_string", "newString", "old_string", "oldString", "new_source", "edits", "input", "patch":
			return true
		}
		if len(v) == 0 || len(key) > maxArgKey || strings.ContainsAny(key, "=\\") || strings.ContainsFunc(key, unicode.IsControl) {
			return true
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
			val = textMark + strconv.FormatUint(uint64(h.Sum32()), 36)
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
	var b strings.Builder
	eachField(input, func(k, v []byte) bool {
		key := string(k)
		if len(v) == 0 || len(key) > maxArgKey || key == "command" || key == "cmd" ||
			strings.ContainsAny(key, "=\\") || strings.ContainsFunc(key, unicode.IsControl) {
			return true
		}
		val := ""
		switch {
		case string(v) == "true":
			val = "true"
		case v[0] == '"' && len(v) <= maxArgValue+2:
			val = str(v)
			if val == "" || strings.ContainsAny(val, " =/\\") || isNumber(val) || strings.ContainsFunc(val, unicode.IsControl) {
				return true
			}
		default:
			return true // false, null, a number, a list or an object
		}
		if b.Len()+len(key)+len(val)+2 > maxArgs {
			return false
		}
		b.WriteString(key + "=" + val + "\n")
		return true
	})
	return strings.TrimSuffix(b.String(), "\n")
}
