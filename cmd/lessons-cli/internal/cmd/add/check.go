package add

import (
	"errors"
	"strings"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/cmdutil"
	"github.com/lessons-dev/lessons/repo"
	"github.com/lessons-dev/lessons/scope"
)

// flagOf names the flag that sets a field, for errors about flags.
var flagOf = []struct{ field, flag string }{
	{"triggers.tools", "--tool"}, {"triggers.commands", "--command"}, {"triggers.unless", "--unless"},
	{"triggers.paths", "--path"}, {"triggers.content", "--content"}, {"triggers.keywords", "--keyword"},
	{"triggers", "--command, --path, --content, --tool, --keyword or --session-start"},
	{"examples.match", "--match"}, {"examples.noMatch", "--no-match"},
	{"blockReason", "--block-reason"}, {"summary", "--summary"}, {"problem", "--problem"},
	{"solution", "--solution"}, {"injection", "--injection"}, {"block", "--block"},
	{"decision", "--decision"}, {"priority", "--priority"}, {"confidence", "--confidence"}, {"tags", "--tag"},
}

// check validates the lesson as the file it will become: schema, then
// lessons.Validate, then its examples through the hook's matcher. Errors
// and warnings name the flag (or, with a file, its name) and field.
func check(l *lessons.Lesson, file string) (warnings []string, err error) {
	data, err := repo.MarshalLesson(l)
	if err != nil {
		return nil, err
	}
	_, ps := repo.CheckLesson(l.Slug+".yaml", data)
	for _, p := range ps.Warnings() {
		warnings = append(warnings, describe(p, file))
	}
	var msgs []string
	for _, p := range ps.Errors() {
		msgs = append(msgs, describe(p, file))
	}
	if len(msgs) == 0 {
		_, fails := cmdutil.CheckExamples(l)
		for _, f := range fails {
			msgs = append(msgs, where(f.Field, file)+": "+f.Problem())
		}
	}
	if len(msgs) > 0 {
		return warnings, cmdutil.WithHint(errors.New("the lesson is not valid, nothing was written:\n  "+strings.Join(msgs, "\n  ")),
			"fix the values above; regexes are ECMAScript (lookahead allowed)")
	}
	return warnings, nil
}

func describe(p *repo.FileError, file string) string {
	if p.Field == "" {
		return p.Msg
	}
	return where(p.Field, file) + ": " + p.Msg
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

// checkNew refuses a lesson that repeats one that exists: the same
// content hash, or a Jaccard similarity of NearDuplicateThreshold or more,
// unless forced.
func checkNew(l *lessons.Lesson, m scope.Merged, force bool) error {
	if force {
		return nil
	}
	all := m.Active
	for _, e := range m.Excluded {
		all = append(all, e.Resolved)
	}
	var near *scope.Resolved
	best := 0.0
	for i := range all {
		r := &all[i]
		if lessons.ComputeContentHash(&r.Lesson) == l.ContentHash {
			return cmdutil.Hintf("lessons show "+r.Slug+"; --force adds it anyway",
				"the lesson says exactly what %s (%s, %s) says; nothing was written", r.Slug, r.Scope, r.Path)
		}
		if s := lessons.Similarity(&r.Lesson, l); s >= lessons.NearDuplicateThreshold && s > best {
			near, best = r, s
		}
	}
	if near != nil {
		return cmdutil.Hintf("lessons show "+near.Slug+", then lessons edit "+near.Slug+" to improve it; --force adds the new one anyway",
			"the lesson shares %.0f%% of its words with %s (%s, %s): %q; nothing was written", best*100, near.Slug, near.Scope, near.Path, near.Summary)
	}
	return nil
}
