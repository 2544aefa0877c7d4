// lessons opencode plugin. Installed by `lessons install --platform opencode`
// and removed by `lessons uninstall --platform opencode`; reinstalling
// replaces this file, so do not edit it.
//
// opencode has no command hooks, so this plugin calls the lessons hook with
// the same payloads Claude Code sends (`lessons hook --platform opencode`)
// and delivers the answers the ways opencode's plugin API allows:
//
//   - tool.execute.before: a lesson that blocks the call throws an Error,
//     which is how opencode refuses a tool call; other lesson text waits
//     for the call's result.
//   - tool.execute.after: the hook hears how a shell call ended (its output
//     and metadata.exit), for live capture; the waiting lesson text and the
//     hook's answer are appended to the tool's output, which the model
//     reads next.
//   - chat.message: the user's prompt brings up relevant lessons for the
//     turn.
//   - experimental.chat.system.transform: the session's text (the #lesson
//     reporting protocol and session-start lessons), the turn's lessons, and
//     lesson text whose tool call failed before tool.execute.after are
//     added to the system prompt.
//   - event: session.created and session.compacted start (or restart) a
//     session; a child session (a subagent) gets the protocol. A tool part
//     updated to status "error" is a call that threw (tool.execute.after
//     never runs for it): the hook hears it as PostToolUseFailure, and its
//     answer joins the system prompt.
//
// opencode does not await event hooks: chat.message and the first request
// can come while session.created is still asking lessons. A session starts
// once, and everything that needs its text waits for that start. opencode's
// own side requests, such as the title, get no lesson text.
//
// The hook never breaks the agent: if it cannot run or answers nonsense,
// the call goes on as if this plugin were not there.

import { spawn } from "node:child_process"

const LESSONS = process.env.LESSONS_HOOK_BIN || "__LESSONS_BIN__"
const TIMEOUT_MS = 10000
// MAX_OUTPUT caps the tool output sent to the hook, which reads the
// error's first line from it (the exit status comes in metadata).
const MAX_OUTPUT = 65536

// runHook sends one payload to `lessons hook` and resolves to its answer:
// { decision, reason, context }, empty when there is nothing to do.
function runHook(payload) {
  return new Promise((resolve) => {
    let out = ""
    let done = false
    let timer
    const finish = (answer) => {
      if (done) return
      done = true
      clearTimeout(timer)
      const s = (answer && answer.hookSpecificOutput) || {}
      resolve({ decision: s.permissionDecision, reason: s.permissionDecisionReason, context: s.additionalContext })
    }
    let child
    try {
      child = spawn(LESSONS, ["hook", "--platform", "opencode"], { stdio: ["pipe", "pipe", "ignore"] })
    } catch {
      return finish({})
    }
    timer = setTimeout(() => {
      child.kill()
      finish({})
    }, TIMEOUT_MS)
    child.on("error", () => finish({}))
    child.stdout.on("data", (chunk) => (out += chunk))
    child.on("close", () => {
      try {
        finish(JSON.parse(out))
      } catch {
        finish({})
      }
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(payload))
  })
}

async function LessonsPlugin({ directory, worktree } = {}) {
  const cwd = directory || worktree || process.cwd()
  const sessions = new Map()
  const session = (id) => {
    let s = sessions.get(id)
    if (!s) {
      s = { starting: null, start: "", notes: [], pending: new Map(), turn: "", failed: new Set() }
      sessions.set(id, s)
    }
    return s
  }
  const payload = (id, event, fields) => ({ session_id: id, cwd, hook_event_name: event, ...fields })
  // start asks the session's text and keeps the promise, set before any
  // await, so that whatever runs meanwhile waits for it instead of
  // starting the session a second time.
  const start = (id, event, source) => {
    const s = session(id)
    s.starting = runHook(payload(id, event, { source })).then((answer) => {
      s.start = answer.context || ""
    })
    return s.starting
  }

  return {
    event: async ({ event }) => {
      const props = (event && event.properties) || {}
      if (event.type === "session.created" && props.info && props.info.id) {
        const s = session(props.info.id)
        await (s.starting || start(props.info.id, props.info.parentID ? "SubagentStart" : "SessionStart", "startup"))
      } else if (event.type === "session.compacted" && props.sessionID) {
        await start(props.sessionID, "SessionStart", "compact")
      } else if (event.type === "message.part.updated" && props.part && props.part.type === "tool") {
        const part = props.part
        const state = part.state || {}
        if (state.status !== "error" || !part.sessionID) return
        const s = session(part.sessionID)
        if (s.failed.has(part.callID)) return
        s.failed.add(part.callID)
        const answer = await runHook(
          payload(part.sessionID, "PostToolUseFailure", {
            tool_name: part.tool,
            tool_input: state.input || {},
            tool_use_id: part.callID,
            error: String(state.error || "").slice(0, MAX_OUTPUT),
          }),
        )
        if (answer.context) s.notes.push(answer.context)
      }
    },

    "tool.execute.before": async (input, output) => {
      const answer = await runHook(
        payload(input.sessionID, "PreToolUse", {
          tool_name: input.tool,
          tool_input: (output && output.args) || {},
          tool_use_id: input.callID,
        }),
      )
      if (answer.decision === "deny" || answer.decision === "ask") {
        throw new Error(answer.reason || "A lesson refused this call.")
      }
      if (answer.context) session(input.sessionID).pending.set(input.callID, answer.context)
    },

    "tool.execute.after": async (input, output) => {
      const result = (output && output.output) || ""
      const meta = (output && output.metadata) || {}
      // Live capture reads shell calls only: other tools cost no hook run.
      const answer =
        input.tool !== "bash"
          ? {}
          : await runHook(
              payload(input.sessionID, "PostToolUse", {
                tool_name: input.tool,
                tool_input: input.args || {},
                tool_use_id: input.callID,
                tool_response: { output: String(result).slice(0, MAX_OUTPUT), metadata: { exit: meta.exit } },
              }),
            )
      const s = sessions.get(input.sessionID)
      const texts = [s && s.pending.get(input.callID), answer.context].filter(Boolean)
      if (s) s.pending.delete(input.callID)
      if (texts.length === 0) return
      output.output = [result, ...texts].filter(Boolean).join("\n\n")
    },

    "chat.message": async (input, output) => {
      const s = session(input.sessionID)
      // A session the plugin never saw created is one opencode resumed.
      await (s.starting || start(input.sessionID, "SessionStart", "resume"))
      const prompt = ((output && output.parts) || [])
        .filter((p) => p.type === "text" && !p.synthetic)
        .map((p) => p.text)
        .join("\n")
      const answer = await runHook(payload(input.sessionID, "UserPromptSubmit", { prompt }))
      s.turn = answer.context || ""
    },

    "experimental.chat.system.transform": async (input, output) => {
      const s = input && input.sessionID && sessions.get(input.sessionID)
      if (!s || isSideRequest(output.system)) return
      await s.starting
      for (const text of s.pending.values()) s.notes.push(text)
      s.pending.clear()
      for (const text of [s.start, ...s.notes, s.turn]) if (text) output.system.push(text)
    },
  }
}

// isSideRequest recognises opencode's requests that are not the
// conversation by their system prompt: the title of a session (opencode
// 1.18 gives it its own "title" agent).
function isSideRequest(system) {
  return (system || []).some((text) => typeof text === "string" && text.startsWith("You are a title generator"))
}

// opencode's loaders differ by version: older ones call every export,
// newer ones read a default export's id and server. This one export
// satisfies both.
LessonsPlugin.id = "lessons"
LessonsPlugin.server = LessonsPlugin
export default LessonsPlugin
