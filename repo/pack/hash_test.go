package pack

import (
	"archive/zip"
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHashFilesMatchesGoSum checks HashFiles against the h1 hash go.sum
// records for a module zip in the module cache, which Go computed with
// golang.org/x/mod/sumdb/dirhash.
func TestHashFilesMatchesGoSum(t *testing.T) {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skip("go command not available")
	}
	const mod, ver = "github.com/gofrs/flock", "v0.13.1"
	zr, err := zip.OpenReader(filepath.Join(strings.TrimSpace(string(out)), "cache/download", mod, "@v", ver+".zip"))
	if err != nil {
		t.Skipf("module zip not cached: %v", err)
	}
	defer zr.Close()
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name], _ = io.ReadAll(rc)
		rc.Close()
	}
	got, err := HashFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.Open("../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	defer sum.Close()
	sc := bufio.NewScanner(sum)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 3 && f[0] == mod && f[1] == ver {
			if got != f[2] {
				t.Fatalf("HashFiles(%s@%s) = %s, go.sum says %s", mod, ver, got, f[2])
			}
			return
		}
	}
	t.Skip("module not in go.sum")
}

func TestHashFilesRejectsNewline(t *testing.T) {
	if _, err := HashFiles(map[string][]byte{"a\nb": nil}); err == nil {
		t.Error("a file name with a newline hashed")
	}
}

func TestLockRoundTrip(t *testing.T) {
	l := &Lock{}
	l.Set(LockEntry{Name: "zeta", URL: "https://example.com/z.git", Commit: strings.Repeat("a", 40), Hash: "h1:x"})
	l.Set(LockEntry{Name: "alpha", URL: "git@example.com:a.git", Ref: "v1", Commit: strings.Repeat("b", 40), Hash: "h1:y"})
	path := filepath.Join(t.TempDir(), "sub", LockFileName)
	if err := WriteLock(path, l); err != nil {
		t.Fatal(err)
	}
	back, err := ReadLock(path)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equal(l) || back.Packs[0].Name != "alpha" {
		t.Errorf("lock round trip = %+v, want %+v", back.Packs, l.Packs)
	}
	if _, err := ParseLock("lessons.lock", []byte("packs:\n  - name: x\n    bogus: 1\n")); err == nil {
		t.Error("a lock with an unknown key parsed")
	}
	if empty, err := ReadLock(filepath.Join(t.TempDir(), "none")); err != nil || len(empty.Packs) != 0 {
		t.Errorf("missing lock = %+v, %v", empty, err)
	}
}
