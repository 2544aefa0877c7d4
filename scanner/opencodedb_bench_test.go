package scanner

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// The opencode.db benchmarks read the database testdata/opencode-db/gen.py
// --big writes (3000 sessions, about 130 MB), made once, outside the
// repository, at $LESSONS_BENCH_OPENCODE_DB (default
// /tmp/lessons-bench-opencode/opencode.db):
//
//	go test ./scanner -run '^$' -bench OpencodeDB -benchtime 3x

func benchOpencodeDB(b *testing.B) (string, int64) {
	b.Helper()
	path := os.Getenv("LESSONS_BENCH_OPENCODE_DB")
	if path == "" {
		path = filepath.Join(os.TempDir(), "lessons-bench-opencode", "opencode.db")
	}
	if fi, err := os.Stat(path); err == nil {
		return path, fi.Size()
	}
	if _, err := exec.LookPath("python3"); err != nil {
		b.Skip("no python3 to write the benchmark database")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if out, err := exec.Command("python3", "../testdata/opencode-db/gen.py", "--big", path+".tmp", "3000").CombinedOutput(); err != nil {
		b.Fatalf("gen.py: %v\n%s", err, out)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	return path, fi.Size()
}

// benchCopy copies the benchmark database into a directory of its own,
// which a benchmark may change.
func benchCopy(b *testing.B, path string) string {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "opencode.db"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

func BenchmarkScanOpencodeDBFull(b *testing.B) {
	path, size := benchOpencodeDB(b)
	dir := filepath.Dir(path)
	b.SetBytes(size)
	for b.Loop() {
		rep, err := Scan(context.Background(), Options{StateDir: b.TempDir(), Paths: []string{dir}, Full: true})
		if err != nil || len(rep.Errors) > 0 {
			b.Fatal(err, rep.Errors)
		}
	}
}

// BenchmarkScanOpencodeDBChanged rescans after one message was added to
// a session: the newest, or the oldest, whose rows lie at the start of
// the tables.
func BenchmarkScanOpencodeDBChanged(b *testing.B) {
	path, _ := benchOpencodeDB(b)
	for _, sid := range []string{"ses_02999", "ses_00000"} {
		b.Run(sid, func(b *testing.B) {
			dir, state := benchCopy(b, path), b.TempDir()
			if _, err := Scan(context.Background(), Options{StateDir: state, Paths: []string{dir}}); err != nil {
				b.Fatal(err)
			}
			w, err := sql.Open(sqlDriver, "file:"+filepath.Join(dir, "opencode.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			n := 0
			for b.Loop() {
				b.StopTimer()
				n++
				ts := time.Now().Add(-72 * time.Hour).UnixMilli()
				mid := fmt.Sprintf("msg_bench_%d", n)
				for _, q := range []struct {
					s    string
					args []any
				}{
					{`INSERT INTO message VALUES (?, ?, ?, ?, '{"role":"user"}')`, []any{mid, sid, ts, ts}},
					{`INSERT INTO part VALUES (?, ?, ?, ?, ?, '{"type":"text","text":"one more"}')`, []any{"prt_" + mid, mid, sid, ts, ts}},
					{`UPDATE session SET time_updated = ? WHERE id = ?`, []any{ts + int64(n), sid}},
				} {
					if _, err := w.Exec(q.s, q.args...); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				rep, err := Scan(context.Background(), Options{StateDir: state, Paths: []string{dir}})
				if err != nil || len(rep.Errors) > 0 || rep.Formats[FormatOpencodeDB].Files != 1 {
					b.Fatalf("%v %v %+v", err, rep.Errors, rep.Formats[FormatOpencodeDB])
				}
			}
		})
	}
}
