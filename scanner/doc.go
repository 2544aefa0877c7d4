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
//     and tool calls the user rejected with a reason (heuristics.go).
//
// Precision: every tool call the user rejected with a stated reason
// becomes a candidate, whatever the reason says, so that no correction is
// lost. But many reasons are not instructions: a question ("will this work
// in CI?"; a reason ending in "?" or starting with what, why, how, can,
// could, should, is, are, do or does) or feedback on the plan or the task
// with no imperative (use, don't, never, always, instead, stop, avoid,
// prefer). Those get the Question or Feedback signal, 0.2 less confidence
// (Weights.Weak) and no bonus for a confirmed fix (a change after a
// question fixes no mistake), and are listed after every other candidate
// (reason.go),
// so review starts with the candidates likely to make lessons and the
// manifest's minConfidence keeps the weak ones out unless promoted by hand.
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
