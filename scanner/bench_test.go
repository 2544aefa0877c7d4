package scanner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The benchmarks read a corpus of about 1 GB made by replicating the real
// sessions of corpusDir with distinct ids. It is built once, outside the
// repository, in $LESSONS_BENCH_CORPUS (default /tmp/lessons-bench-corpus):
//
//	go test ./scanner -run '^$' -bench Scan -benchtime 3x

const benchBytes = 1 << 30

func benchCorpus(b *testing.B) (string, int64) {
	b.Helper()
	dir := os.Getenv("LESSONS_BENCH_CORPUS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "lessons-bench-corpus")
	}
	if size := dirSize(dir); size >= benchBytes*9/10 {
		return dir, size
	}
	if _, err := os.Stat(corpusDir); err != nil {
		b.Skip("no corpus to replicate at", corpusDir)
	}
	var srcs []string
	for _, d := range []string{"claude", "codex", "gemini", "opencode"} {
		m, _ := filepath.Glob(filepath.Join(corpusDir, d, "*.json*"))
		srcs = append(srcs, m...)
	}
	var size int64
	for k := 0; size < benchBytes; k++ {
		for _, src := range srcs {
			data, err := os.ReadFile(src)
			if err != nil {
				b.Fatal(err)
			}
			data = distinctIDs(data, k)
			dst := filepath.Join(dir, filepath.Base(filepath.Dir(src)), fmt.Sprint(k), filepath.Base(src))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				b.Fatal(err)
			}
			size += int64(len(data))
		}
	}
	return dir, size
}

// distinctIDs prefixes every session, record and call id with the copy.
func distinctIDs(data []byte, k int) []byte {
	for _, key := range []string{"sessionId", "session_id", "uuid", "parentUuid", "id", "call_id", "tool_use_id", "sessionID", "messageID"} {
		data = bytes.ReplaceAll(data, []byte(`"`+key+`":"`), []byte(fmt.Sprintf(`"%s":"r%d-`, key, k)))
	}
	return data
}

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

func BenchmarkScanFull(b *testing.B) {
	dir, size := benchCorpus(b)
	b.SetBytes(size)
	var rep Report
	for b.Loop() {
		var err error
		rep, err = Scan(context.Background(), Options{StateDir: b.TempDir(), Paths: []string{dir}, Full: true})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rep.Files), "files")
	b.ReportMetric(float64(rep.NewCandidates), "candidates")
}

func BenchmarkScanIncremental(b *testing.B) {
	dir, _ := benchCorpus(b)
	state := b.TempDir()
	if _, err := Scan(context.Background(), Options{StateDir: state, Paths: []string{dir}}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		rep, err := Scan(context.Background(), Options{StateDir: state, Paths: []string{dir}})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Unchanged != rep.Files {
			b.Fatalf("%d of %d files changed", rep.Files-rep.Unchanged, rep.Files)
		}
	}
}
