package sessionindex

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The benchmarks index generated sessions of SESSIONINDEX_BENCH_MB
// megabytes (500 by default) in pi's layout. The files, and the index built
// from them, are kept under SESSIONINDEX_BENCH_DIR (by default a folder in
// the system's temporary folder) so that the query benchmarks and later runs
// reuse them; remove the folder to start afresh. See README.md here.

func benchMB() int64 {
	if n, err := strconv.ParseInt(os.Getenv("SESSIONINDEX_BENCH_MB"), 10, 64); err == nil && n > 0 {
		return n
	}
	return 500
}

func benchBase() string {
	if d := os.Getenv("SESSIONINDEX_BENCH_DIR"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "knightcode-sessionindex-bench")
}

// benchCorpus returns the folder of generated sessions, writing it once.
func benchCorpus(b *testing.B) string {
	b.Helper()
	root := filepath.Join(benchBase(), fmt.Sprintf("sessions-%dMB", benchMB()))
	done := root + ".done"
	if _, err := os.Stat(done); err == nil {
		return root
	}
	os.RemoveAll(root)
	start := time.Now()
	paths, err := genTree(root, benchMB()<<20, 7)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	b.Logf("generated %d session files, %d MB, in %s: %s", len(paths), benchMB(), time.Since(start).Round(time.Second), root)
	return root
}

// benchIndex returns the folder of an index built from benchCorpus,
// building it once.
func benchIndex(b *testing.B) (dir, root string) {
	b.Helper()
	root = benchCorpus(b)
	dir = filepath.Join(benchBase(), fmt.Sprintf("index-%dMB-v%d", benchMB(), schemaVersion))
	done := dir + ".done"
	if _, err := os.Stat(done); err == nil {
		return dir, root
	}
	os.RemoveAll(dir)
	x, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	st, err := x.Update(context.Background(), []string{root})
	x.Close()
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("built the index: %+v", st)
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	return dir, root
}

// memPeak samples the Go heap every few milliseconds and reads the
// process's peak resident set, which clear resets (Linux only: elsewhere
// RSS is reported as 0).
type memPeak struct {
	stop chan struct{}
	wg   sync.WaitGroup
	heap atomic.Uint64
}

func startMemPeak() *memPeak {
	runtime.GC()
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // resets VmHWM
	m := &memPeak{stop: make(chan struct{})}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > m.heap.Load() {
				m.heap.Store(v)
			}
			select {
			case <-m.stop:
				return
			case <-t.C:
			}
		}
	}()
	return m
}

// end returns the peak heap and the peak RSS, in bytes.
func (m *memPeak) end() (heap, rss uint64) {
	close(m.stop)
	m.wg.Wait()
	return m.heap.Load(), peakRSS()
}

func peakRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// BenchmarkBuild builds the index of the generated sessions from nothing.
// Metrics: MB/s of session files, peak Go heap and peak RSS of the process
// (SQLite's page cache and FTS5's pending terms are outside the Go heap),
// and the index's size.
func BenchmarkBuild(b *testing.B) {
	root := benchCorpus(b)
	corpus := dirSize(root)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		b.StartTimer()
		m := startMemPeak()
		start := time.Now()
		x, err := Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		st, err := x.Update(context.Background(), []string{root})
		if err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		x.Close()
		heap, rss := m.end()
		b.StopTimer()
		b.ReportMetric(float64(corpus)/(1<<20)/took.Seconds(), "MB/s")
		b.ReportMetric(float64(heap)/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MB")
		b.ReportMetric(float64(dirSize(dir))/(1<<20), "index-MB")
		b.ReportMetric(float64(st.Rows), "rows")
		b.Logf("%d MB of sessions in %s: %+v", corpus>>20, took.Round(time.Millisecond), st)
		os.RemoveAll(dir)
		b.StartTimer()
	}
}

// BenchmarkUpdateAppend measures the Update after one session grew, the
// work the app does in the background while a session is in use.
func BenchmarkUpdateAppend(b *testing.B) {
	built, root := benchIndex(b)
	dir := b.TempDir()
	copyIndex(b, built, dir)
	x, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	files, _ := filepath.Glob(filepath.Join(root, "*", "*.jsonl"))
	slices.Sort(files)
	// The appended file is a copy, so the corpus stays as it was.
	grown := filepath.Join(root, "zz-append", "grown.jsonl")
	os.MkdirAll(filepath.Dir(grown), 0o755)
	defer os.RemoveAll(filepath.Dir(grown))
	data, err := os.ReadFile(files[0])
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(grown, data, 0o644); err != nil {
		b.Fatal(err)
	}
	if _, err := x.Update(context.Background(), []string{root}); err != nil {
		b.Fatal(err)
	}
	g := newSessionGen(99)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		appendTurn(b, g, grown, i)
		b.StartTimer()
		st, err := x.Update(context.Background(), []string{root})
		if err != nil {
			b.Fatal(err)
		}
		if st.Appended != 1 {
			b.Fatalf("not appended: %+v", st)
		}
	}
}

func copyIndex(b *testing.B, from, to string) {
	b.Helper()
	data, err := os.ReadFile(filepath.Join(from, dbName))
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(to, dbName), data, 0o600); err != nil {
		b.Fatal(err)
	}
}

// appendTurn appends a prompt and a reply to a session file.
func appendTurn(b *testing.B, g *sessionGen, path string, i int) {
	b.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintf(f, `{"type":"message","id":"app%da","parentId":null,"timestamp":"2026-01-01T10:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":%q}]}}`+"\n", i, g.words(40))
	fmt.Fprintf(f, `{"type":"message","id":"app%db","parentId":"app%da","timestamp":"2026-01-01T10:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":%q}]}}`+"\n", i, i, g.words(200))
}

// benchQueries are what a user types into the browser's search box: each
// prefix of a word as it is typed, common and rare words, an identifier, a
// path, accented and Chinese text, words that match nothing, and syntax
// that must not be taken for FTS5's.
var benchQueries = func() []string {
	var qs []string
	for _, w := range []string{"goroutine deadlock", "database migration", "configHandler"} {
		for i := 2; i <= len(w); i++ {
			qs = append(qs, w[:i])
		}
	}
	return append(qs, "the", "the ", "a to of", "error", "fix the bug", "src/main.go", "go test ./app",
		"cafe", "résumé", "数据库", "会话 搜索", "zyxwvut", "mutex -lock", `"panic" OR recover`, "NEAR(cache index)",
		"schema:migration", "leak*", "benchmark latency throughput")
}()

// BenchmarkQueryWarm runs benchQueries against the built index, opened
// once and warmed by one pass. Metrics: the median, 95th percentile and
// slowest query, in ms, over all passes.
func BenchmarkQueryWarm(b *testing.B) {
	dir, _ := benchIndex(b)
	x, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	ctx := context.Background()
	for _, q := range benchQueries {
		if _, err := x.Search(ctx, q, 20); err != nil {
			b.Fatalf("%q: %v", q, err)
		}
	}
	var took []time.Duration
	slowest := map[string]time.Duration{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, q := range benchQueries {
			start := time.Now()
			if _, err := x.Search(ctx, q, 20); err != nil {
				b.Fatalf("%q: %v", q, err)
			}
			d := time.Since(start)
			took = append(took, d)
			slowest[q] = max(slowest[q], d)
		}
	}
	b.StopTimer()
	reportLatency(b, took)
	b.ReportMetric(float64(len(benchQueries)), "queries/op")
	worst := slices.SortedFunc(func(yield func(string) bool) {
		for q := range slowest {
			if !yield(q) {
				return
			}
		}
	}, func(a, b string) int { return int(slowest[b] - slowest[a]) })
	for _, q := range worst[:min(5, len(worst))] {
		b.Logf("slow: %q %s", q, slowest[q].Round(100*time.Microsecond))
	}
}

func reportLatency(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(took[len(took)/2]), "p50-ms")
	b.ReportMetric(ms(took[(len(took)*95+99)/100-1]), "p95-ms")
	b.ReportMetric(ms(took[len(took)-1]), "max-ms")
}

// BenchmarkQueryCold opens the index with none of its file, nor of the
// session files, in the operating system's cache (evicted with
// posix_fadvise on Linux) and runs one query, as the first search after
// the app starts. Metrics: Open, and Open plus the first query, in ms: the
// median and the slowest over the runs (-benchtime 10x runs each query
// twice).
func BenchmarkQueryCold(b *testing.B) {
	dir, root := benchIndex(b)
	sessions, _ := filepath.Glob(filepath.Join(root, "*", "*.jsonl"))
	queries := []string{"goroutine deadlock", "the", "数据库", "configH", "src/main.go"}
	var open, first []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		evict(b, filepath.Join(dir, dbName))
		for _, p := range sessions {
			evict(b, p)
		}
		q := queries[i%len(queries)]
		b.StartTimer()
		start := time.Now()
		x, err := Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		open = append(open, time.Since(start))
		hits, err := x.Search(context.Background(), q, 20)
		first = append(first, time.Since(start))
		b.StopTimer()
		if err != nil || len(hits) == 0 {
			b.Fatalf("%q: %d hits, %v", q, len(hits), err)
		}
		x.Close()
		b.StartTimer()
	}
	b.StopTimer()
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	slices.Sort(open)
	slices.Sort(first)
	b.ReportMetric(ms(open[len(open)/2]), "open-ms")
	b.ReportMetric(ms(first[len(first)/2]), "open+first-query-ms")
	b.ReportMetric(ms(first[len(first)-1]), "max-open+first-query-ms")
}

// BenchmarkUpdateNoChange is the Update the app runs when it starts, or
// the browser opens, and nothing changed: a stat of every file.
func BenchmarkUpdateNoChange(b *testing.B) {
	dir, root := benchIndex(b)
	x, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := x.Update(context.Background(), []string{root})
		if err != nil || st.Rows != 0 {
			b.Fatalf("%+v, %v", st, err)
		}
	}
}
