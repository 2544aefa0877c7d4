package scanner

import "testing"

// TestAnotherJobIsNoFix: a type check fails on the code, and the next
// call that works does another job: it reads the files instead (rg for
// tsc, cat for the script that failed), or runs another script (build
// for typecheck) while the compiler's findings suggest a file ("Did you
// mean '../worker.js'?"), which says nothing of how the command was
// called. Nor does the same command run without what it was to work on
// (pnpm run -w lists the scripts). None is a retry's fix. A
// script the tool said it does not have, then the one it named, is.
func TestAnotherJobIsNoFix(t *testing.T) {
	tsc := "src/a.ts(3,1): error TS2307: Cannot find module 'x' or its corresponding type declarations."
	for _, tc := range []struct {
		failed, out, fixed string
		want               bool
	}{
		{"cd /p/web && npx tsc --noEmit src/a.tsx src/b.tsx src/c.tsx", "node_modules/next/dist/build/templates/app-page.d.ts(10,40): error TS2307: Cannot find module 'VAR_MODULE_GLOBAL_ERROR' or its corresponding type declarations.",
			`cd /p/web && rg "^import" src/a.tsx src/b.tsx src/c.tsx`, false},
		{"pnpm run typecheck", tsc + "\nsrc/b.ts(4,2): error TS2835: Relative import paths need explicit file extensions. Did you mean '../worker.js'?", "pnpm run build", false},
		{"python scripts/report.py", "FileNotFoundError: [Errno 2] No such file or directory: 'data.csv'", "cat scripts/report.py", false},
		{"pnpm run typecheck", "ERR_PNPM_NO_SCRIPT  Missing script: typecheck\n\nCommand \"typecheck\" not found.", "pnpm run -w 2>&1 | head -30", false},
		{"pnpm run typecheck", "ERR_PNPM_NO_SCRIPT Missing script: typecheck. Did you mean \"pnpm run type-check\"?", "pnpm run type-check", true},
	} {
		cs := scanned(t, []step{
			run(tc.failed, 2, tc.out),
			run(tc.fixed, 0, "ok"),
		})
		got := false
		for _, c := range cs {
			got = got || c.Kind == KindRetry
		}
		if got != tc.want {
			t.Errorf("%s, then %s: a retry %v, want %v: %v", tc.failed, tc.fixed, got, tc.want, summaries(cs))
		}
	}
}
