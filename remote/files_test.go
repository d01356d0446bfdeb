package remote_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"knightcode.ai/desktop/remote"
	"knightcode.ai/desktop/remote/sshtest"
	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/sessionfiles"
)

func TestRemoteFiles(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{})
	h := srv.Host()
	ctx := testContext(t)

	home, entries, err := h.ReadDir(ctx, "~")
	if err != nil || home != srv.Home {
		t.Fatalf("ReadDir(~) = %q, %v", home, err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		if e.Name() == "bin" && !e.Dir || e.Name() == ".profile" && (e.Dir || e.Size == 0 || e.Modified.IsZero()) {
			t.Errorf("entry %+v", e)
		}
	}
	if !slices.Equal(names, []string{".profile", "bin"}) {
		t.Errorf("ReadDir(~) names %q", names)
	}
	if _, _, err := h.ReadDir(ctx, "no such"); h.Classify(err) == nil || h.Classify(err).Kind != remote.FolderMissing {
		t.Errorf("ReadDir of a missing folder: %v", err)
	}

	// Every byte value, in a file whose name a shell would mangle.
	var data []byte
	for i := 0; i < 4096; i++ {
		data = append(data, byte(i), byte(i*7), '\n')
	}
	name := `export "it's" $x;*.html`
	remotePath := srv.Home + "/" + name
	if err := os.WriteFile(remotePath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(t.TempDir(), "copy.html")
	if err := h.CopyFile(ctx, remotePath, local); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(local); !bytes.Equal(got, data) {
		t.Fatalf("the copy has %d bytes, want the %d sent", len(got), len(data))
	}
	var buf bytes.Buffer
	if err := h.ReadFile(ctx, "~/"+name, &buf); err != nil || !bytes.Equal(buf.Bytes(), data) {
		t.Fatalf("ReadFile(~/…): %d bytes, %v", buf.Len(), err)
	}

	missing := filepath.Join(t.TempDir(), "never.html")
	err = h.CopyFile(ctx, srv.Home+"/gone.html", missing)
	if e := h.Classify(err); e == nil || e.Kind != remote.FileMissing || !strings.Contains(e.Message, "gone.html") {
		t.Fatalf("copying a missing file: %v", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a failed copy left %s behind", missing)
	}

	there, err := h.FoldersExist(ctx, []string{srv.Home, srv.Bin, srv.Home + "/nope", remotePath})
	if err != nil || !there[srv.Home] || !there[srv.Bin] || there[srv.Home+"/nope"] || there[remotePath] {
		t.Fatalf("FoldersExist = %v, %v", there, err)
	}
}

// An HTML export the remote agent wrote comes back to a local file.
func TestExportCopiedBack(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{})
	fakeAgent(t, srv, "knightcode")
	spec := remote.Spec{Host: srv.Host(), Args: []string{"--session-dir", srv.Home + "/sessions"}}
	c := startSpec(t, spec)
	if err := c.Prompt(testContext(t), rpcconn.Prompt{Message: "export me"}); err != nil {
		t.Fatal(err)
	}
	collectRun(t, c)
	remotePath, err := c.ExportHTML(testContext(t), "")
	if err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(t.TempDir(), "session.html")
	if err := spec.Host.CopyFile(testContext(t), remotePath, local); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(local); !strings.Contains(string(got), "<html") || !strings.Contains(string(got), "export me") {
		t.Fatalf("the local copy of %s: %q", remotePath, got)
	}
}

func TestRemoteSessionFiles(t *testing.T) {
	t.Parallel()
	srv := sshtest.Start(t, sshtest.Options{
		// The agent's variables come from the login environment.
		Profile: `PI_CODING_AGENT_DIR="$HOME/pi agent"; export PI_CODING_AGENT_DIR`,
	})
	fakeAgent(t, srv, "knightcode")
	h := srv.Host()
	ctx := testContext(t)

	t.Run("roots", func(t *testing.T) {
		roots, err := h.SessionRoots(ctx, nil, "")
		want := []string{srv.Home + "/.knightcode/agent/sessions", srv.Home + "/pi agent/sessions"}
		if err != nil || !slices.Equal(roots, want) {
			t.Fatalf("SessionRoots = %q, %v; want %q", roots, err, want)
		}
		mkdir(t, srv.Home+"/.knightcode/agent")
		os.WriteFile(srv.Home+"/.knightcode/agent/settings.json", []byte(`{"sessionDir": "~/kc sessions"}`), 0o644)
		roots, err = h.SessionRoots(ctx, nil, "")
		want[0] = srv.Home + "/kc sessions"
		if err != nil || !slices.Equal(roots, want) {
			t.Fatalf("with settings.json: SessionRoots = %q, %v; want %q", roots, err, want)
		}
		mkdir(t, srv.Home+"/proj")
		roots, err = h.SessionRoots(ctx, []string{"--session-dir", "rel/dir"}, "proj")
		if err != nil || !slices.Equal(roots, []string{srv.Home + "/proj/rel/dir"}) {
			t.Fatalf("with a relative --session-dir: %q, %v", roots, err)
		}
	})

	sessions := srv.Home + "/session files"
	args := []string{"--session-dir", sessions}
	work, other := srv.Home+"/my project", srv.Home+"/other"
	mkdir(t, work)
	mkdir(t, other)
	run := func(dir, prompt string, more ...string) string {
		c := startSpec(t, remote.Spec{Host: h, Dir: dir, Args: append(slices.Clone(args), more...)})
		if err := c.Prompt(testContext(t), rpcconn.Prompt{Message: prompt}); err != nil {
			t.Fatal(err)
		}
		collectRun(t, c)
		st, err := c.GetState(testContext(t))
		if err != nil {
			t.Fatal(err)
		}
		c.Close()
		return st.SessionFile
	}
	mine := run(work, "first prompt")
	theirs := run(other, "elsewhere")

	roots, err := h.SessionRoots(ctx, args, work)
	if err != nil || !slices.Equal(roots, []string{sessions}) {
		t.Fatalf("SessionRoots = %q, %v", roots, err)
	}
	mirror := remote.NewSessionMirror(h, t.TempDir())
	infos, skipped, err := mirror.List(ctx, roots, work, false)
	if err != nil || len(infos) != 1 || len(skipped) != 0 {
		t.Fatalf("List = %+v, %+v, %v", infos, skipped, err)
	}
	if in := infos[0]; in.Path != mine || in.FirstPrompt != "first prompt" || in.Cwd != work || in.FolderGone {
		t.Fatalf("info %+v; want the remote file %s", in, mine)
	}
	// Listing fetched it: a window opening it paints from that copy
	// without asking the host (model.Controller.paintFromFile).
	copied, ok := mirror.Copy(mine)
	if _, err := os.Stat(copied); !ok || err != nil {
		t.Fatalf("Copy(%s) = %q, %v (%v) after listing", mine, copied, ok, err)
	}
	if _, ok := mirror.Copy(sessions + "/never.jsonl"); ok {
		t.Fatal("Copy: a copy of a file never fetched")
	}
	local, err := mirror.Local(ctx, mine)
	if err != nil || local != copied {
		t.Fatalf("Local = %q, %v; Copy said %q", local, err, copied)
	}
	msgs, err := sessionfiles.ReadTranscript(local)
	if err != nil || len(msgs) < 2 || msgs[0].Content.Text() != "first prompt" {
		t.Fatalf("ReadTranscript(local copy) = %d messages, %v", len(msgs), err)
	}

	// Nothing changed: one connection lists, nothing is fetched.
	before := len(srv.LogLines("Accepted publickey"))
	began := time.Now()
	if _, err := mirror.Sync(ctx, roots); err != nil {
		t.Fatal(err)
	}
	t.Logf("a Sync with nothing new took %v", time.Since(began).Round(time.Millisecond))
	if n := len(srv.LogLines("Accepted publickey")) - before; n != 1 {
		t.Errorf("a Sync with nothing new made %d connections, want 1", n)
	}

	// The other folder goes away; a session resumed there grows.
	run(work, "second prompt", "--session", mine)
	if err := os.RemoveAll(other); err != nil {
		t.Fatal(err)
	}
	infos, _, err = mirror.List(ctx, roots, work, true)
	if err != nil || len(infos) != 2 {
		t.Fatalf("List(all) = %+v, %v", infos, err)
	}
	for _, in := range infos {
		switch in.Path {
		case mine:
			if in.MessageCount != 4 || in.FolderGone {
				t.Errorf("resumed session: %+v", in)
			}
		case theirs:
			if !in.FolderGone {
				t.Errorf("the session of a removed folder: %+v", in)
			}
		default:
			t.Errorf("unexpected %+v", in)
		}
	}

	// A removed session file goes from the copies too.
	if err := os.Remove(theirs); err != nil {
		t.Fatal(err)
	}
	infos, _, err = mirror.List(ctx, roots, work, true)
	if err != nil || len(infos) != 1 || infos[0].Path != mine {
		t.Fatalf("after removing %s: %+v, %v", theirs, infos, err)
	}
}
