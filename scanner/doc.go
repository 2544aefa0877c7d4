// Package scanner turns agent session logs into lesson candidates.
//
// It reads the transcripts of Claude Code, Codex CLI, Gemini CLI and
// opencode, detects each file's format, and normalizes every record into a
// common stream of events (user text, assistant text, tool calls, tool
// results, compactions, interrupts, rejections). Two tiers find mistakes in
// that stream:
//
//   - tier 1: #lesson … #/lesson blocks the agent wrote itself (tags.go);
//   - tier 2: failures followed by a successful retry or a user correction,
//     and tool calls the user rejected with a reason (heuristics.go); a
//     failure that a change of state fixed before the same call worked
//     (precondition.go); and the same error before any change in two or
//     more sessions of a project (known.go).
//
// Precision: a refusal is the user's only when the harness marked it so,
// or when a person had time to type it (refusal.go); a refused question or
// plan is an answer. A reason is read clause by clause (reason.go): a
// question, a remark, chatter or a takeover is weak (Question or Feedback:
// 0.2 less confidence, no bonus for a confirmed fix, listed last). A fix,
// correction or reason that names one task's things (a path, a line
// number, a hash) waits for a second session (support.go); a retry or
// precondition trigger that fires on most sampled calls of its command is
// narrowed to the failure's error or held back (broad.go); a retry that
// left alone what the error named is no fix (addresses.go). Confidence
// grows with each doubling of the sessions and projects a mistake was
// seen in, and the agent's own #lesson words win a merge.
//
// Findings are redacted (redact.go), scored (score.go) and merged into
// candidates stored under the state directory (candidates.go), which the
// CLI lists, promotes into lessons (ToLesson) or rejects. The weights
// come from config's scoring key (Weights.With).
//
// Scanning is incremental: a per-file state (offset, size, mtime, inode)
// makes an unchanged file cost one stat, and a lock keeps two scans from
// running at once (state.go). Files are read line by line with a bounded
// line length, and cheap byte checks decide which lines need a JSON decode,
// so memory stays bounded and throughput stays high (scan.go).
//
// The entry points are Scan, OpenStore and ToLesson.
package scanner
