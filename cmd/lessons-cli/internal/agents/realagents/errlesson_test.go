package realagents

import (
	"testing"
)

// errorMark is in the text of the lesson on deploy.sh's error.
const errorMark = "LESSONS-E2E-ON-ERROR"

// TestErrorLesson runs each agent on deploy.sh working, then failing,
// then fixed, with a project lesson on the error deploy.sh prints (added
// with lessons add --error, its commands naming deploy.sh): the model
// must not read it at the call that works, which its command trigger
// alone would match, and must read it once, in the request right after
// the failure.
func TestErrorLesson(t *testing.T) {
	for _, c := range agentRuns {
		t.Run(c.platform, func(t *testing.T) {
			w := deployWorld(t, c)
			w.lessons("add", "--project",
				"--summary", "deploy.sh stops unless --env names the environment to deploy to",
				"--problem", errorMark+": deploy.sh exits 2 with an error when --env is missing or empty.",
				"--solution", "Run ./deploy.sh --env staging (or --env production).",
				"--error", `env is required`, "--command", `deploy\.sh`,
				"--match", "./deploy.sh", "--example-error", deployError)
			w.lessons("install", "--platform", c.platform)
			shell := shellOf[c.platform]
			m := newModel(t, shape[c.platform], shell("./deploy.sh --env staging"), shell("./deploy.sh"),
				shell("./deploy.sh --env production"), say("All done."))
			c.run(w, m)
			m.done()
			once(t, "the request after the call that worked", m.after(0), errorMark, 0)
			once(t, "the request after the failing call", m.after(1), errorMark, 1)
			once(t, "the request after the fix", m.after(2), errorMark, 1)
		})
	}
}
