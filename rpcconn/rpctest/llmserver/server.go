package llmserver

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Server is a running scripted model server. Its methods are safe for
// concurrent use.
type Server struct {
	ln   net.Listener
	http *http.Server
	url  string

	log    requestLog
	active atomic.Int64
	calls  atomic.Int64
	// handlers lets Close wait until no reply is still being written.
	handlers sync.WaitGroup
}

// TB is the part of testing.TB that Start needs; the package does not import
// testing so the fake-llm command can use it too.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// New starts a server on a free port of 127.0.0.1. It never listens on any
// other address: the agent under test must not be reachable from outside.
func New() (*Server, error) { return NewAt(0) }

// NewAt starts a server on the given port of 127.0.0.1 (0: a free one),
// for tests where it poses as a local model server at its usual port.
func NewAt(port int) (*Server, error) {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, fmt.Errorf("llmserver: listen on 127.0.0.1: %w", err)
	}
	s := &Server{ln: ln, url: "http://" + ln.Addr().String() + "/v1"}
	s.log.init()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", s.handleModels)
	mux.HandleFunc("POST /v1/chat/completions", s.handleCompletions)
	s.http = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		// Serve returns ErrServerClosed after Close; nothing else to report.
		_ = s.http.Serve(ln)
	}()
	return s, nil
}

// Start is New for tests: it fails the test on error and closes the server
// when the test ends.
func Start(t TB) *Server {
	t.Helper()
	s, err := New()
	if err != nil {
		t.Fatalf("%v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// URL returns the OpenAI base URL, http://127.0.0.1:PORT/v1.
func (s *Server) URL() string { return s.url }

// Active returns how many completion requests are being answered right now;
// it drops when a client disconnects mid-stream.
func (s *Server) Active() int { return int(s.active.Load()) }

// Close stops the server, cuts open streams and waits for their handlers to
// return. It is safe to call more than once.
func (s *Server) Close() error {
	err := s.http.Close()
	s.handlers.Wait()
	if lerr := s.log.close(); err == nil {
		err = lerr
	}
	return err
}

// handleModels lists the ids pienv configures, for clients that probe the
// server; completions answer whatever model a request names.
func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	list := modelList{Object: "list"}
	for _, id := range []string{"local-reasoner", "local-plain"} {
		list.Data = append(list.Data, modelInfo{ID: id, Object: "model", OwnedBy: "llmserver"})
	}
	_ = writeJSON(w, http.StatusOK, list)
}

func (s *Server) handleCompletions(w http.ResponseWriter, r *http.Request) {
	s.handlers.Add(1)
	defer s.handlers.Done()
	s.active.Add(1)
	defer func() {
		s.active.Add(-1)
		s.log.notify()
	}()

	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	req, err := decodeRequest(body)
	if err != nil {
		req.Authorization = r.Header.Get("Authorization")
		req.Reply = "bad-request"
		s.log.add(&req)
		_ = writeError(w, http.StatusBadRequest, "llmserver: request body is not a chat completion: "+err.Error())
		return
	}
	req.Authorization = r.Header.Get("Authorization")
	n := s.calls.Add(1)
	id := fmt.Sprintf("chatcmpl-%d", n)
	plan := planReply(req, fmt.Sprintf("call_%d", n))
	req.Reply = plan.name
	s.log.add(&req)

	// Write errors mean the client is gone; there is no one left to tell.
	switch {
	case plan.status != 0:
		_ = writeError(w, plan.status, fmt.Sprintf("llmserver: scripted error %d", plan.status))
	case req.Stream:
		_ = streamReply(r.Context(), w, req, plan, id)
	default:
		_ = writeCompletion(w, req, plan, id)
	}
}
