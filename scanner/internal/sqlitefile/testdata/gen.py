#!/usr/bin/env python3
"""Generate the SQLite fixtures for package sqlitefile's tests.

To regenerate, from this directory:

    python3 gen.py

It needs only python3 and its built-in sqlite3 module, and rewrites every
*.db, *.db-wal and *.json file here. The tests do not run it (CI may lack
python); the generated files are committed. The data is deterministic (a
seeded random generator), but WAL salts are random, so the -wal files differ
from run to run.

Each fixture NAME.db comes with NAME.json, what SQLite itself returns for it:

    {"tables": [{"name": ..., "columns": [...],
                 "rows": [[rowid, value, ...], ...]}, ...]}

tables in sqlite_schema order; "error": true instead of columns and rows for
a table the reader must refuse (WITHOUT ROWID, generated columns). A value
is null, an integer, a string (text), {"f": "<IEEE 754 bits in hex>"} or
{"b": "<hex>"}.

Fixtures (gen.py checks that SQLite reads a copy of each as its JSON says):
  opencode.db   opencode's schema (session, message, part and indexes), page
                size 1024, about 190 rows of JSON data with unicode, two
                over 5 KB with overflow chains.
  types.db      page size 512: every serial type, INTEGER PRIMARY KEY, REAL
                affinity, ALTER TABLE ADD COLUMN, quoted names, table
                constraints, a three-level b-tree with negative and huge
                rowids and deleted rows, a view/index/trigger, and tables
                the reader must refuse.
  (The WAL fixtures have page size 512 and opencode's tables, no indexes.)
  wal.db        WAL mode, with committed transactions in wal.db-wal not yet
                checkpointed, after a checkpoint and a WAL restart that
                left stale frames (old salts) at the end of the file.
  waltorn.db    WAL mode, nothing checkpointed (the main file is one page);
                waltorn.db-wal ends with a valid frame of a transaction in
                progress and a frame torn in half, which must be ignored.
"""

import json
import os
import random
import shutil
import sqlite3
import struct
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
rnd = random.Random()


def path(name):
    return os.path.join(HERE, name)


def remove(name):
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(path(name) + suffix):
            os.remove(path(name) + suffix)


def enc(v):
    if isinstance(v, float):
        return {"f": struct.pack(">d", v).hex()}
    if isinstance(v, bytes):
        return {"b": v.hex()}
    return v  # None, int or str


def quote(name):
    return '"' + name.replace('"', '""') + '"'


def dump(conn):
    tables = []
    for name, sql in conn.execute(
        "SELECT name, sql FROM sqlite_schema WHERE type = 'table' ORDER BY rowid"
    ):
        if "WITHOUT ROWID" in sql.upper() or "GENERATED" in sql.upper():
            tables.append({"name": name, "error": True})
            continue
        cols = [r[1] for r in conn.execute("PRAGMA table_info(%s)" % quote(name))]
        rows = [
            [enc(v) for v in r]
            for r in conn.execute("SELECT rowid, * FROM %s ORDER BY rowid" % quote(name))
        ]
        tables.append({"name": name, "columns": cols, "rows": rows})
    return {"tables": tables}


def write_json(name, data):
    with open(path(name[: -len(".db")] + ".json"), "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")


def check_copy(name, want):
    """Open the fixture as SQLite would and check it reads as want."""
    with tempfile.TemporaryDirectory() as d:
        for suffix in ("", "-wal"):
            if os.path.exists(path(name) + suffix):
                shutil.copy(path(name) + suffix, os.path.join(d, name + suffix))
        conn = sqlite3.connect(os.path.join(d, name))
        got = dump(conn)
        conn.close()
    assert got == want, name + ": the copy does not read back as expected"


WORDS = (
    "the build failed because go vet found a shadowed err in scanner/walk.go "
    "run tests again with -count=1 fix the import path überprüfen 日本語 テスト "
    "emoji 🚀 ok ✓ naïve café Ωmega λ → ← ⌘ path/to/file.go:123:45"
).split()


def text(n):
    """About n characters of words, some of them non-ASCII."""
    out = []
    size = 0
    while size < n:
        w = rnd.choice(WORDS)
        out.append(w)
        size += len(w) + 1
    return " ".join(out)


def ident(prefix):
    return prefix + "_" + "".join(rnd.choice("0123456789abcdefghjkmnpqrstvwxyzABCDEFGHJKMNPQRSTVWXYZ") for _ in range(12))


OPENCODE_SCHEMA = """
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
"""
OPENCODE_INDEXES = """
CREATE INDEX message_session_idx ON message (session_id);
CREATE INDEX part_message_idx ON part (message_id);
"""


def fill_opencode(conn, sessions, messages_per_session, big_parts, big_size=(5000, 5500)):
    """Insert opencode sessions; big_parts of the parts get big_size bytes of data."""
    t = 1718000000000
    parts = []
    for s in range(sessions):
        sid = ident("ses")
        parent = rnd.choice([None, None, ident("ses")])
        conn.execute(
            "INSERT INTO session VALUES (?,?,?,?,?,?,?,?)",
            (sid, ident("prj"), parent, "/home/dev/projet-" + str(s), text(20), "1.2.%d" % s, t, t + 1000),
        )
        for m in range(messages_per_session):
            t += rnd.randint(1, 5000)
            mid = ident("msg")
            role = "user" if m % 2 == 0 else "assistant"
            data = {"role": role, "time": {"created": t}, "title": text(rnd.randint(1, 12))}
            conn.execute(
                "INSERT INTO message VALUES (?,?,?,?,?)",
                (mid, sid, t, t + 7, json.dumps(data, ensure_ascii=False)),
            )
            for p in range(rnd.randint(1, 2)):
                parts.append((ident("prt"), mid, sid, t + p, t + p + 3))
    big = set(rnd.sample(range(len(parts)), big_parts))
    for i, (pid, mid, sid, tc, tu) in enumerate(parts):
        if i in big:
            data = {"type": "tool", "tool": "bash", "state": {"status": "completed", "input": {"command": "go test ./..."}, "output": text(rnd.randint(*big_size))}}
        else:
            data = {"type": "text", "text": text(rnd.randint(1, 20))}
        conn.execute("INSERT INTO part VALUES (?,?,?,?,?,?)", (pid, mid, sid, tc, tu, json.dumps(data, ensure_ascii=False)))


def gen_opencode():
    rnd.seed('gen_opencode')  # each fixture independent of the others
    name = "opencode.db"
    remove(name)
    conn = sqlite3.connect(path(name))
    conn.execute("PRAGMA page_size = 1024")
    conn.executescript(OPENCODE_SCHEMA + OPENCODE_INDEXES)
    fill_opencode(conn, sessions=6, messages_per_session=12, big_parts=2)
    conn.commit()
    want = dump(conn)
    conn.close()
    write_json(name, want)
    check_copy(name, want)


TYPES_SCHEMA = '''
CREATE TABLE nums (id INTEGER PRIMARY KEY, i INT, r REAL, f DOUBLE PRECISION, t TEXT, b BLOB);
CREATE TABLE "weird ""name""" (
    -- a comment, with a comma
    `back``quoted` VARCHAR(255) NOT NULL DEFAULT 'a, b',
    [bracketed] DECIMAL(10, 2) CHECK (CAST([bracketed] AS TEXT) <> 'x, y'),
    "double ""quoted""" TEXT COLLATE NOCASE, /* another, comment */
    k INTEGER,
    plain,
    CONSTRAINT pk PRIMARY KEY (k),
    UNIQUE ("double ""quoted"""),
    CHECK (plain IS NOT 'z'),
    FOREIGN KEY (plain) REFERENCES nums (id)
);
CREATE TABLE deep (x TEXT);
CREATE TABLE empty (a TEXT, b INT);
CREATE TABLE desc_pk (id INTEGER PRIMARY KEY DESC, v TEXT);
CREATE TABLE wr (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
CREATE TABLE gen (a INT, b INT GENERATED ALWAYS AS (a * 2) VIRTUAL);
CREATE INDEX nums_t ON nums (t);
CREATE VIEW v AS SELECT * FROM nums;
CREATE TRIGGER trg AFTER INSERT ON empty BEGIN SELECT 1; END;
'''


def depth(conn, table):
    """The number of levels of a table's b-tree (by the dbstat table)."""
    return conn.execute(
        "SELECT max(length(path) - length(replace(path, '/', ''))) FROM dbstat "
        "WHERE name = ? AND path NOT LIKE '%+%'", (table,)
    ).fetchone()[0] or 0


def gen_types():
    rnd.seed('gen_types')  # each fixture independent of the others
    name = "types.db"
    remove(name)
    conn = sqlite3.connect(path(name))
    conn.execute("PRAGMA page_size = 512")
    conn.executescript(TYPES_SCHEMA)
    ints = [0, 1, -1, 127, -128, 128, -129, 32767, -32768, 32768, -32769,
            2**23 - 1, -2**23, 2**23, -2**23 - 1, 2**31 - 1, -2**31, 2**31, -2**31 - 1,
            2**47 - 1, -2**47, 2**47, -2**47 - 1, 2**63 - 1, -2**63]
    floats = [0.0, -0.0, 1.5, -2.25, 3.0, 1e300, -1e-300, 5e-324, float("inf"), float("-inf"), 0.1]
    for i, v in enumerate(ints):
        f = floats[i % len(floats)]
        conn.execute(
            "INSERT INTO nums (i, r, f, t, b) VALUES (?,?,?,?,?)",
            (v, float(i) if i % 3 else f, f, text(i) if i % 4 else "", bytes(range(i)) if i % 5 else None),
        )
    conn.execute("INSERT INTO nums (id, i, r) VALUES (1000, NULL, 7)")  # REAL stored as an integer
    conn.execute("ALTER TABLE nums ADD COLUMN extra TEXT")
    conn.execute("INSERT INTO nums (i, extra) VALUES (42, 'added later')")
    conn.execute("INSERT INTO nums (i, b, extra) VALUES (43, x'', NULL)")
    conn.execute("INSERT INTO nums (id, t) VALUES (-5, 'negative rowid')")

    q = quote('weird "name"')
    conn.execute("INSERT INTO %s VALUES ('a', 1.25, 'Ünïcode', 7, NULL)" % q)
    conn.execute("INSERT INTO %s VALUES ('b', '12.50', 'x', NULL, x'00ff')" % q)
    conn.execute("INSERT INTO %s VALUES ('c', NULL, NULL, -3, 3.5)" % q)

    # Rows with random rowids, mostly 9-byte varints (few keys fit in an
    # interior page), until the b-tree has three levels, and a few more.
    rowids = []

    def insert():
        r = rnd.choice([rnd.randint(-2**63, -1), rnd.randint(2**56, 2**63 - 1), rnd.randint(-1000, 2**40)])
        if r not in rowids:
            rowids.append(r)
            conn.execute("INSERT INTO deep (rowid, x) VALUES (?,?)", (r, text(rnd.randint(100, 150))))

    while depth(conn, "deep") < 3:
        insert()
    for _ in range(20):
        insert()
    # Delete every fourth row: leaves stay over a third full, so SQLite
    # does not merge them and the tree keeps its depth.
    conn.executemany("DELETE FROM deep WHERE rowid = ?", [(r,) for r in sorted(rowids)[::4]])
    assert depth(conn, "deep") == 3

    conn.execute("INSERT INTO desc_pk VALUES (5, 'five'), (-2, 'minus two')")
    conn.execute("INSERT INTO wr VALUES ('k', 'v')")
    conn.execute("INSERT INTO gen (a) VALUES (1)")
    conn.commit()
    want = dump(conn)
    conn.close()
    write_json(name, want)
    check_copy(name, want)


WAL_PAGE = 512


def wal_frames(data):
    """The frame headers of a WAL: (page, db size if commit, salt matches)."""
    salt = data[16:24]
    size = 24 + WAL_PAGE
    return [
        (*struct.unpack(">II", data[o:o + 8]), data[o + 8:o + 16] == salt)
        for o in range(32, len(data) - size + 1, size)
    ]


def wal_conn(name):
    remove(name)
    conn = sqlite3.connect(path(name), isolation_level=None)
    conn.execute("PRAGMA page_size = %d" % WAL_PAGE)
    assert conn.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal"
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.executescript(OPENCODE_SCHEMA)
    return conn


def gen_wal():
    rnd.seed('gen_wal')  # each fixture independent of the others
    name = "wal.db"
    conn = wal_conn(name)
    conn.execute("BEGIN")
    fill_opencode(conn, sessions=2, messages_per_session=6, big_parts=1, big_size=(1500, 2000))
    conn.execute("COMMIT")
    # Copy everything into the main file; the next write restarts the WAL
    # from its start with new salts, leaving the old frames past the new.
    busy, log, done = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert busy == 0 and log == done, (busy, log, done)
    conn.execute("BEGIN")
    fill_opencode(conn, sessions=1, messages_per_session=2, big_parts=1, big_size=(1000, 1200))
    conn.execute("COMMIT")
    conn.execute("UPDATE session SET title = 'renamed ✓' WHERE rowid = 2")
    conn.execute("DELETE FROM part WHERE rowid IN (2, 3, 10)")
    conn.execute("UPDATE message SET data = ? WHERE rowid = 5", (json.dumps({"role": "user", "text": text(600)}, ensure_ascii=False),))
    conn.execute("INSERT INTO message VALUES ('msg_last', 'ses_x', 1, 2, '{}')")
    want = dump(conn)
    shutil.copy(path(name), path(name) + ".tmp")
    shutil.copy(path(name) + "-wal", path(name) + "-wal.tmp")
    with open(path(name) + "-wal", "rb") as f:
        frames = wal_frames(f.read())
    assert not frames[-1][2], "no stale frames after the restarted WAL"
    conn.close()  # checkpoints and deletes the WAL: put the copies back
    os.replace(path(name) + ".tmp", path(name))
    os.replace(path(name) + "-wal.tmp", path(name) + "-wal")
    write_json(name, want)
    check_copy(name, want)


def wal_checksum(data, s0, s1, big_endian):
    """Add data to a WAL checksum, as SQLite does."""
    words = struct.unpack((">" if big_endian else "<") + "%dI" % (len(data) // 4), data)
    for x0, x1 in zip(words[::2], words[1::2]):
        s0 = (s0 + x0 + s1) & 0xFFFFFFFF
        s1 = (s1 + x1 + s0) & 0xFFFFFFFF
    return s0, s1


def gen_waltorn():
    rnd.seed('gen_waltorn')  # each fixture independent of the others
    name = "waltorn.db"
    conn = wal_conn(name)
    conn.execute("BEGIN")
    fill_opencode(conn, sessions=1, messages_per_session=6, big_parts=1, big_size=(1500, 2000))
    conn.execute("COMMIT")
    conn.execute("UPDATE session SET title = 'committed' WHERE rowid = 1")
    want = dump(conn)
    shutil.copy(path(name), path(name) + ".tmp")
    with open(path(name) + "-wal", "rb") as f:
        wal = f.read()
    conn.close()
    os.replace(path(name) + ".tmp", path(name))

    # Append a frame of a transaction in progress: valid (salts, checksum)
    # but followed by no commit frame. It changes the title, so a reader
    # that took it would see XXXXXXXXX. Then half a frame, torn.
    frames = wal_frames(wal)
    assert frames[-1][1] != 0, "the WAL does not end with a commit"
    size = 24 + WAL_PAGE
    at = max(32 + i * size for i in range(len(frames)) if b"committed" in wal[32 + i * size:32 + (i + 1) * size])
    page = wal[at + 24:at + size].replace(b"committed", b"XXXXXXXXX")
    head = struct.pack(">II", frames[(at - 32) // size][0], 0) + wal[16:24]
    s0, s1 = struct.unpack(">II", wal[-size + 16:-size + 24])  # the last frame's checksum
    s0, s1 = wal_checksum(head[:8] + page, s0, s1, wal[3] & 1)
    wal += head + struct.pack(">II", s0, s1) + page
    wal += head + page[: WAL_PAGE // 2]
    with open(path(name) + "-wal", "wb") as f:
        f.write(wal)
    write_json(name, want)
    check_copy(name, want)


if __name__ == "__main__":
    gen_opencode()
    gen_types()
    gen_wal()
    gen_waltorn()
    for f in sorted(os.listdir(HERE)):
        if not f.endswith(".py"):
            print("%8d %s" % (os.path.getsize(path(f)), f))
