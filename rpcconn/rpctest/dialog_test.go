package rpctest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDialogRoundTrip(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "stdin.log")
	f := startFake(t, "--fake-log="+log)
	f.call("prompt", "message", "please [[ext:confirm]]")
	req := f.untilType("extension_ui_request")
	dlg := req[len(req)-1]
	if dlg["method"] != "confirm" || dlg.str("title") == "" || dlg.str("id") == "" {
		t.Fatalf("dialog request = %v", dlg)
	}

	// The agent keeps answering while the dialog waits.
	if st := f.data("get_state"); st["isStreaming"] != true {
		t.Errorf("while a dialog waits the run is still streaming: %v", st)
	}

	answer := `{"type":"extension_ui_response","id":"` + dlg.str("id") + `","confirmed":true}`
	f.sendRaw(answer + "\n")
	recs := f.untilType("agent_settled")
	if text := deltaText(recs); !strings.Contains(text, `answered: {"confirmed":true}`) {
		t.Errorf("reply %q does not state the answer", text)
	}
	for _, r := range recs {
		if r.typ() == "response" {
			t.Errorf("an extension_ui_response must not be answered: %v", r)
		}
	}
	logged, err := os.ReadFile(log)
	if err != nil || !strings.Contains(string(logged), answer+"\n") {
		t.Errorf("the log lacks the exact response line (err %v):\n%s", err, logged)
	}
}

func TestDialogTimeoutUsesTheDefault(t *testing.T) {
	t.Parallel()
	f := startFake(t)
	f.call("prompt", "message", "[[ext:select:timeout=100]] [[ext:notify:warning]]")
	recs := f.untilType("agent_settled")
	var methods []string
	for _, r := range recs {
		if r.typ() == "extension_ui_request" {
			methods = append(methods, r.str("method"))
			if r["method"] == "select" && r["timeout"] != 100.0 {
				t.Errorf("select request = %v", r)
			}
			if r["method"] == "notify" && r["notifyType"] != "warning" {
				t.Errorf("notify request = %v", r)
			}
		}
	}
	if strings.Join(methods, " ") != "notify select" {
		t.Errorf("requests = %v", methods)
	}
	if text := deltaText(recs); !strings.Contains(text, "timed out: undefined") {
		t.Errorf("reply %q does not report the timeout", text)
	}
}

func TestExtensionCommandAnswersAfterItsDialog(t *testing.T) {
	t.Parallel()
	f := startFake(t)
	id := f.sendCommand("prompt", "message", "/fake-ask")
	req := f.untilType("extension_ui_request")
	for _, r := range req {
		if r.typ() == "response" {
			t.Fatalf("the prompt was answered before its dialog: %v", r)
		}
	}
	f.send(map[string]any{"type": "extension_ui_response", "id": req[len(req)-1]["id"], "cancelled": true})
	recs := f.until(func(r record) bool { return r["id"] == id })
	if n := recs[0]; n["method"] != "notify" || !strings.Contains(n.str("message"), `{"cancelled":true}`) {
		t.Errorf("after the dialog = %v", n)
	}
}
