package model

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	"knightcode.ai/desktop/rpcconn"
)

// ConnState is where the connection to the agent stands.
type ConnState int

const (
	ConnStarting ConnState = iota // started, not yet answered
	ConnReady                     // answered get_state; commands go through
	ConnExited                    // the agent ended (its Exit event came)
	ConnFailed                    // the agent could not be started
)

// Effects tell the controller what an event calls for beyond drawing.
type Effects struct {
	// Settled: a run ended; session stats are worth fetching. Stopped
	// says it ended because it was stopped (the agent's settle says
	// aborted, or, with an agent that does not, its reply was aborted).
	Settled, Stopped bool
	// ModelChanged: the thinking levels may differ now.
	ModelChanged bool
	// Dialogs are extension requests that wait for the user.
	Dialogs []*rpcconn.ExtensionUIRequest
	// Notices are notifications and extension errors to pop up.
	Notices []Notice
	// EditorText is text an extension wants in the editor.
	EditorText *string
	// GiveBack are texts the agent will never take, its queued steering
	// and follow-up messages when it ended, oldest first: they go back
	// to the editor, above what is typed there.
	GiveBack []string
}

// Session is the window's state built from the agent's events: transcript,
// live reply, tool runs, queue, run state, model and stats. It is a pure
// reducer — no Fyne, no I/O — with its own lock: the event goroutine applies
// events, the UI goroutine takes a View once per frame.
type Session struct {
	mu sync.Mutex
	// now is the clock, replaceable in tests.
	now func() time.Time

	items     []ChatItem
	nextID    int
	live      rpcconn.MessageBuilder
	liveIndex int
	// chatRev changes whenever items do, so a View can skip copying them.
	chatRev uint64
	// histGen counts the histories loaded (each replaces the transcript);
	// prepended counts the items older history put before the transcript
	// since, which shifts every index handed out (BashHandle).
	histGen   uint64
	prepended int
	// painted is set while the transcript shown was read from the session
	// file, before the agent's answer (history_paint.go); paintEpoch
	// changes whenever a paint that was asked for may no longer apply.
	painted    *paintMark
	paintEpoch uint64
	// firstPrompt is the whole transcript's first prompt while only its
	// end is shown (turnsPending): the session's title until the rest
	// comes.
	firstPrompt string

	tools     rpcconn.ToolTracker
	toolMeta  map[string]*toolMeta
	toolOrder []string
	toolsRev  uint64
	// toolsEnded counts live tool runs that ended (View.ToolsEnded).
	toolsEnded uint64
	// liveCalls are the tool calls of the reply being streamed, by
	// content index: their cards show before they run.
	liveCalls map[int]string
	turn      int
	// turnsPending: the history's older part is still being converted, so
	// turn numbers count from the shown part and are not shown yet.
	turnsPending bool
	// turnOffset is how many turns come before the shown part while its
	// older part is converted, when counted (countTurns): the cards number
	// their turns from the first screen on.
	turnOffset int

	run               rpcconn.RunTracker
	agentSendsSettled bool
	// runAborted: the run in progress (or the last one) was stopped.
	runAborted bool
	// capturing: a panel reads the notifications of a command it runs.
	capturing bool
	// notReading: a prompt has waited too long for the agent to take it.
	notReading bool
	// events counts the events applied: what the agent sent lately.
	events uint64
	// systemPrompt is the agent's system prompt in parts, as the newest
	// system message gave it (pi 1.6); nil when it gave none.
	systemPrompt       rpcconn.Sections
	steering, followUp []string
	// queueStays: the agent cannot give queued messages back (no
	// clear_queue); waiting are prompts held until it can take them.
	queueStays bool
	waiting    []string
	// agentName is what messages call the agent ("pi", "KnightCode").
	agentName string

	models      []rpcconn.Model
	model       *rpcconn.Model
	thinking    string
	levels      []string
	sessionName string
	sessionFile string
	stats       *rpcconn.SessionStats
	liveUsage   *rpcconn.Usage

	// bashRunning holds the !commands that run.
	bashRunning map[BashHandle]bool
	// retry is the automatic retry being waited for, if any.
	retry *RetryState

	conn       ConnState
	connDetail string
	exit       *rpcconn.Exit
	activity   string
	// slowStart: the agent has not answered its first command for a while;
	// startDetail is its stderr tail then, or why it could not start.
	slowStart   bool
	startDetail string
	BannerSeq   uint64

	extStatus  map[string]string
	extWidgets map[string]ExtWidget
	widgetsRev uint64
	title      string
	modes      AgentModes
	// refused are the agent's commands that said they do not run over
	// RPC (refused.go), sorted.
	refused []string

	rev uint64
}

// NewSession returns an empty session.
func NewSession() *Session {
	return &Session{now: time.Now, liveIndex: -1, toolMeta: map[string]*toolMeta{}, extStatus: map[string]string{},
		// Agents retry by default and get_state does not say otherwise.
		modes: AgentModes{AutoRetry: true}}
}

func (s *Session) touch() { s.rev++ }

func (s *Session) newID() string {
	s.nextID++
	return "m" + strconv.Itoa(s.nextID)
}

func (s *Session) appendItem(it ChatItem) int {
	it.ID = s.newID()
	it.Revision = 1
	s.items = append(s.items, it)
	s.chatRev++
	return len(s.items) - 1
}

func (s *Session) changeItem(i int, change func(*ChatItem)) {
	if i < 0 || i >= len(s.items) {
		return
	}
	change(&s.items[i])
	s.items[i].Revision++
	s.chatRev++
}

// Notice adds a line of the app's own to the transcript.
func (s *Session) Notice(level NoticeLevel, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notice(level, text)
}

func (s *Session) notice(level NoticeLevel, text string) {
	s.appendItem(ChatItem{Kind: ChatNotice, Level: level, Text: Plain(text)})
	s.touch()
}

// Apply folds one event into the session.
func (s *Session) Apply(ev rpcconn.Event) Effects {
	s.mu.Lock()
	defer s.mu.Unlock()
	var fx Effects
	s.touch()
	s.events++
	switch e := ev.(type) {
	case *rpcconn.AgentStart:
		if !s.run.Running() {
			s.runAborted = false
		}
	case *rpcconn.AgentSettled:
		s.runAborted = s.runAborted || e.Aborted
	case *rpcconn.MessageEnd:
		if e.Message.Role == rpcconn.RoleAssistant {
			s.runAborted = e.Message.StopReason == rpcconn.StopReasonAborted
		}
	}
	if s.run.Apply(ev, s.agentSendsSettled) {
		fx.Settled = true
		fx.Stopped = s.runAborted
		s.activity = ""
		s.retry = nil
	}
	switch e := ev.(type) {
	case *rpcconn.MessageStart:
		s.messageStart(e.Message)
	case *rpcconn.MessageUpdate:
		changed := s.live.Apply(e)
		if changed && e.Usage != nil {
			u := *e.Usage
			s.liveUsage = &u
		}
		if changed {
			s.streamedCall(&e.Delta)
		}
	case *rpcconn.MessageEnd:
		s.messageEnd(e)
	case *rpcconn.TurnStart:
		s.turn++
	case *rpcconn.ToolExecutionStart, *rpcconn.ToolExecutionUpdate, *rpcconn.ToolExecutionEnd:
		s.toolEvent(ev)
	case *rpcconn.QueueUpdate:
		s.steering, s.followUp = e.Steering, e.FollowUp
	case *rpcconn.AgentEnd:
		s.liveUsage = nil
	case *rpcconn.CompactionStart:
		s.activity = "Compacting context (" + e.Reason + ")…"
	case *rpcconn.CompactionEnd:
		s.compactionEnd(e)
	case *rpcconn.AutoRetryStart:
		s.retry = &RetryState{Attempt: e.Attempt, Max: e.MaxAttempts, At: s.now().Add(time.Duration(e.DelayMs) * time.Millisecond), Error: e.ErrorMessage}
		s.activity = fmt.Sprintf("Retrying %d/%d in %.0fs", e.Attempt, e.MaxAttempts, float64(e.DelayMs)/1000)
		s.notice(NoticeWarning, fmt.Sprintf("Retry %d of %d in %.1f s after: %s", e.Attempt, e.MaxAttempts, float64(e.DelayMs)/1000, e.ErrorMessage))
	case *rpcconn.AutoRetryEnd:
		s.retry = nil
		s.activity = ""
		if !e.Success {
			s.notice(NoticeError, fmt.Sprintf("Gave up after %d attempts: %s", e.Attempt, e.FinalError))
		}
	case *rpcconn.SummarizationRetryScheduled:
		s.retry = &RetryState{Attempt: e.Attempt, Max: e.MaxAttempts, At: s.now().Add(time.Duration(e.DelayMs) * time.Millisecond), Error: e.ErrorMessage, Summary: true}
		s.activity = fmt.Sprintf("Summary retry %d/%d in %.0fs", e.Attempt, e.MaxAttempts, float64(e.DelayMs)/1000)
	case *rpcconn.SummarizationRetryAttemptStart:
		s.activity = "Retrying summary (" + e.Source + ")…"
	case *rpcconn.SummarizationRetryFinished:
		s.retry = nil
		s.activity = ""
	case *rpcconn.ExtensionError:
		text := fmt.Sprintf("Extension error in %s (%s): %s", e.ExtensionPath, e.Event, e.Error)
		s.notice(NoticeError, text)
		fx.Notices = append(fx.Notices, Notice{Time: s.now(), Text: Plain(text), Level: NoticeError, Source: "extension_error"})
	case *rpcconn.ThinkingLevelChanged:
		s.thinking = e.Level
	case *rpcconn.SessionInfoChanged:
		s.sessionName = e.Name
	case *rpcconn.ExtensionUIRequest:
		s.extensionRequest(e, &fx)
	case *rpcconn.ProtocolError:
		s.protocolError(e)
	case *rpcconn.Exit:
		fx.GiveBack = s.exited(e)
	}
	return fx
}

func (s *Session) messageStart(m rpcconn.Message) {
	switch m.Role {
	case rpcconn.RoleAssistant:
		s.live.Apply(&rpcconn.MessageStart{Message: m})
		s.liveIndex = s.appendItem(ChatItem{Kind: ChatAssistant, Streaming: true, Meta: messageMeta(m)})
	case rpcconn.RoleToolResult, rpcconn.RoleBashExecution:
		// Tool output lives in the sidebar, from tool_execution_* events;
		// a !command's output is already on screen from its own run.
	case rpcconn.RoleSystem:
		// The system prompt is no chat turn; it can be read apart.
		s.systemPrompt = m.Sections
	case rpcconn.RoleUser:
		it, _ := s.historyItem(m)
		// The agent's echo of a prompt shown as waiting becomes its
		// record in place.
		if i := s.takeWaiting(); i >= 0 {
			s.changeItem(i, func(w *ChatItem) {
				id, rev := w.ID, w.Revision
				*w = it
				w.ID, w.Revision = id, rev
			})
			s.updateNotReading()
			return
		}
		s.appendItem(it)
	default:
		if it, ok := s.historyItem(m); ok {
			s.appendItem(it)
		}
	}
}

func (s *Session) messageEnd(e *rpcconn.MessageEnd) {
	if e.Message.Role == rpcconn.RoleToolResult {
		s.liveToolResult(e.Message)
	}
	if e.Message.Role != rpcconn.RoleAssistant {
		return
	}
	s.live.Apply(e)
	switch e.Message.StopReason {
	case rpcconn.StopReasonError, rpcconn.StopReasonAborted:
		s.endLiveCalls(&e.Message, false)
	default:
		s.endLiveCalls(&e.Message, true)
	}
	i := s.liveIndex
	s.liveIndex = -1
	if i < 0 {
		// An end without a start (older agents after an error).
		i = s.appendItem(ChatItem{Kind: ChatAssistant})
	}
	s.finishAssistant(i, e.Message)
}

func (s *Session) finishAssistant(i int, m rpcconn.Message) {
	blocks := assistantBlocks(m.Content, s.toolStatus)
	s.changeItem(i, func(it *ChatItem) {
		it.Blocks = blocks
		it.Streaming = false
		it.Meta = messageMeta(m)
		it.StopReason = m.StopReason
		it.ErrorMessage = m.ErrorMessage
		switch m.StopReason {
		case rpcconn.StopReasonError, rpcconn.StopReasonAborted, rpcconn.StopReasonLength:
		default:
			// "stop" and "toolUse" are the ordinary ends: nothing to say.
			it.StopReason = ""
		}
	})
	s.linkToolChips(i, m.Content)
}

func (s *Session) compactionEnd(e *rpcconn.CompactionEnd) {
	s.activity = ""
	switch {
	case e.Aborted:
		s.notice(NoticeWarning, "Compaction aborted")
	case e.Result == nil:
		s.notice(NoticeError, "Compaction failed: "+e.ErrorMessage)
	default:
		text := e.Result.Summary
		s.appendItem(ChatItem{Kind: ChatCompaction, Text: text,
			Meta: fmt.Sprintf("Compacted (%s): %s → ~%s tokens", e.Reason, formatTokens(e.Result.TokensBefore), formatTokens(e.Result.EstimatedTokensAfter))})
	}
}

func (s *Session) extensionRequest(e *rpcconn.ExtensionUIRequest, fx *Effects) {
	switch e.Method {
	case rpcconn.UINotify:
		level := NoticeInfo
		switch e.NotifyType {
		case "warning":
			level = NoticeWarning
		case "error":
			level = NoticeError
		}
		// A command whose output a panel reads (CommandOutput) answers
		// there, not in the transcript.
		if !s.capturing {
			s.notice(level, e.Message)
		}
		s.learnRefused(e.Message)
		fx.Notices = append(fx.Notices, Notice{Time: s.now(), Text: Plain(e.Message), Level: level, Source: "Extension"})
	case rpcconn.UISetStatus:
		if e.StatusText == nil {
			delete(s.extStatus, e.StatusKey)
		} else {
			s.extStatus[e.StatusKey] = Plain(*e.StatusText)
		}
	case rpcconn.UISetTitle:
		s.title = Plain(e.Title)
	case rpcconn.UISetWidget:
		s.setWidget(e)
	case rpcconn.UISetEditorText:
		text := e.Text
		fx.EditorText = &text
	default:
		if e.IsDialog() {
			fx.Dialogs = append(fx.Dialogs, e)
		}
	}
}

func (s *Session) protocolError(e *rpcconn.ProtocolError) {
	// An older agent's "Unknown command" for a probe the user never asked
	// for is expected, not news.
	if e.Response != nil && !e.Response.Success && len(e.Response.Error) >= 15 && e.Response.Error[:15] == "Unknown command" {
		return
	}
	s.notice(NoticeWarning, "The agent sent something unexpected: "+e.Error())
}

// exited records the agent's exit. The banner reports it, once: the
// transcript only marks a reply the exit cut short. It returns the queued
// messages the agent took with it, to give back.
func (s *Session) exited(e *rpcconn.Exit) (lost []string) {
	s.exit = e
	s.BannerSeq++
	s.retry = nil
	for h := range s.bashRunning {
		// The agent died with the command: it ran until now.
		s.changeItem(s.bashIndex(h), func(it *ChatItem) {
			it.Streaming, it.Ended, it.StopReason = false, s.now(), StopInterrupted
		})
	}
	s.bashRunning = nil
	s.conn = ConnExited
	lost = s.takeQueueBack()
	s.liveUsage = nil
	s.endLiveCalls(nil, false)
	for _, id := range append([]string(nil), s.toolOrder...) {
		s.unlist(id) // calls that had not started will not
	}
	if i := s.liveIndex; i >= 0 {
		s.liveIndex = -1
		m := s.live.Message()
		s.finishAssistant(i, m)
		s.changeItem(i, func(it *ChatItem) { it.StopReason, it.ErrorMessage = StopInterrupted, interruptedNote })
	}
	for _, m := range s.toolMeta {
		if !m.started.IsZero() && m.ended.IsZero() {
			m.ended = s.now()
			m.rev++
			s.toolsRev++
		}
	}
	return lost
}
