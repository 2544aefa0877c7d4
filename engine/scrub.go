package engine

import (
	"strings"
	"unicode/utf8"
)

// redacted stands for a word scrub took out.
const redacted = "[REDACTED]"

// scrub takes the obvious secrets out of a command or an error line
// before live capture stores it or shows it, and joins its words with
// single spaces. The hook cannot link gitleaks (its rules cost start-up
// time on every call), so this is a cheap word-by-word check, no regex:
//
//   - a word after Bearer, --password, --token and the like;
//   - KEY=value and KEY: value where KEY names a token, secret,
//     password, credential, auth or API key;
//   - the user:password of a URL;
//   - known token prefixes (sk-, ghp_, github_pat_, glpat-, xoxb-, AKIA,
//     AIza, npm_, eyJ… of a JWT);
//   - any run of 32 or more letters, digits and +/=_- mixing letters and
//     digits, which is how most keys look (hashes go too).
//
// What it misses, a secret in a shape none of these has, is stored in
// the session's capture record (state directory, mode 0600, removed with
// the session's state after a week idle) and may be quoted back to the
// agent, which saw it already in the call.
func scrub(s string) string {
	words := strings.Fields(strings.Map(printable, s))
	secretNext := false
	for i, w := range words {
		lw := strings.ToLower(strings.Trim(w, `"'`))
		if secretNext && lw != "bearer" && lw != "basic" {
			words[i], secretNext = redacted, false
			continue
		}
		switch {
		case lw == "bearer" || lw == "basic" || secretFlag(lw):
			secretNext = true
			continue
		case strings.HasSuffix(lw, ":") && secretKey(strings.TrimSuffix(lw, ":")):
			secretNext = true
			continue
		}
		words[i] = scrubWord(w)
	}
	return strings.Join(words, " ")
}

// printable turns control characters into spaces.
func printable(r rune) rune {
	if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
		return ' '
	}
	return r
}

// scrubWord redacts one word, keeping what names the secret.
func scrubWord(w string) string {
	if i := strings.Index(w, "://"); i >= 0 {
		rest := w[i+3:]
		if at := strings.IndexByte(rest, '@'); at > 0 && !strings.ContainsAny(rest[:at], "/?#") {
			w = w[:i+3] + redacted + rest[at:]
		}
	}
	if k, _, ok := strings.Cut(w, "="); ok && secretKey(strings.ToLower(strings.Trim(k, `"'-`))) {
		return k + "=" + redacted
	}
	core := strings.Trim(w, "\"'`()[]{}<>,;.")
	for _, prefix := range tokenPrefixes {
		if strings.HasPrefix(core, prefix) && len(core) >= len(prefix)+12 {
			return strings.Replace(w, core, redacted, 1)
		}
	}
	if keyLike(core) {
		return strings.Replace(w, core, redacted, 1)
	}
	return w
}

var tokenPrefixes = []string{"sk-", "sk_", "pk_", "rk_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
	"xoxb-", "xoxp-", "xoxa-", "xoxs-", "AKIA", "ASIA", "AIza", "npm_", "eyJ", "hf_", "pypi-"}

// secretKey reports whether a variable or field name names a secret.
func secretKey(k string) bool {
	for _, s := range []string{"token", "secret", "password", "passwd", "pwd", "credential", "auth", "apikey", "api_key", "api-key", "private_key", "access_key"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

// secretFlag reports whether a command-line flag takes a secret as its
// next word.
func secretFlag(w string) bool {
	return strings.HasPrefix(w, "--") && !strings.Contains(w, "=") && secretKey(w[2:])
}

// keyLike reports whether a word looks like a key: 32 or more characters
// of letters, digits and +/=_- with both letters and digits.
func keyLike(w string) bool {
	if len(w) < 32 {
		return false
	}
	letters, digits := false, false
	for _, r := range w {
		switch {
		case r >= '0' && r <= '9':
			digits = true
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			letters = true
		case r == '+', r == '/', r == '=', r == '_', r == '-':
		default:
			return false
		}
	}
	return letters && digits
}

// clip cuts s to at most n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
