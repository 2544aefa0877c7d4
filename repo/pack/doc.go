// Package pack brings team lesson packs onto a machine and sends lessons
// back to them. A pack is a git repository holding pack.yaml and
// lessons/*.yaml. Every git operation goes through go-git.
//
// Sync keeps one bare clone per pack in the cache, fetches it, and
// activates exactly the commit pinned in lessons.lock: the pack's lessons
// are validated as untrusted input, written to a fresh version directory,
// and made active by swapping one symbolic link, so a version that fails
// never replaces the last good one. Submit adds one lesson on a new branch
// of the clone and pushes it for review.
package pack
