// Package agents wires lessons into coding agents: it merges the hook
// entries into each agent's own settings file without disturbing anything
// else in it, installs the opencode plugin, writes a Claude Code plugin,
// checks what is installed, and renders lessons for tools that read
// instruction files instead of running hooks.
//
// Settings files are edited as text: the file is parsed into values that
// remember their byte spans, and every change is a splice at those spans.
// Keys keep their order, comments (Gemini CLI allows them) and formatting
// survive, and uninstalling removes exactly the bytes installing added.
package agents
