// Package clitest has helpers for the commands' tests: lessons in memory
// and a way to run a command line against buffer-backed streams.
package clitest

import (
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	lessons "github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/scope"
)

// Resolved returns a valid lesson from the given scope, with a Bash
// trigger on command and an example that matches it.
func Resolved(s lessons.Scope, slug, command string) scope.Resolved {
	return scope.Resolved{
		Lesson: lessons.Lesson{
			ID: strings.ToUpper(slug), Slug: slug,
			Summary:  "Lesson " + slug + " says something useful",
			Problem:  "The problem of " + slug + " bites people who run " + command,
			Solution: "The way to avoid " + slug + " is to think first",
			Triggers: lessons.Trigger{Commands: []string{command}},
			Examples: lessons.Examples{Match: []lessons.ToolCall{{Tool: "Bash", Command: command}}},
		},
		Scope: s, Path: filepath.Join(string(s), slug+".yaml"), AllowBlock: true,
	}
}

// Run executes cmd with the space-separated args.
func Run(cmd *cobra.Command, args string) error {
	cmd.SetArgs(strings.Fields(args))
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	_, err := cmd.ExecuteC()
	return err
}
