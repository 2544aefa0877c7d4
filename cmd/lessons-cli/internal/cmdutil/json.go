package cmdutil

import (
	"encoding/json"
	"io"
)

// PrintJSON writes v as indented JSON: the machine output of --json, whose
// field names are a contract pinned by tests.
func PrintJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
