package lessons

import (
	"regexp"
	"strings"
	"sync"
)

// An error about a named object. Some error classes keep the name of what
// was missing (ErrorClass): a program the shell did not find, a Python
// module, a JavaScript module or package. The cause of such an error is
// the environment the call ran in, not the call: `bun run build` and `bun
// test` print the same "Cannot find module '@scope/core'" until the
// package is built, and `go build` and `go test` the same "go: command
// not found" until the toolchain is on the PATH. A lesson on it holds for
// any command that prints it about that object.

// objectForms are the classes that name their object, and how the
// error is printed about that object, with %s for its name (quoted for a
// regex). Each says what the class's own pattern reads (classPatterns),
// in the wordings it reads them in.
var objectForms = []struct{ class, pattern string }{
	{"command not found: ", `(?:^|[^\w.+-])%s: command not found|command not found: %s(?:$|[^\w.+-])|Command '%s' not found|'%s' is not recognized as|The term '%s' is not recognized`},
	{"No module named ", `No module named '?%s(?:$|[^\w.])`},
	{"Cannot find module ", `(?:Cannot find (?:module|package)|Can't resolve) '%s'`},
}

// maxObject is the longest object name kept in a pattern.
const maxObject = 100

// An environment variable a call needed and did not have is an object of
// the environment too. Its error has no fixed wording ("Missing
// DATABASE_URL", "STRIPE_KEY is not set", "environment variable
// API_TOKEN is required"), so its class is the error line itself, which
// keeps the variable's name: ClassObject names the variable and leaves the
// pattern to the line (""). A name in capitals joined by underscores is a
// variable's; the line must say it is missing. The regex is compiled
// on first use: at package load it cost every hook call 45 µs.
var (
	envName = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b`)
	})
	envMissings = []string{"missing", "not set", "unset", "undefined", "not defined", "is required", "are required",
		"must be set", "must be defined", "not configured", "not provided", "is empty"}
)

// ClassObject is the name an error class keeps of what was missing (the
// program, the module, the environment variable) or of what the
// environment refused (the network, an operation), and a pattern
// (ECMAScript, linear) that finds that error about that object in what
// any command printed, "" when the error line the class was read from is
// its own pattern (a variable's); "" and "" for a class that names none,
// or names a file by its path (a path of one checkout, not an object of
// the environment).
func ClassObject(class string) (object, pattern string) {
	if k, p := refusalObject(class); k != "" {
		return k, p // what refused, in any of its wordings (envrefusal.go)
	}
	for _, f := range objectForms {
		name, ok := strings.CutPrefix(class, f.class)
		if !ok {
			continue
		}
		if len(name) < 2 || len(name) > maxObject || strings.ContainsAny(name, "\\:~ \t") ||
			strings.HasPrefix(name, "/") || strings.HasPrefix(name, ".") {
			return "", ""
		}
		q := regexp.QuoteMeta(name)
		return name, strings.ReplaceAll(f.pattern, "%s", q)
	}
	if strings.Contains(class, "_") && containsAny(strings.ToLower(class), envMissings) {
		for _, at := range envName().FindAllStringIndex(class, 4) {
			if code := at[0] > 0 && strings.ContainsRune("[(", rune(class[at[0]-1])) ||
				at[1] < len(class) && strings.ContainsRune("]):", rune(class[at[1]])); !code && at[1]-at[0] <= maxObject {
				return class[at[0]:at[1]], "" // not an error's code, bracketed or labelling it (Error [ERR_X]: …)
			}
		}
	}
	return "", ""
}
