// Package engine is the hook's hot path: it compiles a merged view of the
// lesson stores into a binary manifest, opens that manifest in
// microseconds, matches tool calls against it with literal prefilters
// before any regex runs, selects what to inject within the session's
// budget, formats the answer for each agent platform, and records what it
// did in an event log.
//
// It links only the standard library, regexp2, the root package and
// scope: no YAML, git, JSON Schema or CLI framework, so the binary that
// runs before every tool call starts fast.
package engine
