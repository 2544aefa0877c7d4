#!/usr/bin/env python3
"""Makes a real opencode.db: runs the opencode CLI against a fake
OpenAI-compatible model on 127.0.0.1 that answers with one failing bash
call (sort -k 0: fields count from 1), then the call that works, then a
#lesson block.

  python3 testdata/opencode-db/opencode-run.py OPENCODE HOME [DELAY]

OPENCODE is the opencode binary (npm install --prefix /tmp/oc opencode-ai;
then /tmp/oc/node_modules/.bin/opencode). opencode runs with HOME (a new
directory) as its home, so nothing of the user's is read or written, and
leaves its database at HOME/.local/share/opencode/opencode.db. The model
waits DELAY seconds (default 0) before each answer, so that a reader has
time to read while opencode writes. opencode may fetch the
@ai-sdk/openai-compatible provider from npm on its first run.
The scanner's TestScanRealOpencodeDatabase runs this when opencode is on
PATH (or LESSONS_OPENCODE names it) and scans while opencode writes.
"""
import http.server
import json
import os
import subprocess
import sys
import threading
import time

FAIL = "sort -k 0 data.txt"
FIX = "sort -k 1 data.txt"
LESSON = ("#lesson\ntool: Bash\ntrigger: sort -k 0\n"
          "mistake: sort numbers key fields from 1; -k 0 is an error\n"
          "fix: run sort -k 1\n#/lesson")


def chunk(delta, finish=None):
    return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1730000000,
            "model": "fake", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def reply(body):
    """The chunks answering a request: the next step of the script."""
    msgs = body.get("messages", [])
    if not body.get("tools"):  # a title or summary request
        return [chunk({"role": "assistant", "content": "sort data"}), chunk({}, "stop")]
    results = [m for m in msgs if m.get("role") == "tool"]
    if len(results) < 2:
        cmd = FAIL if not results else FIX
        call = {"index": 0, "id": "call_%d" % len(results), "type": "function",
                "function": {"name": "bash", "arguments": json.dumps(
                    {"command": cmd, "description": "sort data.txt"})}}
        return [chunk({"role": "assistant", "tool_calls": [call]}), chunk({}, "tool_calls")]
    return [chunk({"role": "assistant", "content": "sorted.\n\n" + LESSON}), chunk({}, "stop")]


class Handler(http.server.BaseHTTPRequestHandler):
    delay = 0.0

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        if not self.path.endswith("/chat/completions"):
            self.send_error(404)
            return
        time.sleep(self.delay)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for c in reply(body):
            self.wfile.write(b"data: " + json.dumps(c).encode() + b"\n\n")
        self.wfile.write(b"data: [DONE]\n\n")

    def log_message(self, fmt, *args):
        sys.stderr.write("fake model: " + fmt % args + "\n")


def main(opencode, home, delay):
    Handler.delay = delay
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    project = os.path.join(home, "project")
    os.makedirs(project)
    with open(os.path.join(project, "data.txt"), "w") as f:
        f.write("b\na\n")
    config = {
        "$schema": "https://opencode.ai/config.json",
        "model": "fake/fake",
        "small_model": "fake/fake",
        "autoupdate": False,
        "share": "disabled",
        "permission": {"bash": "allow", "edit": "allow"},
        "provider": {"fake": {
            "npm": "@ai-sdk/openai-compatible", "name": "fake",
            "options": {"baseURL": "http://127.0.0.1:%d/v1" % srv.server_address[1], "apiKey": "none"},
            "models": {"fake": {"name": "fake"}}}},
    }
    with open(os.path.join(project, "opencode.json"), "w") as f:
        json.dump(config, f)
    env = {"HOME": home, "PATH": os.environ.get("PATH", ""), "OPENCODE_DISABLE_AUTOUPDATE": "1",
           "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
           "XDG_CONFIG_HOME": os.path.join(home, ".config"),
           "XDG_CACHE_HOME": os.path.join(home, ".cache"),
           "XDG_STATE_HOME": os.path.join(home, ".local", "state")}
    for k in ("npm_config_registry", "NPM_CONFIG_REGISTRY", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY"):
        if k in os.environ:
            env[k] = os.environ[k]
    subprocess.run([opencode, "run", "sort data.txt"], cwd=project, env=env,
                   timeout=300, check=True)
    srv.shutdown()


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(sys.argv[1], os.path.abspath(sys.argv[2]), float(sys.argv[3]) if len(sys.argv) == 4 else 0)
