package scanner

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// copyDB copies the fixture database version v (and its write-ahead log,
// when it has one) to dir/opencode.db.
func copyDB(t *testing.T, v, dir string) {
	t.Helper()
	for _, name := range []string{"opencode.db", "opencode.db-wal"} {
		b, err := os.ReadFile(filepath.Join("../testdata/opencode-db", v, name))
		if os.IsNotExist(err) {
			os.Remove(filepath.Join(dir, name))
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestScanOpencodeDatabase(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	copyDB(t, "v1", dir)
	rep := scan(t, state, Options{Paths: []string{dir}})
	if fc := rep.Formats[FormatOpencodeDB]; fc == nil || fc.Files != 1 || fc.Lines != 2 {
		t.Fatalf("first scan read %+v, want 1 session of 2 messages", fc)
	}
	cs := candidates(t, state)
	// the session's retry and its #lesson tag are one candidate, in the
	// tag's words, with the trigger the retry narrowed
	retry := find(cs, KindTag, "python manage.py")
	if retry == nil || !commandFires(retry.Triggers, "python manage.py test") || commandFires(retry.Triggers, "python3 manage.py test") {
		t.Fatalf("no candidate telling python from python3: %+v", retry)
	}
	if retry.Occurrences != 1 || find(cs, KindRetry, "python") != nil {
		t.Errorf("the reported retry counts %d times, or is a candidate of its own", retry.Occurrences)
	}
	if p := retry.Provenance[0]; p.SessionID != "ses_a" || p.Project != "/home/u/dbproj" || p.Agent != "opencode" || p.Line != 2 {
		t.Errorf("retry provenance = %+v", p)
	}
	if tag := find(cs, KindTag, "python manage.py"); tag == nil {
		t.Error("the #lesson tag in the database was not found")
	}

	if again := scan(t, state, Options{Paths: []string{dir}}); again.Unchanged != 1 || again.Findings != 0 {
		t.Errorf("rescan of an unchanged database: %+v", again)
	}

	// A new session committed to the write-ahead log only: it is read,
	// and the unchanged session is not read again.
	copyDB(t, "v2", dir)
	rep = scan(t, state, Options{Paths: []string{dir}})
	if fc := rep.Formats[FormatOpencodeDB]; fc == nil || fc.Files != 1 || fc.Lines != 2 {
		t.Errorf("scan after a WAL commit read %+v, want only the new session", fc)
	}
	rej := find(candidates(t, state), KindRejection, "config.yaml")
	if rej == nil || rej.Provenance[0].SessionID != "ses_b" || rej.Solution != "edit config.local.yaml, never the shared config.yaml" {
		t.Errorf("rejection from the WAL session = %+v", rej)
	}
	for _, c := range candidates(t, state) {
		if c.Occurrences != 1 {
			t.Errorf("%s counted %d times", c.ID, c.Occurrences)
		}
	}
	agents := map[string]AgentReport{}
	for _, a := range rep.Agents {
		agents[a.Agent] = a
	}
	if a := agents["opencode"]; a.Sessions != 2 {
		t.Errorf("opencode sessions = %+v, want the database's 2 sessions, not the file", a)
	}

	full := scan(t, state, Options{Paths: []string{dir}, Full: true})
	if fc := full.Formats[FormatOpencodeDB]; fc == nil || fc.Files != 2 || full.NewCandidates != 0 {
		t.Errorf("--full: %+v, new candidates %d", fc, full.NewCandidates)
	}
}

func TestScanOpencodeDatabaseInBatches(t *testing.T) {
	defer func(n int) { batchBytes = n }(batchBytes)
	batchBytes = 1 // every session a batch of its own
	dir, state := t.TempDir(), t.TempDir()
	copyDB(t, "v2", dir)
	rep := scan(t, state, Options{Paths: []string{dir}})
	if fc := rep.Formats[FormatOpencodeDB]; fc == nil || fc.Files != 2 || fc.Lines != 4 {
		t.Errorf("batched scan read %+v, want 2 sessions of 2 messages", fc)
	}
	cs := candidates(t, state)
	if find(cs, KindTag, "python manage.py") == nil || find(cs, KindRejection, "config.yaml") == nil || len(cs) != 2 {
		t.Errorf("batched scan found %d candidates: %+v", len(cs), cs)
	}
}

// TestScanOpencodeDatabaseGrows follows a database through the scans of
// its life: a session that goes on, a new session read from where the
// tables ended, and a deleted session whose rowids a new one reuses.
func TestScanOpencodeDatabaseGrows(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	for _, v := range []string{"v1", "v2", "v3"} {
		copyDB(t, v, dir)
		scan(t, state, Options{Paths: []string{dir}})
	}
	cs := candidates(t, state)
	if c := find(cs, KindRetry, "pip install"); c == nil || c.Provenance[0].SessionID != "ses_a" || c.Provenance[0].Line != 4 {
		t.Errorf("the message added to ses_a gave %+v, want a pip install retry on its 4th message", c)
	}
	if c := find(cs, KindRejection, "npm install"); c == nil || c.Provenance[0].SessionID != "ses_c" {
		t.Errorf("the new session ses_c gave %+v, want its npm install rejection", c)
	}
	copyDB(t, "v4", dir)
	rep := scan(t, state, Options{Paths: []string{dir}})
	if c := find(candidates(t, state), KindRejection, "git push"); c == nil || c.Provenance[0].SessionID != "ses_d" {
		t.Errorf("ses_d, in the rowids of the deleted ses_c, gave %+v (scan read %+v)", c, rep.Formats[FormatOpencodeDB])
	}
	for _, c := range candidates(t, state) {
		if c.Occurrences != 1 {
			t.Errorf("%s counted %d times", c.ID, c.Occurrences)
		}
	}
}

// opencodeSchema is the part of opencode's schema the scanner reads.
const opencodeSchema = `
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, directory TEXT NOT NULL,
  title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,
  time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,
  time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE INDEX message_session_idx ON message (session_id);
CREATE INDEX part_message_idx ON part (message_id);`

// TestScanOpencodeDatabaseWhileWritten scans while another connection
// writes as opencode does, in WAL mode: a session's row first, then its
// messages and parts in commits of their own, with checkpoints between.
// Every scan succeeds, and the last one has found each session's
// #lesson block exactly once.
func TestScanOpencodeDatabaseWhileWritten(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	path := filepath.Join(dir, "opencode.db")
	w, err := sql.Open(sqlDriver, "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(wal)")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	if _, err := w.Exec(opencodeSchema); err != nil {
		t.Fatal(err)
	}
	const sessions = 12
	const t0 = 1730000000000 // long idle
	done := make(chan error, 1)
	go func() {
		defer close(done)
		for i := range sessions {
			sid := fmt.Sprintf("ses_%02d", i)
			if _, err := w.Exec(`INSERT INTO session VALUES (?, 'prj', '/home/u/p', 't', '1.18', ?, ?)`, sid, t0, t0); err != nil {
				done <- err
				return
			}
			for k, text := range []string{"fix the build", fmt.Sprintf("#lesson\ntool: Bash\ntrigger: tool%02d --go\nmistake: tool%02d needs --go\nfix: run tool%02d --go\n#/lesson", i, i, i)} {
				role := []string{"user", "assistant"}[k]
				mid, ts := fmt.Sprintf("msg_%02d_%d", i, k), t0+int64(k)*1000
				stmts := []struct {
					q    string
					args []any
				}{
					{`INSERT INTO message VALUES (?, ?, ?, ?, ?)`, []any{mid, sid, ts, ts, `{"role":"` + role + `"}`}},
					{`INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)`, []any{"prt_" + mid, mid, sid, ts, ts, `{"type":"text","text":` + strconv.Quote(text) + `}`}},
					{`UPDATE session SET time_updated = ? WHERE id = ?`, []any{ts + 1, sid}},
				}
				for _, s := range stmts {
					if _, err := w.Exec(s.q, s.args...); err != nil {
						done <- err
						return
					}
				}
			}
			time.Sleep(5 * time.Millisecond) // let scans fall between sessions
			if i%4 == 3 {
				if _, err := w.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
					done <- err
					return
				}
			}
		}
	}()
	scans := 0
	for writing := true; writing; scans++ {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("writer: %v", err)
			}
			writing = false
		default:
		}
		if rep := scan(t, state, Options{Paths: []string{dir}}); len(rep.Errors) > 0 {
			t.Fatalf("scan %d while opencode writes: %v", scans, rep.Errors)
		}
	}
	if scans < 3 {
		t.Errorf("only %d scans while the writer ran", scans)
	}
	cs := candidates(t, state)
	for i := range sessions {
		c := find(cs, KindTag, fmt.Sprintf("tool%02d --go", i))
		if c == nil || c.Occurrences != 1 || c.Provenance[0].Line != 2 {
			t.Errorf("session %d's #lesson block, on its 2nd message, gave %+v after %d scans", i, c, scans)
		}
	}
	if len(cs) != sessions {
		t.Errorf("%d candidates after %d scans, want %d", len(cs), scans, sessions)
	}
}

// TestScanOpencodeDatabaseNotSQLite: a file named like opencode's
// database that is not one is reported by its path, and the scan goes on.
func TestScanOpencodeDatabaseNotSQLite(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	copyDB(t, "v1", dir)
	bad := filepath.Join(dir, "sub", "opencode.db")
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("not a database, just text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := scan(t, state, Options{Paths: []string{dir}})
	if len(rep.Errors) != 1 || !strings.Contains(rep.Errors[0], bad) || !strings.Contains(rep.Errors[0], "opencode database") {
		t.Errorf("errors = %q, want one naming %s", rep.Errors, bad)
	}
	if find(candidates(t, state), KindTag, "python manage.py") == nil {
		t.Error("the good database beside it was not read")
	}
}

// TestScanOpencodeDatabaseOddPath: a path with the characters a file: URI
// gives a meaning (?, #, %) still opens the database at that path.
func TestScanOpencodeDatabaseOddPath(t *testing.T) {
	dir, state := filepath.Join(t.TempDir(), "a?b#c%20d e"), t.TempDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	copyDB(t, "v2", dir)
	if rep := scan(t, state, Options{Paths: []string{dir}}); len(rep.Errors) > 0 || rep.Formats[FormatOpencodeDB] == nil || rep.Formats[FormatOpencodeDB].Files != 2 {
		t.Errorf("scan of %s: errors %q, read %+v", dir, rep.Errors, rep.Formats[FormatOpencodeDB])
	}
}

// TestScanOpencodeDatabaseBeforeItsTables: opencode makes the file, then
// its tables; a scan in between finds nothing and no error, and the next
// scan reads the sessions.
func TestScanOpencodeDatabaseBeforeItsTables(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "opencode.db"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if rep := scan(t, state, Options{Paths: []string{dir}}); len(rep.Errors) > 0 || rep.Findings != 0 {
		t.Errorf("scan of a database with no tables yet: %+v", rep)
	}
	copyDB(t, "v1", dir)
	scan(t, state, Options{Paths: []string{dir}})
	if find(candidates(t, state), KindTag, "python manage.py") == nil {
		t.Error("the session written after the tables were made was not read")
	}
}

// TestScanOpencodeDatabaseWaitsForALock: a writer holding the lock of a
// database in rollback-journal mode makes a scan wait (the busy
// timeout), not fail.
func TestScanOpencodeDatabaseWaitsForALock(t *testing.T) {
	dir, state := t.TempDir(), t.TempDir()
	copyDB(t, "v1", dir)
	w, err := sql.Open(sqlDriver, "file:"+filepath.Join(dir, "opencode.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	if _, err := w.Exec(`BEGIN EXCLUSIVE`); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		w.Exec(`COMMIT`)
	}()
	start := time.Now()
	rep := scan(t, state, Options{Paths: []string{dir}})
	if len(rep.Errors) > 0 || find(candidates(t, state), KindTag, "python manage.py") == nil {
		t.Errorf("scan while a writer held the lock: errors %q", rep.Errors)
	}
	if waited := time.Since(start); waited < 250*time.Millisecond {
		t.Errorf("the scan took %v: it did not wait for the lock", waited)
	}
}
