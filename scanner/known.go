package scanner

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/lessons-dev/lessons"
	"github.com/lessons-dev/lessons/engine/secret"
)

// Known failures: the same error (command family and error class)
// failing before the agent changed anything, in two or more sessions of a
// project, is a failure that comes with the checkout or the environment
// (a test that fails on a clean tree, a tool that is not installed), not
// one the agent caused. A lesson at the failure says so, so that the next
// agent does not spend the session "fixing" it, or revert its own
// correct work to make it pass.

// KindKnown is a failure seen before any change in several sessions.
const KindKnown = "known"

// maxKnown caps the failures before any change one session remembers.
const maxKnown = 3

// knownFailure is a failure before any change, waiting for the session's
// end: if nothing in the session explains it, it is a finding.
type knownFailure struct {
	rec *callRec
	res *Result
}

// beforeChange remembers a failed shell call (not a probe) made before
// the session changed anything. Its family and class are read at the
// session's end, and only if nothing explained it.
func (a *analyzer) beforeChange(rec *callRec, r *Result) {
	if a.changed || rec.call.Tool != "Bash" || len(a.known) >= maxKnown || r.Timeout || strings.TrimSpace(r.Output) == "" {
		return
	}
	a.known = append(a.known, knownFailure{rec: rec, res: r})
}

// settleKnown turns the session's failures before any change into
// findings, once per family and class, unless a later call of the session
// got past them (a retry or a rerun worked) or a finding explained them:
// then the agent's call was the mistake, or the failure was fixed.
func (a *analyzer) settleKnown() {
	seen := map[string]bool{}
	for _, k := range a.known {
		if k.rec.fixed || a.explained(k.rec.id) {
			continue // the session got past it: the agent's mistake, or fixed
		}
		fam := failedFamily(k.rec.call.Command, k.res)
		if fam.Exe == "" || fam.Probe || k.res.errorText() == "" {
			continue
		}
		key := fam.String() + " | " + lessons.ErrorClass(k.res.Output)
		if seen[key] {
			continue
		}
		seen[key] = true
		a.findings = append(a.findings, finding{
			Kind: KindKnown, Line: k.rec.line, UID: k.rec.uid, Tool: "Bash", Trigger: k.rec.call.Command,
			Call: k.rec.id, Change: key, Problem: k.res.errorText(),
		})
	}
	a.known = nil
}

// explained reports whether a finding of the session is about call id.
func (a *analyzer) explained(id string) bool {
	for _, f := range a.findings {
		if f.Call == id {
			return true
		}
	}
	return false
}

// knownText writes a known failure's lesson, for the sessions it was
// seen in so far.
func (c *Candidate) knownText() {
	head := cmp.Or(headWords(c.Trigger), "the command")
	line := errorHeadline(c.Problem)
	n := len(c.Sessions)
	c.Summary = secret.Sentence(shorten("`"+head+"` fails before any change: "+line, maxSummary))
	c.Solution = "`" + head + "` failed with this error before any change, in " + strconv.Itoa(n) + " session" + plural(n) +
		" of this project: it comes with the checkout or the environment, not from your work. " +
		"Do not revert or rewrite your changes to make it pass, and do not take fixing it on as part of the task; " +
		"say that it failed before you started, and check your change with a narrower run."
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// gotPast reports whether a call that worked got past a failed one: the
// same command family, or the same words but for one mistyped (make biuld,
// then make build). Another command of the same tool (npm run e2e, then
// npm run typecheck) is not.
func gotPast(failed, worked *Call) bool {
	if failed.Tool != "Bash" || worked.Tool != "Bash" {
		return failed.Path != "" && failed.Path == worked.Path
	}
	if lessons.CommandFamily(failed.Command).String() == lessons.CommandFamily(worked.Command).String() {
		return true
	}
	f, w := strings.Fields(failed.Command), strings.Fields(worked.Command)
	if len(f) != len(w) {
		return false
	}
	diff := -1
	for i := range f {
		if f[i] != w[i] {
			if diff >= 0 {
				return false
			}
			diff = i
		}
	}
	return diff >= 0 && editDistance(f[diff], w[diff]) <= 2
}

// editDistance is the Levenshtein distance of two short words (a swap
// of two letters counts two).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
