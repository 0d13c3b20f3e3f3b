package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/factcheck"
)

func TestBackupAndEachCheck(t *testing.T) {
	db, clk := newDB(t)
	var want []*Check
	for i := range 600 { // more than one export batch
		clk.Add(time.Second)
		c := check("T1", "C1", "U1", "t", clk.Now(), map[string]factcheck.Label{"c": factcheck.Labels[i%4]})
		want = append(want, c)
	}
	mustf(t, db.SaveChecks(ctx, want), "save")
	path := filepath.Join(t.TempDir(), "backup.db")
	n, err := db.BackupFile(ctx, path)
	mustf(t, err, "backup")
	if fi, err := os.Stat(path); err != nil || fi.Size() != n {
		t.Fatalf("backup file: %v, size %v, want %d", err, fi, n)
	}
	if _, err := db.BackupFile(ctx, path); err == nil {
		t.Error("backup over an existing file: no error")
	}
	b, err := Open(path, Options{})
	mustf(t, err, "open backup")
	defer b.Close()
	var got []*Check
	mustf(t, b.EachCheck(ctx, "T1", func(c *Check) error { got = append(got, c); return nil }), "each")
	if diff := cmp.Diff(want, got, cmpOpts); diff != "" {
		t.Errorf("checks in the backup, oldest first (-want +got):\n%s", diff)
	}
	mustf(t, b.checkInvariants(), "verify backup")
}
