// Command fake-llm runs the scripted model server of package llmserver on its
// own, for tests that run the agent from another process and for trying the
// desktop app by hand against a real agent without a real model.
//
// The first line on stdout is the base URL (http://127.0.0.1:PORT/v1). It
// serves until SIGTERM or SIGINT, or until stdin reaches EOF so that a parent
// that dies cannot leave it running.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"

	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
)

func main() {
	logPath := flag.String("log", "", "append every request to this file as JSON lines")
	port := flag.Int("port", 0, "the port of 127.0.0.1 to listen on (default: a free one), e.g. 11434 to pose as Ollama")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("fake-llm: ")

	s, err := llmserver.NewAt(*port)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	if *logPath != "" {
		if err := s.SetLogFile(*logPath); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(s.URL())

	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(done)
	}()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	select {
	case <-sig:
	case <-done:
	}
}
