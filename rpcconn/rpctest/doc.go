// Package rpctest owns a scripted fake KnightCode agent that speaks the RPC
// protocol 0.9.2 (or, with --fake-older, the older agent's dialect) on stdin
// and stdout, so the protocol layer, the window and demos can be exercised
// without a model, a network or Node.js. Replies are chosen by markers in the
// prompt text, misbehaviour included, so every case is deterministic.
//
// It imports only the standard library.
//
// # Running it
//
// Tests re-execute their own binary as the agent:
//
//	func TestMain(m *testing.M) {
//		rpctest.RunIfChild() // first, before flags are parsed
//		os.Exit(m.Run())
//	}
//
//	path, env := rpctest.Command()
//	cmd := exec.Command(path, "--mode", "rpc", "--fake-delay=5ms")
//	cmd.Env = env
//
// Demos and window tests use the program in cmd/fake-knightcode.
//
// # Options
//
// The fake accepts and ignores any agent arguments (--mode rpc, --provider
// and so on). It honours --model PROVIDER/ID[:LEVEL] (or just ID),
// --thinking LEVEL, --name/-n NAME, --no-session, --session-dir DIR (save
// sessions there; without it sessions live in memory) and --session FILE.
// Like pi, switch_session refuses a file whose header names a working
// folder that no longer exists ("Stored session working directory does
// not exist: …").
// Its own flags may also come from the KNIGHTCODE_FAKE_ARGS environment
// variable (a JSON array of strings, or space-separated words); command-line
// flags are read after it. An unknown --fake-* flag exits 2.
//
//	--fake-model-set=SET          two (default: fake/fast, fake/thinker), one, many (42), none
//	--fake-delay=DURATION         pause before each streamed delta, tool update and bash chunk
//	--fake-older                  the older agent: see below
//	--fake-log=FILE               append every stdin line, as received, to FILE
//	--fake-stderr-lines=N         write N diagnostic lines to stderr at start
//	--fake-startup-delay=DURATION do not read stdin for this long (the agent starts slowly)
//	--fake-exit-at-once=CODE      write an error to stderr and exit with CODE
//	--fake-not-protocol[=MODE]    print a "Usage: foo" banner on stdout, then:
//	                              exit (default, code 1), wait (swallow stdin, exit 0 at EOF)
//	                              or continue (speak the protocol after all)
//	--fake-garbage-first          non-JSON lines and a JSON line without type before serving
//	--fake-ignore-stdin-close     keep running after stdin ends, until killed
//	--fake-ignore-sigterm         ignore SIGTERM (combine with the above to need SIGKILL)
//	--fake-exit-on-usr1=CODE      exit with CODE on SIGUSR1, mid-stream if a run streams,
//	                              tools left running: the agent ending by itself when a
//	                              test says (not on Windows)
//	--fake-cancel-switch          new_session, switch_session, fork, clone answer cancelled:true
//	--fake-parse-error=COMMAND    answer COMMAND with an id-less "parse" error, as if its
//	                              line were malformed
//	--fake-retry-delay=DURATION   wait before the first automatic retry (default 50ms;
//	                              doubling for each further one)
//	--fake-tui-command=NAME       get_commands also lists the extension command NAME, which
//	                              over RPC only notifies a warning "/NAME is available in
//	                              interactive mode" and succeeds, as pi 1.6's /llama does
//	--fake-messages-delay=DURATION  answer get_messages only after DURATION (other
//	                              commands are answered meanwhile)
//	--fake-messages-gate=FILE     answer get_messages only once FILE exists
//
// When stdin ends the fake exits 0 at once, between records.
//
// # Models
//
// fake/fast: reasoning false, text only, contextWindow 32000, levels "off".
// fake/thinker (chosen at start): reasoning true, text and image,
// contextWindow 200000, levels off minimal low medium high xhigh max.
//
// # Markers
//
// A prompt (or a queued steer or follow-up) may hold any number of markers;
// an argument runs to the first "]]". Without markers the reply is a short
// markdown text quoting the prompt.
//
//	[[markdown]]            heading, go code block, table, quote and list
//	[[think]]               a thinking block, then the text
//	[[tool:NAME:ARG]]       a tool call (bash: {"command":ARG}; read/ls: {"path":ARG};
//	[[bash:CMD]]            ...), run with growing tool_execution_update results, then
//	                        a second turn reporting it. edit: {"path":ARG,"edits":[one
//	                        replacement of a function]}, its result's details.diff as
//	                        pi's edit makes it (none when ARG ends in ":nodiff"); write:
//	                        {"path":ARG,"content":five lines}, no diff, as pi's write
//	[[long:N]]              a text of exactly N deltas
//	[[lines:N]]             N lines, each one sentence, a blank line between them (each
//	                        its own paragraph), 4 words a delta; [[lines:N:WORDS]]
//	                        WORDS words a delta
//	[[words:N]]             a long markdown answer of exactly N words (strings.Fields,
//	                        markup and code included): headings, paragraphs, lists and
//	                        fenced Go code, 8 words a delta
//	[[word:BYTES]]          one word of exactly BYTES bytes (suffixes as [[huge]]; no
//	                        space, newline or punctuation) in 64 KiB deltas;
//	                        [[word:BYTES:CHUNK]] sets the delta size
//	[[mixedline:BYTES]]     one line of exactly BYTES bytes of words, punctuation,
//	                        inline code, JSON, a URL and multibyte letters, without a
//	                        newline, in 64 KiB deltas cut on rune boundaries (:CHUNK too)
//	[[slow:MS]]             MS ms between deltas for this reply (beats --fake-delay)
//	[[error]]               half the text, then stopReason "error" with errorMessage
//	[[length]]              stopReason "length"
//	[[retry]], [[retry:N]]  N attempts (default 1) fail with a 529; auto-retry
//	                        (auto_retry_start/end, agent_end willRetry) up to 3 retries
//	[[compact]]             threshold compaction after the run, before agent_settled
//	[[summ-retry]]          as [[compact]], with summarization_retry_* events
//	[[branch]]              the prompt hangs off the parent of the previous user
//	                        message, leaving an abandoned branch in the tree
//	[[label:NAME]]          label the prompt's entry (get_tree shows it)
//	[[ext:select]], [[ext:confirm]], [[ext:input]], [[ext:editor]]
//	                        a dialog with a fresh id; append ":timeout=MS" for a
//	                        timeout. The run waits for the extension_ui_response
//	                        (other commands are still answered), then the reply says
//	                        `answered: {"confirmed":true}` (the response without type
//	                        and id), or `timed out: false` / `timed out: undefined`
//	[[ext:notify[:TYPE]]], [[ext:status[:TEXT|clear]]], [[ext:widget[:below|clear]]],
//	[[ext:title[:TEXT]]], [[ext:editor-text[:TEXT]]]
//	                        fire-and-forget requests ("clear" omits the field)
//	[[ext-error]]           an extension_error event
//	[[shutdown]]            an extension asks for shutdown: after agent_settled (agent_end
//	                        for the older agent) the fake exits 0 by itself
//
// Misbehaviour on cue:
//
//	[[crash]], [[crash:N]]  exit 3 (or N) after three deltas, with a message on stderr
//	[[garbage]]             a non-JSON line and a JSON line without type mid-stream
//	[[huge:BYTES]]          one text_delta of exactly BYTES (suffixes K, KiB, M, MiB)
//	[[u2028]]               text with U+2028 and U+2029, written raw (always so)
//	[[crlf]]                every record of the run ends with CRLF
//	[[stall:MS]]            stdout stops for MS ms mid-stream (responses wait too)
//	[[no-id-response]]      the prompt's response has no id
//	[[out-of-order]]        the prompt's response comes after the first delta
//	[[split-writes]]        records written in 1-7 byte pieces that cut UTF-8
//	                        sequences, with multibyte text in the reply
//	[[child:MODE:SECONDS]]  before the reply, start "sleep SECONDS" (default 300) and
//	                        leave it running, never waited for, as a tool the agent
//	                        started: MODE session = in a session and process group
//	                        of its own (setsid, as pi runs its tools), group = in the
//	                        fake's process group, holding = a session of its own that
//	                        keeps the fake's stdout and stderr open ("started child
//	                        PID" goes to stderr). On Windows the modes differ only by
//	                        holding
//
// Prompts /fake-hello and /fake-ask are extension commands: they run at once,
// even while streaming, and are answered when done (/fake-ask after its confirm
// dialog). /review and /skill:fake-search expand like a template and a skill.
// /fake-exit [CODE], not listed by get_commands, ends the fake at once with
// CODE (default 0), mid-stream if a run streams, as an extension calling
// process.exit would: an agent that exits by itself, or crashes.
//
// # Behaviour
//
// Every one of the 33 commands works on an in-memory session tree (entries
// with ids and parentIds; messages, model and thinking changes, compactions,
// labels, names). Responses echo the command's id; an unknown command gets
// "Unknown command: X" and a malformed line a "parse" response without id.
// Quick commands are answered in order; prompt runs, bash, compact and the
// session-replacing commands finish on their own goroutines, so responses
// can come out of order, as with the agent. All stdout goes through one
// writer, a record at a time.
//
// bash runs nothing: echo, seq, exit, true, false, pwd and sleep are
// imitated, anything else prints one line. Output over 2000 lines or 50 KiB
// is truncated to its tail, and the whole is saved to fullOutputPath.
//
// abort stops the run (message_end stopReason "aborted") and is answered
// after agent_end; queued messages stay queued. Messages queued after a run's
// last turn wait for the next prompt. export_html fails for an in-memory
// session, as the agent does.
//
// # The older agent
//
// --fake-stop-reading-at=TYPE stops reading stdin at the first command of
// that type (say prompt), which it neither handles nor logs, alive and
// silent (a hung agent, or one stuck in a tool): what is written to it waits
// in the pipe. With --fake-stop-reading-once=FILE only the run that creates
// FILE stops, so a restarted fake reads on.
//
// --fake-thinking-cap=LEVEL makes set_thinking_level above LEVEL take
// LEVEL, whatever the model lists: an agent answering another level than
// the one chosen.
//
// --fake-system-prompt sends pi 1.6's system message (role system, its
// prompt in sections) before a session's first turn and keeps it at the head
// of get_messages.
//
// --fake-older copies the differences measured on pi 0.73.1: no
// agent_settled; clear_queue, get_entries, get_tree and
// get_available_thinking_levels (and any unknown command) answered "Unknown
// command" without id, so queued messages cannot be taken back; message_update
// repeats the whole message in message and assistantMessageEvent.partial
// (and has no usage); no "max" and (models without a thinkingLevelMap) no
// "xhigh" level, and set_thinking_level takes the nearest level the model
// has ("xhigh" becomes "high", an unknown one "off"); thinking_level_changed and session_info_changed events; no
// summarization_retry_* events; get_commands items carry sourceInfo; the first
// tool_execution_update is {"content":[]}.
package rpctest
