package rpctest

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// script is what the markers in one user message ask of the reply. The
// per-script "done" flags make each misbehaviour happen once, however many
// turns the reply takes.
type script struct {
	markdown, think, length, branch       bool
	errorStop, retry, compact, summRetry  bool
	extError, crash, garbage, u2028, crlf bool
	noIDResponse, outOfOrder, splitWrites bool
	shutdown                              bool
	retryFailures, crashCode              int
	long, huge                            int
	lines, words                          int // [[lines:N]], [[words:N]]
	lineChunk                             int // [[lines:N:WORDS]]: words a delta
	word, mixedLine                       int // [[word:BYTES]], [[mixedline:BYTES]]
	blobChunk                             int // their delta size
	stall                                 time.Duration
	delay                                 time.Duration // 0: the agent's --fake-delay
	tools                                 []toolSpec
	dialogs                               []dialogSpec
	notices                               []noticeSpec
	label                                 string
	children                              []childSpec // [[child:MODE:SECONDS]]

	uiDone, toolsDone               bool
	garbageDone, stallDone, oooDone bool
}

type toolSpec struct{ name, arg string }

type dialogSpec struct {
	method  string
	timeout int // milliseconds; 0: none
}

type noticeSpec struct{ method, arg string }

// An argument runs to the first "]]", so a command may contain "]".
var markerPattern = regexp.MustCompile(`\[\[([a-z0-9-]+)(?::(.*?))?\]\]`)

// Markers lists the prompt markers the fake understands; the package
// documentation says what each does.
const Markers = "[[markdown]] [[think]] [[tool:NAME:ARG]] [[bash:CMD]] [[long:N]] [[error]] " +
	"[[retry]] [[retry:N]] [[compact]] [[summ-retry]] [[length]] [[slow:MS]] [[branch]] [[label:NAME]] " +
	"[[ext:select|confirm|input|editor[:timeout=MS]]] [[ext:notify|status|widget|title|editor-text[:ARG]]] " +
	"[[lines:N[:WORDS]]] [[words:N]] [[word:BYTES[:CHUNK]]] [[mixedline:BYTES[:CHUNK]]] " +
	"[[ext-error]] [[shutdown]] [[crash]] [[crash:CODE]] [[garbage]] [[huge:BYTES]] [[u2028]] [[crlf]] [[stall:MS]] " +
	"[[no-id-response]] [[out-of-order]] [[split-writes]] [[child:session|group|holding[:SECONDS]]]"

func parseScript(text string) *script {
	s := &script{}
	for _, m := range markerPattern.FindAllStringSubmatch(text, -1) {
		name, arg := m[1], m[2]
		switch name {
		case "markdown":
			s.markdown = true
		case "think":
			s.think = true
		case "length":
			s.length = true
		case "branch":
			s.branch = true
		case "label":
			s.label = arg
		case "error":
			s.errorStop = true
		case "retry":
			s.retry, s.retryFailures = true, 1
			if arg != "" {
				s.retryFailures = clampInt(arg, 1, 10)
			}
		case "compact":
			s.compact = true
		case "summ-retry":
			s.compact, s.summRetry = true, true
		case "ext-error":
			s.extError = true
		case "crash":
			s.crash, s.crashCode = true, 3
			if arg != "" {
				s.crashCode = clampInt(arg, 0, 255)
			}
		case "shutdown":
			s.shutdown = true
		case "garbage":
			s.garbage = true
		case "u2028":
			s.u2028 = true
		case "crlf":
			s.crlf = true
		case "no-id-response":
			s.noIDResponse = true
		case "out-of-order":
			s.outOfOrder = true
		case "split-writes":
			s.splitWrites = true
		case "long":
			s.long = clampInt(arg, 1, 1_000_000)
		case "huge":
			s.huge = parseSize(arg)
		case "lines":
			n, chunk, _ := strings.Cut(arg, ":")
			s.lines = clampInt(n, 1, 1_000_000)
			s.lineChunk = lineChunk
			if chunk != "" {
				s.lineChunk = clampInt(chunk, 1, 1_000_000)
			}
		case "words":
			s.words = clampInt(arg, 1, 10_000_000)
		case "word", "mixedline":
			size, chunk, _ := strings.Cut(arg, ":")
			s.blobChunk = blobChunk
			if chunk != "" {
				s.blobChunk = parseSize(chunk)
			}
			if name == "word" {
				s.word = parseSize(size)
			} else {
				s.mixedLine = parseSize(size)
			}
		case "stall":
			s.stall = time.Duration(clampInt(arg, 0, 3_600_000)) * time.Millisecond
		case "slow", "delay":
			s.delay = time.Duration(clampInt(arg, 0, 600_000)) * time.Millisecond
		case "bash":
			s.tools = append(s.tools, toolSpec{"bash", arg})
		case "tool":
			tool, targ, _ := strings.Cut(arg, ":")
			s.tools = append(s.tools, toolSpec{tool, targ})
		case "ext":
			s.addExt(arg)
		case "child":
			s.children = append(s.children, parseChild(arg))
		}
	}
	return s
}

func (s *script) addExt(arg string) {
	method, rest, _ := strings.Cut(arg, ":")
	switch method {
	case "select", "confirm", "input", "editor":
		d := dialogSpec{method: method}
		if v, ok := strings.CutPrefix(rest, "timeout="); ok {
			d.timeout = clampInt(v, 1, 3_600_000)
		}
		s.dialogs = append(s.dialogs, d)
	case "notify", "status", "widget", "title", "editor-text":
		s.notices = append(s.notices, noticeSpec{method, rest})
	}
}

// stripMarkers leaves the words of a prompt for the reply to quote.
func stripMarkers(text string) string {
	return strings.Join(strings.Fields(markerPattern.ReplaceAllString(text, " ")), " ")
}

// clampInt keeps a typo in a prompt from asking for something absurd.
func clampInt(s string, lo, hi int) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return lo
	}
	return min(max(n, lo), hi)
}

// parseSize reads "9437184", "512K", "9MiB" and the like, capped at 256 MiB.
func parseSize(s string) int {
	s = strings.TrimSpace(s)
	mult := 1
	for _, u := range []struct {
		suffix string
		mult   int
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"KB", 1000}, {"MB", 1000_000}, {"K", 1 << 10}, {"M", 1 << 20}, {"B", 1}} {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = v, u.mult
			break
		}
	}
	return clampInt(s, 1, (256<<20)/mult) * mult
}
