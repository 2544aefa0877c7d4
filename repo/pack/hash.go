package pack

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"sort"
	"strings"
)

// HashFiles is Go's "h1:" directory hash (golang.org/x/mod/sumdb/dirhash
// Hash1) of files, which maps slash-separated names to contents: the
// sha256 of the sorted lines "<sha256 hex>  <name>\n", base64-encoded.
// A name holding a newline cannot be hashed unambiguously and is an error.
func HashFiles(files map[string][]byte) (string, error) {
	names := make([]string, 0, len(files))
	for name := range files {
		if strings.Contains(name, "\n") {
			return "", fmt.Errorf("file name %q contains a newline", name)
		}
		names = append(names, name)
	}
	sort.Strings(names)
	sum := sha256.New()
	for _, name := range names {
		fmt.Fprintf(sum, "%x  %s\n", sha256.Sum256(files[name]), name)
	}
	return "h1:" + base64.StdEncoding.EncodeToString(sum.Sum(nil)), nil
}
