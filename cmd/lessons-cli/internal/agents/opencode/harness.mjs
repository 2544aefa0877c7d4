// harness.mjs drives the lessons opencode plugin the way opencode does:
// it imports the module, finds its plugin function as opencode's loaders
// do (old ones call every export; new ones read the default export's id
// and server), and calls the hooks with the arguments opencode passes.
// The hook shapes follow @opencode-ai/plugin's Hooks type
// (packages/plugin/src/index.ts in anomalyco/opencode) and the plugin
// docs (https://opencode.ai/docs/plugins): tool.execute.before(input
// {tool, sessionID, callID}, output {args}), tool.execute.after(input,
// output {title, output, metadata}), chat.message(input {sessionID},
// output {message, parts}), experimental.chat.system.transform(input
// {sessionID}, output {system}), and event({event}) with
// session.created {info}, session.compacted {sessionID} and
// message.part.updated {part} (a tool part with state {status, input,
// error} when a call threw).
//
// Usage: node harness.mjs fake PLUGIN   (a fake lessons binary it writes)
//        node harness.mjs real PLUGIN   (LESSONS_HOOK_BIN is the real one;
//                                        the project has a blocking lesson)
// It exits 0 when every check passes and prints what failed otherwise.

import assert from "node:assert/strict"
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

const [mode, pluginPath] = process.argv.slice(2)
const project = process.env.HARNESS_PROJECT || process.cwd()

// fakeLessons is a lessons binary that logs each payload and answers by
// its content, in the answer shape of `lessons hook`.
const fakeLessons = `#!/usr/bin/env node
const fs = require("node:fs")
let input = ""
process.stdin.on("data", (d) => (input += d))
process.stdin.on("end", () => {
  fs.appendFileSync(process.env.FAKE_LOG, JSON.stringify({ argv: process.argv.slice(2), payload: JSON.parse(input) }) + "\\n")
  const p = JSON.parse(input)
  const ctx = (event, text) => ({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })
  let answer = {}
  if (p.hook_event_name === "PreToolUse" && /--force\\b/.test(p.tool_input.command || "")) {
    answer = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "use --force-with-lease" } }
  } else if (p.hook_event_name === "PreToolUse" && /pytest/.test(p.tool_input.command || "")) {
    answer = ctx("PreToolUse", "LESSON: pytest hangs on a TTY")
  } else if (p.hook_event_name === "SessionStart") {
    answer = ctx("SessionStart", "PROTOCOL " + p.source)
  } else if (p.hook_event_name === "SubagentStart") {
    answer = ctx("SubagentStart", "PROTOCOL for a subagent")
  } else if (p.hook_event_name === "PostToolUse" && p.tool_response.metadata.exit === 0 && /--ci/.test(p.tool_input.command || "")) {
    answer = ctx("PostToolUse", "NUDGE: write a #lesson block")
  } else if (p.hook_event_name === "PostToolUseFailure" && /feedback/.test(p.error)) {
    answer = ctx("PostToolUseFailure", "NUDGE: the user said why")
  } else if (p.hook_event_name === "UserPromptSubmit" && /docker/.test(p.prompt)) {
    answer = ctx("UserPromptSubmit", "LESSON: add a .dockerignore")
  }
  process.stdout.write(JSON.stringify(answer) + "\\n")
})
`

// load finds the plugin function the way opencode's loaders do.
async function load(path, query = "") {
  const mod = await import(pathToFileURL(path).href + query)
  const def = mod.default
  assert.equal(typeof def, "function", "the default export is the plugin function (old loaders call every export)")
  assert.equal(Object.keys(mod).length, 1, "one export only: old loaders call every export as a plugin")
  assert.equal(typeof def.id, "string", "new loaders need the default export's id")
  assert.equal(def.server, def, "new loaders call the default export's server")
  return def.server
}

async function rejects(promise) {
  try {
    await promise
  } catch (err) {
    return err
  }
  return null
}

async function fake() {
  const dir = mkdtempSync(join(tmpdir(), "lessons-opencode-"))
  const bin = join(dir, "lessons")
  writeFileSync(bin, fakeLessons)
  chmodSync(bin, 0o755)
  process.env.FAKE_LOG = join(dir, "log.jsonl")
  process.env.LESSONS_HOOK_BIN = bin
  const plugin = await load(pluginPath)
  const hooks = await plugin({ directory: project, worktree: project, project: {}, client: {}, $: () => {} })
  const log = () => readFileSync(process.env.FAKE_LOG, "utf8").trim().split("\n").map((l) => JSON.parse(l))

  await hooks.event({ event: { type: "session.created", properties: { info: { id: "ses_1", title: "t" } } } })
  let last = log().at(-1)
  assert.deepEqual(last.argv, ["hook", "--platform", "opencode"])
  assert.deepEqual(last.payload, { session_id: "ses_1", cwd: project, hook_event_name: "SessionStart", source: "startup" })

  await hooks.event({ event: { type: "session.created", properties: { info: { id: "ses_2", parentID: "ses_1" } } } })
  assert.equal(log().at(-1).payload.hook_event_name, "SubagentStart")

  // A blocking lesson throws, which is how opencode refuses the call.
  const err = await rejects(
    hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_1", callID: "c1" }, { args: { command: "git push --force" } }),
  )
  assert.ok(err instanceof Error, "a denied call throws an Error")
  assert.equal(err.message, "use --force-with-lease")
  last = log().at(-1).payload
  assert.deepEqual(last, {
    session_id: "ses_1", cwd: project, hook_event_name: "PreToolUse",
    tool_name: "bash", tool_input: { command: "git push --force" }, tool_use_id: "c1",
  })

  // Advisory text waits for the call's output.
  const args = { command: "pytest -x", description: "run tests" }
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_1", callID: "c2" }, { args })
  assert.deepEqual(args, { command: "pytest -x", description: "run tests" }, "arguments are left as they were")
  const result = { title: "pytest -x", output: "1 passed", metadata: { exit: 0, output: "1 passed" } }
  await hooks["tool.execute.after"]({ tool: "bash", sessionID: "ses_1", callID: "c2", args }, result)
  assert.equal(result.output, "1 passed\n\nLESSON: pytest hangs on a TTY")
  // The hook hears how every call ended, for live capture.
  assert.deepEqual(log().at(-1).payload, {
    session_id: "ses_1", cwd: project, hook_event_name: "PostToolUse", tool_name: "bash",
    tool_input: args, tool_use_id: "c2", tool_response: { output: "1 passed", metadata: { exit: 0 } },
  })
  const failed = { title: "npm test", output: "jest: not found", metadata: { exit: 127 } }
  await hooks["tool.execute.after"]({ tool: "bash", sessionID: "ses_1", callID: "c4", args: { command: "npm test" } }, failed)
  assert.equal(failed.output, "jest: not found", "a failure with nothing to say leaves the output")
  assert.equal(log().at(-1).payload.tool_response.metadata.exit, 127)
  const fixed = { title: "npm test", output: "ok", metadata: { exit: 0 } }
  await hooks["tool.execute.after"]({ tool: "bash", sessionID: "ses_1", callID: "c5", args: { command: "npm test -- --ci" } }, fixed)
  assert.equal(fixed.output, "ok\n\nNUDGE: write a #lesson block", "the hook's answer is what the model reads")

  // Other tools' results cost no hook run.
  const before = log().length
  const read = { title: "a.py", output: "print(1)", metadata: {} }
  await hooks["tool.execute.after"]({ tool: "read", sessionID: "ses_1", callID: "c8", args: { filePath: "a.py" } }, read)
  assert.equal(log().length, before)
  assert.equal(read.output, "print(1)")

  // A call that threw reaches only the event hook, once per call however
  // often its part is updated.
  const thrown = {
    type: "message.part.updated",
    properties: { part: { type: "tool", tool: "edit", callID: "c6", sessionID: "ses_1",
      state: { status: "error", input: { filePath: "/x/gen.go" }, error: "The user rejected permission to use this specific tool call with the following feedback: generated, do not edit" } } },
  }
  await hooks.event({ event: thrown })
  await hooks.event({ event: thrown })
  const failures = log().filter((l) => l.payload.hook_event_name === "PostToolUseFailure")
  assert.equal(failures.length, 1)
  assert.deepEqual(failures[0].payload, {
    session_id: "ses_1", cwd: project, hook_event_name: "PostToolUseFailure", tool_name: "edit",
    tool_input: { filePath: "/x/gen.go" }, tool_use_id: "c6", error: thrown.properties.part.state.error,
  })
  await hooks.event({ event: { type: "message.part.updated", properties: { part: { type: "tool", callID: "c7", sessionID: "ses_1", state: { status: "running" } } } } })
  assert.equal(log().filter((l) => l.payload.hook_event_name === "PostToolUseFailure").length, 1, "only errors are sent")

  // A call that failed never reaches tool.execute.after: its lesson goes
  // to the system prompt instead.
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_1", callID: "c3" }, { args: { command: "pytest" } })

  // The prompt brings up lessons for the turn.
  const message = { message: { id: "m1", role: "user" }, parts: [{ type: "text", text: "shrink the docker image" }] }
  await hooks["chat.message"]({ sessionID: "ses_1" }, message)
  assert.deepEqual(log().at(-1).payload, {
    session_id: "ses_1", cwd: project, hook_event_name: "UserPromptSubmit", prompt: "shrink the docker image",
  })
  assert.equal(message.parts.length, 1, "the user's message is left as it was")

  const system = { system: ["You are opencode."] }
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_1", model: {} }, system)
  assert.deepEqual(system.system, [
    "You are opencode.", "PROTOCOL startup", "NUDGE: the user said why", "LESSON: pytest hangs on a TTY", "LESSON: add a .dockerignore",
  ])

  // Compaction restarts the session's text; other sessions see nothing.
  await hooks.event({ event: { type: "session.compacted", properties: { sessionID: "ses_1" } } })
  const again = { system: [] }
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_1", model: {} }, again)
  assert.equal(again.system[0], "PROTOCOL compact")
  const other = { system: [] }
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_9", model: {} }, other)
  assert.deepEqual(other.system, [])

  // opencode's title request gets no lesson text.
  const title = { system: ["You are a title generator. You output ONLY a thread title."] }
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_1", model: {} }, title)
  assert.equal(title.system.length, 1, "the title request got lesson text")

  // opencode does not await event hooks: the first message can come while
  // session.created is still asking. The session starts once, and its
  // text is there for the first request.
  const created = hooks.event({ event: { type: "session.created", properties: { info: { id: "ses_r" } } } })
  await hooks["chat.message"]({ sessionID: "ses_r" }, { message: {}, parts: [{ type: "text", text: "hi" }] })
  const first = { system: [] }
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_r", model: {} }, first)
  await created
  const starts = log().filter((l) => l.payload.session_id === "ses_r" && l.payload.hook_event_name === "SessionStart")
  assert.deepEqual(starts.map((l) => l.payload.source), ["startup"], "one SessionStart, the startup's")
  assert.deepEqual(first.system, ["PROTOCOL startup"])

  // A session the plugin never saw start (opencode resumed it) starts on
  // its first message.
  await hooks["chat.message"]({ sessionID: "ses_3" }, { message: {}, parts: [{ type: "text", text: "hi" }] })
  assert.equal(log().at(-2).payload.source, "resume")

  // A missing or broken binary never breaks the agent.
  process.env.LESSONS_HOOK_BIN = join(dir, "missing")
  const broken = await (await load(pluginPath, "?missing"))({ directory: project })
  await broken["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args: { command: "git push --force" } })
  await broken.event({ event: { type: "session.created", properties: { info: { id: "s" } } } })
}

async function real() {
  const plugin = await load(pluginPath)
  const hooks = await plugin({ directory: project, worktree: project })
  await hooks.event({ event: { type: "session.created", properties: { info: { id: "ses_real" } } } })
  const system = { system: [] }
  await hooks["experimental.chat.system.transform"]({ sessionID: "ses_real" }, system)
  assert.match(system.system.join("\n"), /#lesson/, "the session starts with the #lesson protocol")
  const err = await rejects(
    hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_real", callID: "c1" }, { args: { command: "git push --force origin main" } }),
  )
  assert.ok(err instanceof Error, "the blocking lesson refuses the call")
  assert.match(err.message, /force-with-lease/)
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_real", callID: "c2" }, { args: { command: "ls" } })

  // Live capture: a failed call, then a changed one that works, brings a
  // request for a #lesson block, appended to the output the model reads.
  const failed = { title: "make check", output: "make: *** No rule to make target 'check'.  Stop.", metadata: { exit: 2 } }
  await hooks["tool.execute.after"]({ tool: "bash", sessionID: "ses_real", callID: "c3", args: { command: "make check" } }, failed)
  assert.equal(failed.output, "make: *** No rule to make target 'check'.  Stop.")
  const fixed = { title: "make test", output: "ok", metadata: { exit: 0 } }
  await hooks["tool.execute.after"]({ tool: "bash", sessionID: "ses_real", callID: "c4", args: { command: "make -k check" } }, fixed)
  assert.match(fixed.output, /^ok\n\nLive capture: `make check` failed earlier in this session \(make: \*\*\* No rule/)
  assert.match(fixed.output, /write a #lesson block now/)
}

try {
  await (mode === "real" ? real() : fake())
  console.log("ok")
} catch (err) {
  console.error(err)
  process.exit(1)
}
