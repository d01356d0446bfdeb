package images

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

func testWrite(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadAttachmentReadsByContent(t *testing.T) {
	p := testWrite(t, t.TempDir(), "shot.jpg", testPNG(t, testNoise(30, 20, false)))
	a, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "shot.jpg" || a.MimeType != "image/png" || a.Width != 30 {
		t.Errorf("got %q %s %d×%d", a.Name, a.MimeType, a.Width, a.Height)
	}
}

func TestLoadAttachmentFailures(t *testing.T) {
	dir := t.TempDir()
	t.Run("empty", func(t *testing.T) {
		p := testWrite(t, dir, "empty.png", nil)
		_, err := Load(p)
		if ae := wantProblem(t, err, AttachEmpty, "empty"); ae.Name != p {
			t.Errorf("error names %q, want %q", ae.Name, p)
		}
	})
	t.Run("missing", func(t *testing.T) {
		p := filepath.Join(dir, "gone.png")
		_, err := Load(p)
		wantProblem(t, err, AttachUnreadable, "doesn't exist")
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%q does not name the path", err)
		}
	})
	t.Run("no permission", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root can read a chmod 000 file; the missing-file case covers unreadable")
		}
		p := testWrite(t, dir, "locked.png", testPNG(t, testNoise(4, 4, false)))
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
		_, err := Load(p)
		wantProblem(t, err, AttachUnreadable, "permission denied")
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%q does not name the path", err)
		}
	})
	t.Run("folder", func(t *testing.T) {
		p := filepath.Join(dir, "pics.png")
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := Load(p)
		wantProblem(t, err, AttachFolder, "folder")
	})
	t.Run("not an image", func(t *testing.T) {
		p := testWrite(t, dir, "doc.png", []byte("%PDF-1.4\n"))
		_, err := Load(p)
		wantProblem(t, err, AttachNotImage, "PDF")
		if !strings.HasPrefix(err.Error(), p+": ") {
			t.Errorf("%q does not start with the path", err)
		}
	})
	t.Run("too large", func(t *testing.T) {
		p := filepath.Join(dir, "huge.png")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		// Sparse, so the test costs no disk; it must be refused before reading.
		if err := f.Truncate(maxFileSize + 1); err != nil {
			t.Fatal(err)
		}
		f.Close()
		_, err = Load(p)
		wantProblem(t, err, AttachTooLarge, "the limit is 64.0 MB")
	})
}

func TestLoadAttachmentsReportsEachFileOnce(t *testing.T) {
	dir := t.TempDir()
	good := map[string][]byte{
		"a.png":  testPNG(t, testNoise(40, 30, false)),
		"b.jpg":  testJPEG(t, testNoise(40, 30, false)),
		"c.gif":  testGIF(t, testNoise(40, 30, false)),
		"d.webp": testWebP(t),
	}
	bad := map[string][]byte{"e.png": nil, "f.png": []byte("hello"), "g.bmp": []byte("BM\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x28\x00\x00\x00")}
	var paths []string
	wantErr := map[int]bool{}
	for i := range 20 {
		var name string
		switch {
		case i == 7:
			name = "missing.png" // never written
		case i == 13:
			name = "folder"
			if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
				t.Fatal(err)
			}
		case i%3 == 2:
			name = []string{"e.png", "f.png", "g.bmp"}[i%9/3]
			testWrite(t, dir, name, bad[name])
		default:
			name = []string{"a.png", "b.jpg", "c.gif", "d.webp"}[i%4]
			testWrite(t, dir, name, good[name])
		}
		_, isGood := good[name]
		wantErr[i] = !isGood
		paths = append(paths, filepath.Join(dir, name))
	}

	calls := make([]int, len(paths))
	var inEach atomic.Int32
	LoadAll(context.Background(), paths, 3, func(i int, a Attachment, err error) {
		if inEach.Add(1) != 1 {
			t.Error("each was called concurrently")
		}
		defer inEach.Add(-1)
		calls[i]++
		if (err != nil) != wantErr[i] {
			t.Errorf("%d (%s): err %v", i, filepath.Base(paths[i]), err)
		}
		if err == nil && a.Name != filepath.Base(paths[i]) {
			t.Errorf("%d: attachment %q for %s", i, a.Name, paths[i])
		}
	})
	for i, n := range calls {
		if n != 1 {
			t.Errorf("file %d reported %d times", i, n)
		}
	}
}

func TestLoadAttachmentsStopsWhenCancelled(t *testing.T) {
	p := testWrite(t, t.TempDir(), "a.png", testPNG(t, testNoise(8, 8, false)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := 0
	LoadAll(ctx, []string{p, p, p, p, p}, 2, func(i int, a Attachment, err error) {
		calls++
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%d: err %v, want context.Canceled", i, err)
		}
	})
	if calls != 5 {
		t.Errorf("%d calls, want 5", calls)
	}
	LoadAll(context.Background(), nil, 0, func(int, Attachment, error) { t.Error("called for no files") })
}

func BenchmarkLoadAttachments20(b *testing.B) {
	jpg := testJPEG(b, testNoise(3000, 2000, false))
	dir := b.TempDir()
	paths := make([]string, 20)
	for i := range paths {
		paths[i] = testWrite(b, dir, "photo"+string(rune('a'+i))+".jpg", jpg)
	}
	b.SetBytes(int64(len(jpg) * len(paths)))
	for b.Loop() {
		LoadAll(context.Background(), paths, 2, func(i int, a Attachment, err error) {
			if err != nil || !a.Resized {
				b.Errorf("%d: resized=%v %v", i, a.Resized, err)
			}
		})
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N)/float64(len(paths)), "ms/file")
}
