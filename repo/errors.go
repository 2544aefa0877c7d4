package repo

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// FileError is one problem in a file, placed at a line and column (both
// 1-based; 0 when the problem concerns the whole file, such as its size).
type FileError struct {
	File   string
	Line   int
	Column int
	// Field is the dotted path of the value at fault, such as
	// "triggers.commands[1]", or "" for the file as a whole.
	Field string
	Msg   string
	// Warning marks a problem that does not stop the file from loading.
	Warning bool
}

// Error formats the problem as "file:line:column: [warning: ]field: msg".
func (e *FileError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	b.WriteString(": ")
	if e.Warning {
		b.WriteString("warning: ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Problems are the problems of one or more files, in file and position
// order. As an error it prints one problem per line, and errors.As finds
// each *FileError in it.
type Problems []*FileError

// Error prints one problem per line.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns each problem, so errors.As and errors.Is see them.
func (ps Problems) Unwrap() []error {
	errs := make([]error, len(ps))
	for i, p := range ps {
		errs[i] = p
	}
	return errs
}

// Errors returns the problems that are not warnings.
func (ps Problems) Errors() Problems {
	return slices.DeleteFunc(slices.Clone(ps), func(p *FileError) bool { return p.Warning })
}

// Warnings returns the problems that are warnings.
func (ps Problems) Warnings() Problems {
	return slices.DeleteFunc(slices.Clone(ps), func(p *FileError) bool { return !p.Warning })
}

// Err returns the errors among ps as an error, or nil when there are none.
func (ps Problems) Err() error {
	if errs := ps.Errors(); len(errs) > 0 {
		return errs
	}
	return nil
}

// sort orders problems by file, then position.
func (ps Problems) sort() {
	slices.SortStableFunc(ps, func(a, b *FileError) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
}
