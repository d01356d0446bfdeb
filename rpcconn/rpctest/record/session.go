package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"knightcode.ai/desktop/rpcconn/rpctest/llmserver"
	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
)

// record runs pi in RPC mode and returns its stdout lines, each with its
// LF, from the start up to and including the agent_end of the last prompt.
func record(bin string, prompts []string) ([][]byte, error) {
	srv, err := llmserver.New()
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	dir, err := os.MkdirTemp("", "record-pi-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	env, err := pienv.Prepare(bin, dir, srv.URL())
	if err != nil {
		return nil, err
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := env.Command(ctx, "--mode", "rpc")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	// Make sure pi is gone before its temporary HOME is removed.
	defer func() {
		stdin.Close()
		_ = cmd.Wait()
	}()

	r := bufio.NewReaderSize(stdout, 1<<20)
	var lines [][]byte
	for _, p := range prompts {
		if _, err := io.WriteString(stdin, p+"\n"); err != nil {
			return nil, fmt.Errorf("send %s: %w", p, err)
		}
		if lines, err = readUntilAgentEnd(r, lines); err != nil {
			return nil, fmt.Errorf("%w; pi's stderr:\n%s", err, stderr.String())
		}
	}
	return lines, nil
}

func readUntilAgentEnd(r *bufio.Reader, lines [][]byte) ([][]byte, error) {
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return lines, fmt.Errorf("pi's stdout ended before agent_end: %w", err)
		}
		lines = append(lines, line)
		if recordType(line) == "agent_end" {
			return lines, nil
		}
	}
}

func recordType(line []byte) string {
	var head struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(line, &head)
	return head.Type
}
