package scanner

import (
	"strings"

	"github.com/lessons-dev/lessons"
)

// A shell error about a named object (lessons.ClassObject: a program the
// shell did not find, a module that is not there) comes from the
// environment, not from the command that printed it: the lesson learned
// on `bun test` holds when `bun run build` prints the same error about
// the same module. Its error trigger keeps the object's name, so that it
// stays about that error and that object, and it has no command
// condition: any shell call that prints it brings it, after the call as
// every lesson on an error. One such error is one lesson per project
// whatever the command (objectKey), so the sessions of every command
// that met it support it.

// objectTrigger is the trigger of a lesson on a shell error of class
// about a named object: the shell tool and that error about that object;
// ok is false when the class names none, or errLine, the line the lesson
// is shown with, does not say it.
func objectTrigger(class, errLine string) (lessons.Trigger, bool) {
	if lessons.IsRefusal(class) {
		return refusalTrigger("Bash", class, errLine)
	}
	object, p := lessons.ClassObject(class)
	if object == "" || !strings.Contains(errLine, object) {
		return lessons.Trigger{}, false
	}
	if p == "" {
		p = errorPattern(lessons.FirstSentence(errLine)) // the line, its object unmasked
	}
	re, err := lessons.CompilePattern(p)
	if p == "" || err != nil {
		return lessons.Trigger{}, false
	}
	// about that object: the same error about another does not match
	other := strings.ReplaceAll(errLine, object, otherObject(object))
	if ok, _ := re.MatchString(errLine); !ok {
		return lessons.Trigger{}, false
	}
	if ok, _ := re.MatchString(other); ok {
		return lessons.Trigger{}, false
	}
	return lessons.Trigger{Tools: []string{"Bash"}, Errors: []string{p}}, true
}

// refusalTrigger is the trigger of a lesson on an environment's refusal
// (class "refused: …") that tool met: that tool, and the refusal in any of
// its wordings (lessons.ClassObject), not the line it was first read
// from, which names the path or host of that occurrence. A Glob, a Read
// or a Grep refused a folder of the home directory is refused the next
// one too, as a shell command is. ok is false when class is no refusal,
// or errLine, the line the lesson is shown with, does not say it.
func refusalTrigger(tool, class, errLine string) (lessons.Trigger, bool) {
	if tool == "" || !lessons.IsRefusal(class) {
		return lessons.Trigger{}, false
	}
	_, p := lessons.ClassObject(class)
	if re, err := lessons.CompilePattern(p); err != nil {
		return lessons.Trigger{}, false
	} else if ok, _ := re.MatchString(errLine); !ok {
		return lessons.Trigger{}, false
	}
	return lessons.Trigger{Tools: []string{tool}, Errors: []string{p}}, true
}

// fileClass is the class of a known failure's key of a file tool, without
// the path or folder the key may end with ("refused: network | /a/b").
func fileClass(class string) string {
	c, _, _ := strings.Cut(class, " | ")
	return c
}

// otherObject is a name of the same shape as object and another: the
// pattern of an error about object must not match it.
func otherObject(object string) string {
	if strings.ToUpper(object) == object {
		return "OTHER_" + object + "_X"
	}
	return "other-" + object + "-x"
}

// objectKey is the key a shell failure's lesson is one per: key itself
// ("Bash go test | KeyError", "go test | KeyError"), or, for an error
// about a named object, the shell and the class alone ("Bash | Cannot
// find module @a/core"): the same error about the same object, whichever
// command printed it. The key of another tool's failure stays as it is.
func objectKey(key string, shell bool) string {
	_, class, ok := strings.Cut(key, " | ")
	if !shell || !ok {
		return key
	}
	if o, _ := lessons.ClassObject(class); o == "" {
		return key
	}
	return "Bash | " + class
}
