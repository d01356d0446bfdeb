package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"knightcode.ai/desktop/gitwork"
	"knightcode.ai/desktop/model"
)

func TestMessageTimes(t *testing.T) {
	at := func(s int) time.Time { return time.Unix(int64(s), 0) }
	items := []model.ChatItem{
		{ID: "u1", Kind: model.ChatUser, Sent: at(10)},
		{ID: "a1", Kind: model.ChatAssistant},
		{ID: "u2", Kind: model.ChatUser, Sent: at(20)},
		{ID: "u3", Kind: model.ChatUser}, // waiting: not taken yet
	}
	for _, tc := range []struct {
		id           string
		sent, before time.Time
		ok           bool
	}{
		{"u1", at(10), time.Time{}, true},
		{"u2", at(20), at(10), true},
		{"u3", time.Time{}, at(20), false},
		{"a1", time.Time{}, time.Time{}, false},
	} {
		sent, before, ok := messageTimes(items, tc.id)
		if !sent.Equal(tc.sent) || !before.Equal(tc.before) || ok != tc.ok {
			t.Errorf("messageTimes(%s) = %v %v %v", tc.id, sent.Unix(), before.Unix(), ok)
		}
	}
	if got := lastMessageID(items); got != "u2" {
		t.Errorf("lastMessageID = %q, want the last one taken", got)
	}
}

func TestFileSummary(t *testing.T) {
	var files []gitwork.FileChange
	for i := 0; i < 10; i++ {
		files = append(files, gitwork.FileChange{Path: fmt.Sprintf("f%d", i), Status: gitwork.Modified})
	}
	files[0] = gitwork.FileChange{Path: "new\nline.txt", Status: gitwork.Added}
	files[1] = gitwork.FileChange{Path: "gone.txt", Status: gitwork.Deleted}
	got := fileSummary(files, 8)
	for _, want := range []string{`delete new\nline.txt`, "bring back gone.txt", "restore f2", "… and 2 more"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "\n") != 8 {
		t.Errorf("a name with a newline took two lines:\n%s", got)
	}
}

func TestOwnFolderRefused(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	t.Setenv("HOME", home)
	if err := ownFolderRefused(ctx, home); err == nil || !strings.Contains(err.Error(), "home folder") {
		t.Errorf("home: %v", err)
	}
	if err := ownFolderRefused(ctx, "/"); err == nil {
		t.Error("the root accepted")
	}
	small := t.TempDir()
	os.WriteFile(filepath.Join(small, "a.txt"), nil, 0o644)
	if err := ownFolderRefused(ctx, small); err != nil {
		t.Errorf("a small folder: %v", err)
	}
	if n, _, err := countFiles(ctx, small, 0, 1<<20); err != nil || n != 1 {
		t.Errorf("countFiles past the file limit: %d %v", n, err)
	}
	os.WriteFile(filepath.Join(small, "big.bin"), make([]byte, 2048), 0o644)
	if _, size, err := countFiles(ctx, small, 100, 1024); err != nil || size <= 1024 {
		t.Errorf("countFiles past the byte limit: %d %v", size, err)
	}
}
