package modelsetup

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

func TestProbeFindsServersOnLoopback(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(`{"object":"list","data":[{"id":"qwen2.5-coder:7b"},{"id":"llama3:8b"}]}`))
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	p, _ := strconv.Atoi(port)
	// A port nothing listens on: taken and closed.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	free := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	found := probeKinds(context.Background(), "127.0.0.1", []LocalKind{{"Nothing", free, "none"}, {"Ollama", p, "ollama"}})
	if len(found) != 1 || found[0].Name != "Ollama" || found[0].BaseURL != "http://127.0.0.1:"+port+"/v1" ||
		strings.Join(found[0].Models, ",") != "llama3:8b,qwen2.5-coder:7b" {
		t.Fatalf("found %+v", found)
	}
	typed := ProbeURL(context.Background(), "localhost:"+port)
	if typed.Err != nil || typed.BaseURL != "http://localhost:"+port+"/v1" || len(typed.Models) != 2 {
		t.Fatalf("typed: %+v", typed)
	}
	none := ProbeURL(context.Background(), "127.0.0.1:"+strconv.Itoa(free))
	if none.Err == nil || !strings.Contains(none.Err.Error(), "nothing answers at") {
		t.Errorf("nothing there: %v", none.Err)
	}
}

func TestProbeSaysWhatIsWrong(t *testing.T) {
	for body, want := range map[string]string{
		`{"data":[]}`: "has no models",
		`<html>`:      "did not answer with a model list",
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }))
		s := ProbeURL(context.Background(), srv.URL)
		srv.Close()
		if s.Err == nil || !strings.Contains(s.Err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, s.Err, want)
		}
	}
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	if s := ProbeURL(context.Background(), srv.URL+"/api"); s.Err == nil || !strings.Contains(s.Err.Error(), "/api/models answered 404") {
		t.Errorf("404: %v", s.Err)
	}
}

func TestNormalizeBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"localhost:8080":                   "http://localhost:8080/v1",
		" http://127.0.0.1:11434/ ":        "http://127.0.0.1:11434/v1",
		"http://127.0.0.1:11434/v1/models": "http://127.0.0.1:11434/v1",
		"https://gpu.lan/openai/v1":        "https://gpu.lan/openai/v1",
	} {
		if got, err := NormalizeBaseURL(in); err != nil || got != want {
			t.Errorf("%q → %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "ftp://x", "http://"} {
		if _, err := NormalizeBaseURL(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	u, _ := NormalizeBaseURL("192.168.1.5:8080")
	if s := ProbeURL(context.Background(), u); s.Provider != "server-192-168-1-5-8080" {
		t.Errorf("provider name %q", s.Provider)
	}
}

func TestConfigFromHelp(t *testing.T) {
	help := "Environment Variables:\n  PI_CODING_AGENT_DIR              - Config directory (default: ~/.pi/agent)\n"
	c := configFromHelp(help, []string{"HOME=/home/u"})
	if c.Dir != "/home/u/.pi/agent" || c.DirEnv != "PI_CODING_AGENT_DIR" || c.ModelsFile() != "/home/u/.pi/agent/models.json" {
		t.Errorf("default: %+v", c)
	}
	c = configFromHelp(help, []string{"HOME=/home/u", "PI_CODING_AGENT_DIR=/etc/pi"})
	if c.Dir != "/etc/pi" || c.DirFrom != "$PI_CODING_AGENT_DIR" {
		t.Errorf("from the environment: %+v", c)
	}
	if c := configFromHelp("usage: knightcode --mode rpc\n", nil); c.Known() {
		t.Errorf("an agent that names no folder: %+v", c)
	}
}
