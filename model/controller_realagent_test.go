package model

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightcode.ai/desktop/internal/testsupport"
	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
	"knightcode.ai/desktop/sessionfiles"
)

// TestSessionCommandsAgainstRealAgent runs the session features against
// the public agent pi with a session on disk: browse, rename, fork, clone,
// export, !command, switch, and a prompt template offered for "/".
func TestSessionCommandsAgainstRealAgent(t *testing.T) {
	if os.Getenv("KNIGHTCODE_E2E") != "1" && os.Getenv("KNIGHTCODE_PI") == "" {
		t.Skip("the real agent runs with KNIGHTCODE_E2E=1 (scripts/test.sh)")
	}
	srv := llmserver.Start(t)
	template, _ := filepath.Abs("testdata/prompts/fix-tests.md")
	env := pienv.Setup(t, srv.URL(), pienv.WithSessionDir(""), pienv.WithArgs("--prompt-template", template))
	s := NewSession()
	ui := &recordingUI{}
	c := NewController(s, ui, rpcconn.Options{Path: env.Binary, Args: env.Args, Env: env.Env, ExactEnv: true, Dir: env.WorkDir})
	c.Start()
	t.Cleanup(c.Shutdown)
	testsupport.Eventually(t, "pi connected", func() bool { return s.View(nil).Conn == ConnReady && len(s.Models()) > 0 })
	ctx := context.Background()

	idle := func() bool {
		v := s.View(nil)
		return !v.Running && len(v.Items) > 0 && !v.Items[len(v.Items)-1].Streaming
	}
	c.Send("first [[markdown]]", nil, false, nil)
	testsupport.Eventually(t, "first reply", func() bool { return idle() && len(s.View(nil).Items) >= 2 })
	c.Send("second question", nil, false, nil)
	testsupport.Eventually(t, "second reply", func() bool { return idle() && len(s.View(nil).Items) >= 4 })
	original := s.SessionFile()
	if original == "" {
		t.Fatal("pi keeps no session file")
	}

	c.Rename("real agent work")
	testsupport.Eventually(t, "renamed", func() bool { return s.View(nil).SessionName == "real agent work" })

	infos, _, err := c.Sessions(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	var listed *sessionfiles.Info
	for i := range infos {
		if infos[i].Path == original {
			listed = &infos[i]
		}
	}
	if listed == nil || listed.Name != "real agent work" || listed.MessageCount < 4 {
		t.Fatalf("session browser lists %+v", infos)
	}

	out := filepath.Join(t.TempDir(), "export.html")
	exported := make(chan string, 1)
	c.ExportHTML(out, func(p string) { exported <- p })
	written := <-exported
	b, err := os.ReadFile(written)
	if err != nil || !strings.Contains(exportedText(b), "second question") {
		t.Fatalf("export %s (%d bytes): %v", written, len(b), err)
	}

	c.RunBash("echo hi-from-bash")
	testsupport.Eventually(t, "!command output", func() bool {
		it := lastItem(s)
		return it.Kind == ChatBash && !it.Streaming && strings.Contains(it.Text, "hi-from-bash")
	})

	cmds, err := c.Commands(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, cmd := range cmds {
		if cmd.Name == "fix-tests" && cmd.Source == "prompt" {
			found = true
		}
	}
	if !found {
		t.Fatalf("prompt template not offered: %+v", cmds)
	}

	// Clone before forking: pi 0.73 cannot clone a fork that has no
	// entries yet (forking from the first prompt leaves it empty).
	c.Clone()
	testsupport.Eventually(t, "cloned", func() bool { return strings.Contains(lastItem(s).Text, "Cloned") })
	clone := s.SessionFile()
	if clone == original {
		t.Fatal("the clone did not get a session file of its own")
	}
	c.SwitchSession(original)
	testsupport.Eventually(t, "back in the first session", func() bool { return s.SessionFile() == original })

	forks, err := c.ForkMessages(ctx)
	if err != nil || len(forks) < 2 {
		t.Fatalf("fork messages %+v %v", forks, err)
	}
	c.Fork(forks[0].EntryID)
	testsupport.Eventually(t, "forked prompt back in the editor", func() bool {
		e := ui.snapshot().editor
		return len(e) > 0 && e[len(e)-1] == "first [[markdown]]"
	})
	testsupport.Eventually(t, "a new session file for the fork", func() bool { return s.SessionFile() != original })

	c.SwitchSession(original)
	testsupport.Eventually(t, "back in the first session", func() bool {
		v := s.View(nil)
		return s.SessionFile() == original && len(v.Items) >= 4 && v.Items[0].Text == "first [[markdown]]"
	})
}

// exportedText is the HTML export with its embedded session data decoded:
// pi puts the transcript in a base64 <script id="session-data"> block.
func exportedText(html []byte) string {
	text := string(html)
	const open = `id="session-data" type="application/json">`
	if i := strings.Index(text, open); i >= 0 {
		rest := text[i+len(open):]
		if j := strings.Index(rest, "<"); j >= 0 {
			if data, err := base64.StdEncoding.DecodeString(strings.TrimSpace(rest[:j])); err == nil {
				text += string(data)
			}
		}
	}
	return text
}
