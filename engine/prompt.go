package engine

import (
	"regexp"
	"strings"
	"sync"
)

// userWords is the part of a prompt its user wrote: what relevance scores.
// It leaves out text hooks added that an agent sends back inside the
// prompt: Gemini CLI's <hook_context>…</hook_context> blocks (in -p mode
// it prepends the SessionStart answer to the user's prompt, so the
// lessons protocol's own words, "sed", "macos", "tags", scored as the
// user's), the protocol itself, and lesson text this hook injected, found
// by its first line ("2 lessons for this session") and its closing list
// of slugs. Gemini escapes < and > in hook text; the escapes are read
// back first. Every step is linear in the prompt's length.
func userWords(prompt string) string {
	if !strings.Contains(prompt, "&") && !strings.Contains(prompt, "<") && !strings.Contains(prompt, "## Lesson") {
		return prompt
	}
	prompt = htmlEscapes().Replace(prompt)
	prompt = cutBlocks(prompt, "<hook_context>", "</hook_context>")
	prompt = strings.ReplaceAll(prompt, Protocol, "")
	if !strings.Contains(prompt, "## Lesson") {
		return prompt
	}
	return injectedText().ReplaceAllString(prompt, "")
}

// htmlEscapes reads back the escapes Gemini CLI writes in hook text.
// Built on first use: only prompts with "&" or "<" need it.
var htmlEscapes = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&", "&quot;", `"`, "&#x27;", "'", "&apos;", "'")
})

// cutBlocks removes every open…close span from s; an open tag without its
// close is removed alone, so a prompt that merely mentions it keeps its
// words. Once a close is missing after an open, none follows any later
// open either: the rest loses its open tags in one pass, which keeps the
// cut linear however many unclosed tags a prompt holds.
func cutBlocks(s, open, close string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, open)
		if i < 0 {
			break
		}
		b.WriteString(s[:i])
		rest := s[i+len(open):]
		j := strings.Index(rest, close)
		if j < 0 {
			s = strings.ReplaceAll(rest, open, "")
			break
		}
		s = rest[j+len(close):]
	}
	b.WriteString(s)
	return b.String()
}

// injectedText matches lesson text as injectionText writes it, from its
// first line to the slug list that ends it (an HTML comment, or Gemini
// CLI's bracketed line). Compiled on first use: only prompts that hold
// "## Lesson" get here.
var injectedText = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\d+ lessons? (?:for|relevant to|from) [^\n]*\n(?s:.*?)(?:<!-- lessons injected: [^\n]*?-->|\[lessons injected: [^\n]*?\])`)
})
