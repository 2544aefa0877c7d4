package repo

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	lessons "github.com/lessons-dev/lessons"
)

// ParseLesson reads the lesson file called name: YAML, then the lesson
// schema, then lessons.Validate. It returns the lesson, or Problems
// holding every error, each naming the file, line and column. Warnings do
// not fail a lesson; CheckLesson returns them.
func ParseLesson(name string, data []byte) (*lessons.Lesson, error) {
	l, ps := CheckLesson(name, data)
	if err := ps.Err(); err != nil {
		return nil, err
	}
	return l, nil
}

// CheckLesson is ParseLesson for tools that report everything, such as
// doctor: it returns every problem, warnings included, in position order,
// and the lesson whenever the file decodes into one, even an invalid one.
func CheckLesson(name string, data []byte) (*lessons.Lesson, Problems) {
	return checkLesson(name, data, "")
}

// checkLesson is CheckLesson, also checking that the slug is fileSlug
// when that is not "": the file name is how commands find a lesson.
func checkLesson(name string, data []byte, fileSlug string) (*lessons.Lesson, Problems) {
	var l lessons.Lesson
	root, decoded, ps := decode(LessonSchema, name, data, &l)
	if !decoded {
		return nil, ps
	}
	ps = append(ps, placeValidation(name, root, lessons.Validate(&l), ps)...)
	if fileSlug != "" && l.Slug != fileSlug {
		line, col := locate(root, []string{"slug"}).position()
		ps = append(ps, &FileError{File: name, Line: line, Column: col, Field: "slug",
			Msg: fmt.Sprintf("is %q but the file is named %q: rename the file to %s.yaml or set the slug to %s", l.Slug, fileSlug, l.Slug, fileSlug)})
	}
	ps.sort()
	return &l, ps
}

// placeValidation places lessons.Validate's problems at their fields,
// leaving out fields the schema already found at fault: both check some
// things, such as blockReason without block.
func placeValidation(file string, root *yaml.Node, problems []lessons.Problem, schema Problems) Problems {
	faulty := map[string]bool{}
	for _, p := range schema {
		faulty[p.Field] = true
	}
	var ps Problems
	for _, p := range problems {
		if faulty[p.Field] {
			continue
		}
		line, col := locate(root, fieldTokens(p.Field)).position()
		ps = append(ps, &FileError{File: file, Line: line, Column: col, Field: p.Field, Msg: p.Message, Warning: p.Warning})
	}
	return ps
}
