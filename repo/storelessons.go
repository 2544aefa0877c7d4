package repo

import (
	"fmt"
	"os"

	"github.com/go-git/go-git/v5"

	lessons "github.com/lessons-dev/lessons"
)

// Add writes a new lesson to the store and commits it as
// "add lesson <slug>: <summary>", returning the file's path. It creates
// the store if needed, and fails, changing nothing, when the slug already
// has a file (an error wrapping fs.ErrExist) or the lesson would not load
// back.
func (s Store) Add(l *lessons.Lesson) (string, error) {
	return s.change(func() (string, string, error) {
		path, err := CreateLesson(s.LessonsDir(), l)
		return path, fmt.Sprintf("add lesson %s: %s", l.Slug, l.Summary), err
	})
}

// Update rewrites an existing lesson of the store and commits it as
// "update lesson <slug>: <summary>", returning the file's path; an error
// wrapping fs.ErrNotExist when the store has no file for the slug. An
// update that changes nothing makes no commit.
func (s Store) Update(l *lessons.Lesson) (string, error) {
	return s.change(func() (string, string, error) {
		if _, err := LessonFile(s.LessonsDir(), l.Slug); err != nil {
			return "", "", err
		}
		path, err := WriteLesson(s.LessonsDir(), l)
		return path, fmt.Sprintf("update lesson %s: %s", l.Slug, l.Summary), err
	})
}

// Remove deletes a lesson from the store and commits it as
// "remove lesson <slug>: <summary>", returning the removed file's path;
// an error wrapping fs.ErrNotExist when the store has no file for the slug.
func (s Store) Remove(slug string) (string, error) {
	return s.change(func() (string, string, error) {
		message := "remove lesson " + slug
		if p, err := LessonFile(s.LessonsDir(), slug); err == nil {
			if data, err := os.ReadFile(p); err == nil {
				if l, _ := CheckLesson(p, data); l != nil {
					message += ": " + l.Summary
				}
			}
		}
		path, err := RemoveLesson(s.LessonsDir(), slug)
		return path, message, err
	})
}

// change runs one write of a file of the store under the store's lock and
// commits that file with the message the write returns.
func (s Store) change(write func() (path, message string, err error)) (string, error) {
	if err := s.EnsureInit(); err != nil {
		return "", err
	}
	repo, err := git.PlainOpen(s.Dir)
	if err != nil {
		return "", fmt.Errorf("opening the lessons store %s: %w", s.Dir, err)
	}
	unlock, err := s.lock()
	if err != nil {
		return "", err
	}
	defer unlock()
	path, message, err := write()
	if err != nil {
		return "", err
	}
	_, err = s.commit(repo, message, []string{path})
	return path, err
}
