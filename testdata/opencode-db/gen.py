#!/usr/bin/env python3
"""Writes the opencode.db fixtures the scanner tests read: opencode 1.2+'s
SQLite schema (session, message and part rows whose data column holds the
JSON the older storage tree kept in files), with the indexes opencode
1.18.33 makes; opencode-run.py makes a database with opencode itself.

  v1/opencode.db            ses_a: a failed command, a retry that worked,
                            and a #lesson tag
  v2/opencode.db{,-wal}     v1 plus ses_b, committed to the write-ahead
                            log but not checkpointed: a rejected edit
  v3/opencode.db            v2 checkpointed, plus a new message in ses_a
                            (pip install fails, --user works) and a new
                            session ses_c (npm install rejected: use pnpm)
  v4/opencode.db            v3 with ses_c deleted and ses_d added: its rows
                            reuse ses_c's rowids (git push --force rejected)

Regenerate with: python3 testdata/opencode-db/gen.py

For benchmarks, `gen.py --big PATH N` writes a large database instead: N
sessions of 9 messages, 17 parts and ~40 KB each, every tenth with the
failure and retry of ses_a (N=3000 gives 131 MB). Time a scan of it with
  /usr/bin/time -v lessons-cli scan --path PATH --full --quiet
"""
import json
import os
import shutil
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = """
CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, directory TEXT NOT NULL,
  title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,
  time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,
  time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE INDEX part_session_idx ON part (session_id);
"""
T0 = 1730000000000  # 2024-10-27, long idle


def add_session(db, sid, directory, messages):
    """messages: [(role, [part data dicts])]; ids and times follow order."""
    t = T0 + (0 if sid == "ses_a" else 3600_000)
    db.execute("INSERT INTO session VALUES (?,?,?,?,?,?,?,?)",
               (sid, "prj_1", None, directory, "fixture " + sid, "1.2.3", t, t + 60_000))
    add_messages(db, sid, t, 0, messages)


def add_messages(db, sid, t, first, messages):
    """Adds messages numbered from first to session sid, created from t."""
    for i, (role, parts) in enumerate(messages, first):
        mid = "msg_%s_%d" % (sid, i)
        info = {"role": role, "time": {"created": t + i * 1000}, "sessionID": sid}
        db.execute("INSERT INTO message VALUES (?,?,?,?,?)", (mid, sid, t + i * 1000, t + i * 1000, json.dumps(info)))
        for j, p in enumerate(parts):
            pid = "prt_%s_%d_%d" % (sid, i, j)
            db.execute("INSERT INTO part VALUES (?,?,?,?,?,?)",
                       (pid, mid, sid, t + i * 1000 + j, t + i * 1000 + j, json.dumps(p)))


SES_A = [
    ("user", [{"type": "text", "text": "run the tests"}]),
    ("assistant", [
        {"type": "tool", "callID": "c1", "tool": "bash", "state": {
            "status": "completed", "input": {"command": "python manage.py test"},
            "output": "python: command not found", "metadata": {"exit": 127}}},
        {"type": "tool", "callID": "c2", "tool": "bash", "state": {
            "status": "completed", "input": {"command": "python3 manage.py test"},
            "output": "Ran 12 tests\nOK", "metadata": {"exit": 0}}},
        {"type": "text", "text": "#lesson\ntool: Bash\ntrigger: python manage.py\n"
                                 "mistake: this machine has no python binary, only python3\n"
                                 "fix: run python3 manage.py test\n#/lesson"},
    ]),
]
SES_B = [
    ("user", [{"type": "text", "text": "point the app at the staging database"}]),
    ("assistant", [
        {"type": "tool", "callID": "e1", "tool": "edit", "state": {
            "status": "error", "input": {"filePath": "/home/u/other/config.yaml"},
            "error": "The user rejected permission to use this specific tool call with the following "
                     "feedback: edit config.local.yaml, never the shared config.yaml"}},
    ]),
]
SES_A_MORE = [
    ("user", [{"type": "text", "text": "now install requests"}]),
    ("assistant", [
        {"type": "tool", "callID": "c3", "tool": "bash", "state": {
            "status": "completed", "input": {"command": "pip install requests"},
            "output": "error: externally-managed-environment", "metadata": {"exit": 1}}},
        {"type": "tool", "callID": "c4", "tool": "bash", "state": {
            "status": "completed", "input": {"command": "pip install --user requests"},
            "output": "Successfully installed requests", "metadata": {"exit": 0}}},
    ]),
]


def rejected(call, command, reason):
    return [
        ("user", [{"type": "text", "text": "set the project up"}]),
        ("assistant", [{"type": "tool", "callID": call, "tool": "bash", "state": {
            "status": "error", "input": {"command": command},
            "error": "The user rejected permission to use this specific tool call with the "
                     "following feedback: " + reason}}]),
    ]


def main():
    for d in ("v1", "v2"):
        shutil.rmtree(os.path.join(HERE, d), ignore_errors=True)
        os.makedirs(os.path.join(HERE, d))
    v1 = os.path.join(HERE, "v1", "opencode.db")
    db = sqlite3.connect(v1)
    db.execute("PRAGMA page_size=1024")
    db.executescript(SCHEMA)
    add_session(db, "ses_a", "/home/u/dbproj", SES_A)
    db.commit()
    db.close()

    v2 = os.path.join(HERE, "v2", "opencode.db")
    shutil.copy(v1, v2)
    db = sqlite3.connect(v2)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    add_session(db, "ses_b", "/home/u/other", SES_B)
    db.commit()
    # Copy while the connection is open: the commit stays in the WAL.
    tmp = v2 + ".snapshot"
    shutil.copy(v2, tmp)
    shutil.copy(v2 + "-wal", tmp + "-wal")
    db.close()  # checkpoints and removes the -wal
    os.replace(tmp, v2)
    os.replace(tmp + "-wal", v2 + "-wal")
    for p in (v2 + "-shm", tmp + "-shm"):
        if os.path.exists(p):
            os.remove(p)

    for d in ("v3", "v4"):
        shutil.rmtree(os.path.join(HERE, d), ignore_errors=True)
        os.makedirs(os.path.join(HERE, d))
    v3 = os.path.join(HERE, "v3", "opencode.db")
    shutil.copy(v2, v3)
    shutil.copy(v2 + "-wal", v3 + "-wal")
    db = sqlite3.connect(v3)
    db.execute("PRAGMA journal_mode=DELETE")  # checkpoints the WAL away
    add_messages(db, "ses_a", T0 + 7200_000, 2, SES_A_MORE)
    db.execute("UPDATE session SET time_updated = ? WHERE id = 'ses_a'", (T0 + 7300_000,))
    add_session(db, "ses_c", "/home/u/third", rejected("n1", "npm install", "use pnpm, this repo has a pnpm-lock.yaml"))
    db.commit()
    db.close()

    v4 = os.path.join(HERE, "v4", "opencode.db")
    shutil.copy(v3, v4)
    db = sqlite3.connect(v4)
    for table, col in (("part", "session_id"), ("message", "session_id"), ("session", "id")):
        db.execute("DELETE FROM %s WHERE %s = 'ses_c'" % (table, col))
    add_session(db, "ses_d", "/home/u/fourth", rejected("g1", "git push --force origin main", "never force-push main"))
    db.commit()
    db.close()


def big(path, n):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(SCHEMA)
    filler = "x" * 2000
    for s in range(n):
        msgs = [("user", [{"type": "text", "text": "run the tests %d %s" % (s, filler)}])]
        for k in range(8):
            msgs.append(("assistant", [
                {"type": "tool", "callID": "c%d" % k, "tool": "bash", "state": {
                    "status": "completed", "input": {"command": "ls -la src/%d" % k},
                    "output": filler * 2, "metadata": {"exit": 0}}},
                {"type": "text", "text": "done %d" % k}]))
        if s % 10 == 0:
            msgs.append(SES_A[1])
        add_session(db, "ses_%05d" % s, "/home/u/p%d" % (s % 7), msgs)
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--big":
        big(sys.argv[2], int(sys.argv[3]))
    else:
        main()
