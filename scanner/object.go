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
	object, p := lessons.ClassObject(class)
	if lessons.IsRefusal(class) {
		// what refused, in any wording: the line says one of them
		if re, err := lessons.CompilePattern(p); err != nil {
			return lessons.Trigger{}, false
		} else if ok, _ := re.MatchString(errLine); !ok {
			return lessons.Trigger{}, false
		}
		return lessons.Trigger{Tools: []string{"Bash"}, Errors: []string{p}}, true
	}
	if object == "" || !strings.Contains(errLine, object) {
		return lessons.Trigger{}, false
	}
	if p == "" {
		p = errorPattern(firstClause(errLine)) // the line, its object unmasked
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
