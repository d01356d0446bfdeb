// Command record makes the benchmark streams in rpcconn/testdata from the
// real agent: it runs pi (package pienv) against the scripted model server
// (package llmserver), sends a prompt for a 600-delta markdown answer and one
// that makes the model call bash, and keeps every stdout line up to the
// second agent_end.
//
//	stream-cumulative.jsonl.gz  the lines exactly as pi 0.73.1 wrote them,
//	                            each message_update repeating the message so far
//	stream-delta.jsonl.gz       the same lines in the 0.9.2 shape: no message
//	                            or partial in message_update, usage added
//
// Run it from anywhere in the repository:
//
//	go run ./rpcconn/rpctest/record
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
)

// The prompts, sent one after the other, each waiting for its agent_end.
var prompts = []string{
	`{"id":"r1","type":"prompt","message":"[[long:600]] write a long answer"}`,
	`{"id":"r2","type":"prompt","message":"[[bash:seq 1 50]] count to fifty"}`,
}

func main() {
	out := flag.String("out", "", "folder for the recordings (default: rpcconn/testdata in the repository)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("record: ")
	if err := run(*out); err != nil {
		log.Fatal(err)
	}
}

func run(out string) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := pienv.RepoRoot(wd)
	if err != nil {
		return err
	}
	if out == "" {
		out = filepath.Join(root, "rpcconn", "testdata")
	}
	bin, err := pienv.Locate(root)
	if err != nil {
		return err
	}

	lines, err := record(bin, prompts)
	if err != nil {
		return err
	}
	if err := checkDeltasRebuildMessages(lines); err != nil {
		return fmt.Errorf("recorded stream is inconsistent: %w", err)
	}
	deltas, err := toDeltaFormat(lines)
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name  string
		lines [][]byte
	}{
		{"stream-cumulative.jsonl.gz", lines},
		{"stream-delta.jsonl.gz", deltas},
	} {
		path := filepath.Join(out, f.name)
		compressed, err := writeGzip(path, f.lines)
		if err != nil {
			return err
		}
		fmt.Println(describe(path, f.lines, compressed))
	}
	return nil
}
