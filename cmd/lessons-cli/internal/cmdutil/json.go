package cmdutil

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
)

// PrintJSON writes v as indented JSON: the machine output of --json, whose
// field names are a contract pinned by tests. Characters a terminal may
// act on are escaped (iostreams.EscapeJSON).
func PrintJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(iostreams.EscapeJSON(b.Bytes()))
	return err
}
