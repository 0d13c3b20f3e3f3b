package pgmigrate

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/factbot-dev/factbot/internal/pgtest"
)

func files(names ...string) fstest.MapFS {
	m := fstest.MapFS{}
	for _, n := range names {
		m[n] = &fstest.MapFile{Data: []byte("-- " + n)}
	}
	return m
}

func TestRead(t *testing.T) {
	tests := []struct {
		name    string
		files   fstest.MapFS
		want    []string
		wantErr bool
	}{
		{name: "in order of number", files: files("0010_c.sql", "0002_b.sql", "0001_a.sql", "notes.txt"), want: []string{"0001_a", "0002_b", "0010_c"}},
		{name: "none", files: files(), want: nil},
		{name: "no number", files: files("init.sql"), wantErr: true},
		{name: "number zero", files: files("0000_a.sql"), wantErr: true},
		{name: "same number", files: files("0001_a.sql", "01_b.sql"), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := Read(tt.files)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Read: %v, want error %v", err, tt.wantErr)
			}
			var got []string
			for _, m := range ms {
				got = append(got, m.Name)
				if m.SQL != "-- "+m.Name+".sql" {
					t.Errorf("%s: SQL %q", m.Name, m.SQL)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
		})
	}
}

var schema = fstest.MapFS{
	"0001_t.sql": {Data: []byte("CREATE TABLE t (n integer)")},
	"0002_u.sql": {Data: []byte("INSERT INTO t VALUES (1)")},
}

func pool(t *testing.T) *pgxpool.Pool {
	p, err := pgxpool.NewWithConfig(context.Background(), pgtest.Config(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func versions(t *testing.T, p *pgxpool.Pool) []int {
	rows, err := p.Query(context.Background(), "SELECT version FROM schema_migrations ORDER BY version")
	if err != nil {
		t.Fatal(err)
	}
	v, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestApplyConcurrent: processes starting together apply each migration
// once, and a second Apply has nothing to do.
func TestApplyConcurrent(t *testing.T) {
	p, ctx := pool(t), context.Background()
	var wg sync.WaitGroup
	done := make([][]string, 4)
	errs := make([]error, 4)
	for i := range 4 {
		wg.Go(func() { done[i], errs[i] = Apply(ctx, p, schema, 1) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if all := slices.Concat(done...); !cmp.Equal(all, []string{"0001_t", "0002_u"}) {
		t.Errorf("applied %v, want each migration once", all)
	}
	if diff := cmp.Diff([]int{1, 2}, versions(t, p)); diff != "" {
		t.Errorf("schema_migrations (-want +got):\n%s", diff)
	}
	var n int
	if err := p.QueryRow(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 1 {
		t.Errorf("rows of t = %d, %v; want 1", n, err)
	}
	if again, err := Apply(ctx, p, schema, 1); err != nil || len(again) != 0 {
		t.Errorf("Apply again = %v, %v; want nothing to do", again, err)
	}
}

// TestApplyNewer: a database with a migration above those given is refused.
func TestApplyNewer(t *testing.T) {
	p, ctx := pool(t), context.Background()
	if _, err := Apply(ctx, p, schema, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(ctx, p, fstest.MapFS{"0001_t.sql": schema["0001_t.sql"]}, 1); !errors.Is(err, ErrNewer) {
		t.Errorf("Apply of fewer migrations: %v, want ErrNewer", err)
	}
}

// TestApplyFailure: a failing migration leaves nothing of itself, and
// stops those after it.
func TestApplyFailure(t *testing.T) {
	p, ctx := pool(t), context.Background()
	bad := fstest.MapFS{
		"0001_t.sql":   schema["0001_t.sql"],
		"0002_bad.sql": {Data: []byte("INSERT INTO t VALUES (2); SELECT nonsense")},
		"0003_u.sql":   schema["0002_u.sql"],
	}
	done, err := Apply(ctx, p, bad, 1)
	if err == nil {
		t.Fatal("Apply of a failing migration succeeded")
	}
	if diff := cmp.Diff([]string{"0001_t"}, done); diff != "" {
		t.Errorf("applied (-want +got):\n%s", diff)
	}
	var n int
	if err := p.QueryRow(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 0 {
		t.Errorf("rows of t = %d, %v; want 0", n, err)
	}
	if diff := cmp.Diff([]int{1}, versions(t, p)); diff != "" {
		t.Errorf("schema_migrations (-want +got):\n%s", diff)
	}
}
