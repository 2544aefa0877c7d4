package lessons

import "embed"

// Builtin holds the lessons shipped with the binary, under "lessons.d".
//
//go:embed lessons.d
var Builtin embed.FS

// Schemas holds the JSON Schemas of lesson, config and pack files, under
// "schemas".
//
//go:embed schemas
var Schemas embed.FS
