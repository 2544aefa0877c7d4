package add

import (
	"strings"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
)

// flagOf names the flag that sets a field, for errors about flags.
var flagOf = []struct{ field, flag string }{
	{"triggers.tools", "--tool"}, {"triggers.commands", "--command"}, {"triggers.unless", "--unless"},
	{"triggers.paths", "--path"}, {"triggers.content", "--content"}, {"triggers.keywords", "--keyword"},
	{"triggers.errors", "--error"},
	{"triggers", "--command, --path, --content, --error, --tool, --keyword or --session-start"},
	{"examples.match", "--match"}, {"examples.noMatch", "--no-match"},
	{"blockReason", "--block-reason"}, {"summary", "--summary"}, {"problem", "--problem"},
	{"solution", "--solution"}, {"injection", "--injection"}, {"block", "--block"},
	{"decision", "--decision"}, {"priority", "--priority"}, {"confidence", "--confidence"}, {"tags", "--tag"},
}

// check applies the intake rules (cmdutil.CheckLesson); errors and
// warnings name the flag (or, with a file, its name) and field.
func check(l *lessons.Lesson, file string) (warnings []string, err error) {
	return cmdutil.CheckLesson(l, func(field string) string { return where(field, file) })
}

// where is the flag that sets field, or the field in file.
func where(field, file string) string {
	if file != "" {
		return file + ": " + field
	}
	for _, f := range flagOf {
		if field == f.field || strings.HasPrefix(field, f.field+"[") || strings.HasPrefix(field, f.field+".") {
			return f.flag + " (" + field + ")"
		}
	}
	return field
}
