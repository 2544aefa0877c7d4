// Package repo reads and writes the files lessons keeps: lesson and config
// YAML files, checked against the JSON Schemas in lessons.Schemas with every
// problem placed at a file, line and column; canonical YAML for writing; and
// atomic writes. The global store is a git repository driven by go-git, in
// which every change is one commit. Loader implements scope.Loader.
package repo
