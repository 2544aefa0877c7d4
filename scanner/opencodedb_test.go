package scanner

import (
	"os"
	"path/filepath"
	"testing"
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
	retry := find(cs, KindRetry, "python manage.py")
	if retry == nil || !commandFires(retry.Triggers, "python manage.py test") || commandFires(retry.Triggers, "python3 manage.py test") {
		t.Fatalf("no retry candidate telling python from python3: %+v", retry)
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
	if find(cs, KindRetry, "python manage.py") == nil || find(cs, KindRejection, "config.yaml") == nil || len(cs) != 3 {
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
