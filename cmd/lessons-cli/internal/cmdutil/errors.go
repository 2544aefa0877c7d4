package cmdutil

import (
	"errors"
	"fmt"
)

// ErrSilent makes the CLI exit 1 without printing anything more: the
// command has already said what went wrong.
var ErrSilent = errors.New("silent error")

// ExitError makes the CLI exit with Code after printing Err as any
// error (a nil Err prints nothing): for commands whose exit status says
// more than failed or not.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}
func (e *ExitError) Unwrap() error { return e.Err }

// HintError is an error with what to do about it.
type HintError struct {
	Err  error
	Hint string
}

func (e *HintError) Error() string { return e.Err.Error() }
func (e *HintError) Unwrap() error { return e.Err }

// WithHint attaches a hint to err; nil stays nil.
func WithHint(err error, hint string) error {
	if err == nil {
		return nil
	}
	return &HintError{Err: err, Hint: hint}
}

// Hintf returns an error with a hint.
func Hintf(hint, format string, args ...any) error {
	return &HintError{Err: fmt.Errorf(format, args...), Hint: hint}
}

// FlagError is a mistake in the command line; the CLI shows the usage.
type FlagError struct{ Err error }

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

// FlagErrorf returns a FlagError.
func FlagErrorf(format string, args ...any) error {
	return &FlagError{Err: fmt.Errorf(format, args...)}
}
