// Package gendocs writes the reference documentation of the command
// tree: one markdown page per command (docs/cli in the repository) and
// man pages (in the release archives).
package gendocs

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// NewCmdGenDocs returns the hidden `gen-docs` command, run by the release
// and by `go generate`, never by users.
func NewCmdGenDocs() *cobra.Command {
	var mdDir, manDir string
	cmd := &cobra.Command{
		Use:    "gen-docs --markdown DIR [--man DIR]",
		Short:  "Write the command reference as markdown and man pages",
		Hidden: true,
		Args:   cobra.NoArgs,
		Example: `  lessons gen-docs --markdown docs/cli
  SOURCE_DATE_EPOCH=$(git log -1 --format=%ct) lessons gen-docs --man dist/man`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if mdDir == "" && manDir == "" {
				return fmt.Errorf("nothing to write: give --markdown DIR, --man DIR or both")
			}
			return Write(cmd.Root(), mdDir, manDir)
		},
	}
	cmd.Flags().StringVar(&mdDir, "markdown", "", "write markdown pages into `DIR`")
	cmd.Flags().StringVar(&manDir, "man", "", "write man pages into `DIR`")
	return cmd
}

// sourceDate is $SOURCE_DATE_EPOCH (reproducible builds set it), else now.
func sourceDate() *time.Time {
	t := time.Now().UTC()
	if sec, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64); err == nil && sec > 0 {
		t = time.Unix(sec, 0).UTC()
	}
	return &t
}

// Write generates the pages of root's tree into mdDir and manDir (either
// may be empty to skip it). The markdown depends only on the tree (no
// date, no "auto generated" line), so a stale copy shows up as a diff;
// man pages carry sourceDate.
func Write(root *cobra.Command, mdDir, manDir string) error {
	root.DisableAutoGenTag = true
	// Execute adds these two lazily; add them so a test's tree and the
	// command's tree give the same pages.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	if mdDir != "" {
		if err := os.MkdirAll(mdDir, 0o755); err != nil {
			return err
		}
		if err := doc.GenMarkdownTree(root, mdDir); err != nil {
			return fmt.Errorf("markdown pages: %w", err)
		}
	}
	if manDir != "" {
		if err := os.MkdirAll(manDir, 0o755); err != nil {
			return err
		}
		hdr := &doc.GenManHeader{Section: "1", Source: "lessons", Manual: "lessons manual", Date: sourceDate()}
		if err := doc.GenManTree(root, hdr, manDir); err != nil {
			return fmt.Errorf("man pages: %w", err)
		}
	}
	return nil
}
