package sessionfiles

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

const fixtureCwd = "/home/ada/proj"

// noHeaderFixture keeps pi's file-name form, from which the ID and creation
// time of a file without header are taken.
const noHeaderFixture = "2025-01-04T10-00-00-000Z_0b1c2d3e-0000-7000-8000-000000000003.jsonl"

// sessionLayout lays fixtures out as the agent does: pi's default tree of
// per-folder directories in root, and a flat --session-dir in flat. Files
// get increasing modification times in the order given, so the newest is
// the last one.
type sessionLayout struct {
	root, flat string
	at         time.Time
}

func newSessionLayout(t *testing.T) *sessionLayout {
	dir := t.TempDir()
	return &sessionLayout{root: filepath.Join(dir, "sessions"), flat: filepath.Join(dir, "flat"),
		at: time.Date(2025, 2, 1, 12, 0, 0, 0, time.UTC)}
}

// put copies fixture (or writes data when fixture is "") to dir/name.
func (l *sessionLayout) put(t *testing.T, dir, name, fixture string, data []byte) string {
	t.Helper()
	if fixture != "" {
		var err error
		if data, err = os.ReadFile(filepath.Join("testdata", "sessions", fixture)); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	l.at = l.at.Add(time.Minute)
	if err := os.Chtimes(path, l.at, l.at); err != nil {
		t.Fatal(err)
	}
	return path
}

func (l *sessionLayout) folder(cwd string) string {
	return filepath.Join(l.root, FolderName(cwd))
}

func infoNames(infos []Info) []string {
	var out []string
	for _, i := range infos {
		out = append(out, filepath.Base(i.Path))
	}
	return out
}

func TestListSessionsFixtures(t *testing.T) {
	l := newSessionLayout(t)
	own, other := l.folder(fixtureCwd), l.folder("/home/ada/other")
	l.put(t, own, "branches.jsonl", "branches.jsonl", nil)
	l.put(t, own, "truncated.jsonl", "truncated.jsonl", nil)
	l.put(t, own, noHeaderFixture, noHeaderFixture, nil)
	l.put(t, own, "bad-line.jsonl", "bad-line.jsonl", nil)
	l.put(t, own, "legacy-v1.jsonl", "legacy-v1.jsonl", nil)
	l.put(t, own, "garbage.jsonl", "garbage.jsonl", nil)
	l.put(t, own, "other-tool.jsonl", "other-tool.jsonl", nil)
	l.put(t, own, "empty.jsonl", "empty.jsonl", nil)
	l.put(t, own, "binary.jsonl", "", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	l.put(t, own, "notes.txt", "", []byte("not a .jsonl file: ignored"))
	// Another folder's sessions, and one whose header claims our folder:
	// the header decides, not the folder name.
	l.put(t, other, "other.jsonl", "", []byte(`{"type":"session","version":3,"id":"o","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/home/ada/other"}`+"\n"))
	l.put(t, other, "moved.jsonl", "", []byte(`{"type":"session","version":3,"id":"m","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/home/ada/proj/"}`+"\n"))
	l.put(t, other, "headerless.jsonl", noHeaderFixture, nil)
	l.put(t, other, "garbage.jsonl", "garbage.jsonl", nil)
	l.put(t, l.flat, "flat.jsonl", "", []byte(`{"type":"session","version":3,"id":"f","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/home/ada/proj"}`+"\n"))

	infos, skipped, err := List(context.Background(), []string{l.root, l.flat, l.root}, fixtureCwd, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"flat.jsonl", "moved.jsonl", "legacy-v1.jsonl", "bad-line.jsonl", noHeaderFixture, "truncated.jsonl", "branches.jsonl"}
	if got := infoNames(infos); !slices.Equal(got, want) {
		t.Errorf("listed %v\nwant   %v", got, want)
	}
	wantSkipped := map[string]string{
		"garbage.jsonl":    "not JSON lines",
		"other-tool.jsonl": "no session header and no session entries",
		"empty.jsonl":      "empty file",
		"binary.jsonl":     "binary data",
	}
	for _, s := range skipped {
		reason, ok := wantSkipped[filepath.Base(s.Path)]
		if !ok || filepath.Dir(s.Path) != own || !strings.Contains(s.Reason, reason) {
			t.Errorf("skipped %s: %s", s.Path, s.Reason)
		}
		delete(wantSkipped, filepath.Base(s.Path))
	}
	if len(wantSkipped) != 0 {
		t.Errorf("not reported as skipped: %v", wantSkipped)
	}

	byName := map[string]Info{}
	for _, i := range infos {
		byName[filepath.Base(i.Path)] = i
	}
	checkBranchesInfo(t, byName["branches.jsonl"])
	checkProblemFixtures(t, byName)

	all, skippedAll, err := List(context.Background(), []string{l.root, l.flat}, fixtureCwd, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(infos)+2 || len(skippedAll) != len(skipped)+1 {
		t.Errorf("allFolders listed %v, skipped %v", infoNames(all), skippedAll)
	}
	if !slices.ContainsFunc(all, func(i Info) bool { return i.Path == filepath.Join(other, "headerless.jsonl") }) {
		t.Errorf("allFolders: another folder's file without header is missing")
	}
}

func checkBranchesInfo(t *testing.T, got Info) {
	t.Helper()
	want := Info{
		Path:          got.Path,
		ID:            "0b1c2d3e-0000-7000-8000-000000000001",
		Cwd:           fixtureCwd,
		Created:       time.Date(2025, 1, 2, 10, 0, 0, 0, time.UTC),
		Modified:      got.Modified,
		Name:          "Login bug, take two",
		FirstPrompt:   "Fix the login bug",
		MessageCount:  7,
		Model:         "openai/gpt-4o",
		ParentSession: "/home/ada/.pi/agent/sessions/--home-ada-proj--/2025-01-01T09-00-00-000Z_0b1c2d3e-0000-7000-8000-000000000000.jsonl",
		// The fixture's folder does not exist on a test machine.
		FolderGone: FolderGone(fixtureCwd),
	}
	if !got.Created.Equal(want.Created) || !sameSessionInfo(got, want) {
		t.Errorf("branches.jsonl:\n got %+v\nwant %+v", got, want)
	}
}

func sameSessionInfo(a, b Info) bool {
	a.Created, b.Created = time.Time{}, time.Time{}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func checkProblemFixtures(t *testing.T, byName map[string]Info) {
	t.Helper()
	tr := byName["truncated.jsonl"]
	if !slices.Equal(tr.Problems, []string{"last line is truncated"}) || tr.MessageCount != 2 || tr.Model != "anthropic/claude-sonnet-4-5" {
		t.Errorf("truncated.jsonl: %+v", tr)
	}
	nh := byName[noHeaderFixture]
	if len(nh.Problems) != 1 || !strings.Contains(nh.Problems[0], "no session header") ||
		nh.ID != "0b1c2d3e-0000-7000-8000-000000000003" || nh.Cwd != "" || nh.MessageCount != 2 ||
		nh.FirstPrompt != "Where did my header go?" || !nh.Created.Equal(time.Date(2025, 1, 4, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("%s: %+v", noHeaderFixture, nh)
	}
	bl := byName["bad-line.jsonl"]
	if !slices.Equal(bl.Problems, []string{"line 3 is not a valid entry"}) || bl.MessageCount != 2 {
		t.Errorf("bad-line.jsonl: %+v", bl)
	}
	lg := byName["legacy-v1.jsonl"]
	if len(lg.Problems) != 0 || lg.MessageCount != 3 || lg.FirstPrompt != "An old linear session" || lg.Model != "anthropic/claude-3-5-sonnet" {
		t.Errorf("legacy-v1.jsonl: %+v", lg)
	}
}

// TestListSessionsRealFixture reads the file pi itself wrote.
func TestListSessionsRealFixture(t *testing.T) {
	l := newSessionLayout(t)
	path := l.put(t, l.flat, filepath.Base(realFixture), filepath.Base(realFixture), nil)
	var header struct{ Cwd string }
	data, _ := os.ReadFile(path)
	first, _, _ := strings.Cut(string(data), "\n")
	if err := json.Unmarshal([]byte(first), &header); err != nil {
		t.Fatal(err)
	}
	infos, skipped, err := List(context.Background(), []string{l.flat}, header.Cwd, false)
	if err != nil || len(skipped) != 0 || len(infos) != 1 {
		t.Fatalf("ListSessions = %+v, %+v, %v", infos, skipped, err)
	}
	checkRealSession(t, infos[0], header.Cwd)
	tree, leaf, err := ReadTree(path)
	if err != nil {
		t.Fatal(err)
	}
	checkRealTree(t, tree, leaf, false) // the recording is pi 0.73.1's
}

// TestListSessionsHugeLines: a tool result of many MB (no LF for longer than
// any scanner buffer) is counted without being decoded, and the first
// prompt is found even when it is itself longer than a line head.
func TestListSessionsHugeLines(t *testing.T) {
	l := newSessionLayout(t)
	big := strings.Repeat("x", 5<<20)
	prompt := strings.Repeat("word ", lineHead/4)
	lines := []string{
		`{"type":"session","version":3,"id":"big","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/p"}`,
		`{"type":"message","id":"1","parentId":null,"timestamp":"t","message":{"role":"user","content":[{"type":"text","text":"` + prompt + `"},{"type":"image","data":"` + big + `","mimeType":"image/png"}]}}`,
		`{"type":"message","id":"2","parentId":"1","timestamp":"t","message":{"role":"assistant","content":[{"type":"text","text":"` + big + `"}],"provider":"p","model":"m"}}`,
		`{"type":"message","id":"3","parentId":"2","timestamp":"t","message":{"role":"toolResult","toolCallId":"c","toolName":"read","content":[{"type":"text","text":"` + big + `"}]}}`,
		`{"type":"message","id":"4","parentId":"3","timestamp":"t","message":{"role":"toolResult","content":[{"type":"text","text":"` + big[:lineHead*2],
	}
	l.put(t, l.flat, "big.jsonl", "", []byte(strings.Join(lines, "\n")))
	infos, skipped, err := List(context.Background(), []string{l.flat}, "/p", false)
	if err != nil || len(skipped) != 0 || len(infos) != 1 {
		t.Fatalf("ListSessions = %+v, %+v, %v", infos, skipped, err)
	}
	got := infos[0]
	if got.MessageCount != 3 || got.Model != "p/m" || !slices.Equal(got.Problems, []string{"last line is truncated"}) {
		t.Errorf("got %d messages, model %q, problems %v", got.MessageCount, got.Model, got.Problems)
	}
	if want := promptLine(prompt, firstPromptRunes); got.FirstPrompt != want || !strings.HasSuffix(want, "…") {
		t.Errorf("FirstPrompt = %q", got.FirstPrompt)
	}
}

func TestListSessionsCancelled(t *testing.T) {
	l := newSessionLayout(t)
	l.put(t, l.flat, "a.jsonl", "branches.jsonl", nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := List(ctx, []string{l.flat}, fixtureCwd, true); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}

// TestListSessionsReadOnly: listing and reading trees leave files as they
// were, even those pi itself would rewrite (an old version) or reset (no
// header).
func TestListSessionsReadOnly(t *testing.T) {
	l := newSessionLayout(t)
	var paths []string
	for _, f := range []string{"legacy-v1.jsonl", "truncated.jsonl", noHeaderFixture} {
		p := l.put(t, l.flat, f, f, nil)
		if err := os.Chmod(p, 0o444); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	before := map[string]string{}
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		before[p] = string(b)
	}
	if _, _, err := List(context.Background(), []string{l.flat}, "", true); err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if _, _, err := ReadTree(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if b, _ := os.ReadFile(p); string(b) != before[p] {
			t.Errorf("%s changed", p)
		}
	}
}

func TestSearchSessions(t *testing.T) {
	infos := []Info{
		{ID: "1", Name: "Login bug", FirstPrompt: "fix it", Cwd: "/home/ada/proj", Model: "openai/gpt-4o"},
		{ID: "2", FirstPrompt: "Refactor the PARSER", Cwd: "/srv/tool", Model: "anthropic/claude-sonnet-4-5"},
		{ID: "3", Name: "Ünïcode", Cwd: "/home/ada/other", Model: "local/local-reasoner"},
	}
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"", []string{"1", "2", "3"}},
		{"  ", []string{"1", "2", "3"}},
		{"login", []string{"1"}},
		{"parser", []string{"2"}},
		{"home/ada", []string{"1", "3"}},
		{"ada GPT", []string{"1"}},
		{"claude", []string{"2"}},
		{"ünï", []string{"3"}},
		{"login parser", nil},
	} {
		var got []string
		for _, i := range Search(infos, c.query) {
			got = append(got, i.ID)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("SearchSessions(%q) = %v, want %v", c.query, got, c.want)
		}
	}
}

func TestSessionFolderName(t *testing.T) {
	for in, want := range map[string]string{
		"/home/ada/proj":  "--home-ada-proj--",
		`C:\Users\ada\p`:  "--C--Users-ada-p--",
		`\\server\share`:  "---server-share--",
		"relative/folder": "--relative-folder--",
	} {
		if got := FolderName(in); got != want {
			t.Errorf("sessionFolderName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestListSessionsHeaderWithoutCwd: a header that names no folder leaves the
// session to the folder its session folder's name encodes.
func TestListSessionsHeaderWithoutCwd(t *testing.T) {
	l := newSessionLayout(t)
	data := []byte(`{"type":"session","version":3,"timestamp":"2025-01-01T00:00:00.000Z"}` + "\n" +
		`{"type":"message","id":"1","parentId":null,"timestamp":"t","message":{"role":"user","content":"hi"}}` + "\n")
	l.put(t, l.folder(fixtureCwd), "2025-01-01T00-00-00-000Z_own.jsonl", "", data)
	l.put(t, l.folder("/elsewhere"), "2025-01-01T00-00-00-000Z_other.jsonl", "", data)
	infos, _, err := List(context.Background(), []string{l.root}, fixtureCwd, false)
	if err != nil || len(infos) != 1 || infos[0].ID != "own" || len(infos[0].Problems) != 2 {
		t.Fatalf("ListSessions = %+v, %v", infos, err)
	}
}
