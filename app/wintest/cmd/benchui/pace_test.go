package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"knightcode.ai/desktop/app/wintest"
	"knightcode.ai/desktop/rpcconn/rpctest"
)

// The test binary is the pacer when benchui would be, and the fake agent
// behind it.
func TestMain(m *testing.M) {
	if os.Getenv(paceFakeEnv) != "" {
		os.Exit(runPacer(os.Args[1:]))
	}
	rpctest.RunIfChild()
	os.Exit(m.Run())
}

func TestClassify(t *testing.T) {
	var tl textLength
	lines := []struct {
		line string
		kind lineKind
		n    int
	}{
		{`{"type":"message_start","message":{"role":"assistant","content":[]}}`, otherLine, 0},
		{`{"type":"message_update","usage":{"input":1},"assistantMessageEvent":{"type":"text_start","contentIndex":0}}`, otherLine, 0},
		{`{"type":"message_update","usage":{"input":1},"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"héllo "}}`, textDeltaLine, 7},
		{`{"type":"message_update","usage":{"input":1},"assistantMessageEvent":{"type":"thinking_delta","contentIndex":1,"delta":"hmm"}}`, otherLine, 7},
		{`{"type":"message_update","usage":{"input":1},"assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"\"type\":\"text_end\""}}`, textDeltaLine, 24},
		{`{"type":"message_update","usage":{"input":1},"assistantMessageEvent":{"type":"text_end","contentIndex":0,"content":"x"}}`, textEndLine, 24},
		{`{"type":"message_end","message":{"role":"assistant"}}`, textEndLine, 24},
		{`{"type":"message_start","message":{"role":"user"}}`, otherLine, 0},
	}
	for _, l := range lines {
		if kind := tl.classify([]byte(l.line)); kind != l.kind || tl.n != l.n {
			t.Errorf("%s: kind %d, length %d; want %d, %d", l.line, kind, tl.n, l.kind, l.n)
		}
	}
}

// The pacer notes each reply's last text delta: when it went out and the
// length of the reply's text.
func TestPacerNotesTheLastTextDelta(t *testing.T) {
	path, env := rpctest.Command()
	log := filepath.Join(t.TempDir(), "pace-log.txt")
	cmd := exec.Command(path, "--mode", "rpc", "--no-session")
	cmd.Env = append(env, paceFakeEnv+"="+path, paceRateEnv+"=20000", paceLogEnv+"="+log)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { in.Close(); cmd.Wait() }()
	r := bufio.NewReaderSize(out, 1<<20)

	type got struct {
		text   int
		lastAt time.Time
	}
	run := func(i int, prompt string) got {
		fmt.Fprintf(in, `{"id":"%d","type":"prompt","message":%q}`+"\n", i, prompt)
		var g got
		for {
			line, err := r.ReadBytes('\n')
			if err == io.EOF || err != nil {
				t.Fatalf("%s: %v", prompt, err)
			}
			var rec struct {
				Type string
				E    struct{ Type, Delta string } `json:"assistantMessageEvent"`
			}
			json.Unmarshal(line, &rec)
			if rec.E.Type == "text_delta" {
				g.text += len(rec.E.Delta)
				g.lastAt = time.Now()
			}
			if rec.Type == "agent_settled" {
				return g
			}
		}
	}
	runs := []got{run(1, "[[word:100000:4096]]"), run(2, "[[long:300]]"), run(3, "[[mixedline:5000:100]]")}
	time.Sleep(50 * time.Millisecond)
	marks := wintest.ReadTrace(log)
	if len(marks) != len(runs) {
		t.Fatalf("%d notes for %d replies:\n%v", len(marks), len(runs), marks)
	}
	for i, m := range marks {
		if m.Event != "last-text-delta" || m.N() != runs[i].text {
			t.Errorf("reply %d: note %q %q, want last-text-delta %d", i+1, m.Event, m.Arg, runs[i].text)
		}
		// The note's time is what the pacer promises, so it is checked,
		// but loosely: the read here lags the write by well under a
		// millisecond, and by far more when the machine is busy.
		if d := m.T.Sub(runs[i].lastAt); d > time.Second || d < -time.Second {
			t.Errorf("reply %d: noted %v from when the last delta was read", i+1, d)
		}
	}
}
