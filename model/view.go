package model

import (
	"slices"
	"time"

	"knightcode.ai/desktop/rpcconn"
)

// View is what the window draws, taken from a Session once per frame.
// Slices are the View's own: the session goes on changing meanwhile.
type View struct {
	// Rev changes whenever anything in the session does.
	Rev uint64

	Items    []ChatItem
	chatRev  uint64
	liveVer  uint64
	Cards    []ToolCard
	toolsRev uint64

	Status             Status
	Steering, FollowUp []string
	// Waiting are prompts held until the agent can take them; QueueNote
	// says what becomes of the messages in the queue strip.
	Waiting   []string
	QueueNote string
	Running   bool

	Models        []ModelChoice
	ModelProvider string
	ModelID       string
	ModelAccepts  bool
	Levels        []string
	Thinking      string
	SessionName   string
	Title         string
	// FirstPrompt is the transcript's first prompt while only its end is
	// in Items (a long session loading), "" once Items start it.
	FirstPrompt string

	Conn ConnState
	Exit *rpcconn.Exit
	// Banner is what the banner above the chat says, or nil for none.
	Banner *BannerState

	// Widgets are the extensions' text blocks by key; WidgetsRev changes
	// when any of them does.
	Widgets    map[string]ExtWidget
	WidgetsRev uint64
	// ModelName names the current model for messages.
	ModelName string
	// BashRunning is true while a !command runs.
	BashRunning bool
	// Retry is the automatic retry being waited for, if any.
	Retry *RetryState
	// ToolsEnded counts the tool runs that ended in this window: a tool
	// may have changed files, so what shows the folder's changes looks again.
	ToolsEnded uint64
	// Refused are the agent's commands that said, when run, that they do
	// not run here (pi 1.6's /llama: "available in interactive mode"),
	// sorted; learned in this session, for the app to remember.
	Refused []string
}

// RetryState is a pending automatic retry.
type RetryState struct {
	Attempt, Max int
	// At is when the next attempt starts.
	At    time.Time
	Error string
	// Summary is true for a compaction or branch-summary retry.
	Summary bool
}

// Rev is the View's Rev if one were taken now.
func (s *Session) Rev() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rev
}

// ReplyStreaming says whether a reply is arriving now (between its
// message_start and message_end, from an agent still connected): the
// window paces its redraws by it.
func (s *Session) ReplyStreaming() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live.Streaming() && s.conn == ConnReady
}

// View returns the state to draw. prev (may be nil) is the previous View:
// what did not change since is reused rather than copied again, so a frame
// during streaming costs the live reply, not the whole transcript.
func (s *Session) View(prev *View) View {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := View{Rev: s.rev, ToolsEnded: s.toolsEnded}
	if prev != nil {
		v.Items, v.chatRev, v.liveVer = prev.Items, prev.chatRev, prev.liveVer
		v.Cards, v.toolsRev = prev.Cards, prev.toolsRev
	}
	if prev == nil || v.chatRev != s.chatRev || (s.liveIndex >= 0 && v.liveVer != s.live.Version()) {
		v.Items = append(make([]ChatItem, 0, len(s.items)), s.items...)
		if i := s.liveIndex; i >= 0 {
			v.Items[i] = s.liveItem(v.Items[i])
		}
		v.chatRev, v.liveVer = s.chatRev, s.live.Version()
	}
	if prev == nil || v.toolsRev != s.toolsRev {
		v.Cards = s.cards()
		v.toolsRev = s.toolsRev
	}
	v.Status = s.status()
	v.Steering = append([]string(nil), s.steering...)
	v.FollowUp = s.followUpNotShown()
	v.Waiting = append([]string(nil), s.waiting...)
	v.QueueNote = s.queueNote()
	v.Running = s.run.Running()
	v.Models = modelChoices(s.models)
	if s.model != nil {
		v.ModelProvider, v.ModelID, v.ModelAccepts = s.model.Provider, s.model.ID, s.model.AcceptsImages()
	}
	v.Levels = append([]string(nil), s.levels...)
	v.Thinking = s.thinking
	v.SessionName = s.sessionName
	v.Title = s.title
	v.FirstPrompt = s.firstPrompt
	v.Conn = s.conn
	v.Exit = s.exit
	v.Banner = s.banner()
	v.BashRunning = len(s.bashRunning) > 0
	if s.retry != nil {
		r := *s.retry
		v.Retry = &r
	}
	v.Refused = slices.Clone(s.refused)
	v.WidgetsRev = s.widgetsRev
	if prev != nil && prev.WidgetsRev == s.widgetsRev {
		v.Widgets = prev.Widgets
	} else {
		v.Widgets = s.extWidgetsCopy()
	}
	if s.model != nil {
		v.ModelName = s.model.Name
		if v.ModelName == "" {
			v.ModelName = s.model.ID
		}
	}
	return v
}

// liveItem is the streaming reply as far as it has arrived.
func (s *Session) liveItem(it ChatItem) ChatItem {
	m := s.live.Message()
	it.Blocks = assistantBlocks(m.Content, s.toolStatus)
	for i, c := range m.Content {
		if c.Type == rpcconn.ContentToolCall && it.Blocks[i].ArgsSummary == "" {
			raw := []byte(s.live.PartialArguments(i))
			it.Blocks[i].ArgsSummary = streamingSummary(c.Name, raw, callArgs(raw, true))
		}
	}
	it.Revision += s.live.Version() << 20
	it.Streaming = true
	return it
}

func (s *Session) cards() []ToolCard {
	cards := make([]ToolCard, 0, len(s.toolOrder))
	for _, id := range s.toolOrder {
		r, m := s.tools.Get(id), s.toolMeta[id]
		if m == nil {
			continue
		}
		// A long session has thousands of finished tools; only the ones
		// that changed are converted again.
		if m.card.ID == "" || m.card.Revision != m.rev {
			if r == nil {
				m.card = s.pendingCard(id, m)
			} else {
				m.card = s.card(r, m)
			}
		}
		cards = append(cards, m.card)
	}
	return cards
}

func (s *Session) card(r *rpcconn.ToolRun, m *toolMeta) ToolCard {
	out := r.Output.Content.Text()
	dropped := 0
	if len(out) > toolOutputCap {
		dropped = len(out) - toolOutputCap
		out = out[dropped:]
	}
	status := s.toolStatus(r.ToolCallID)
	if status == ToolRunning && !m.ended.IsZero() {
		// The agent died while the tool ran.
		status = ToolFailed
	}
	turn := m.turn + s.turnOffset
	if s.turnsPending {
		turn = 0 // no label rather than a wrong one
	}
	c := ToolCard{
		ID: r.ToolCallID, Revision: m.rev, Name: r.ToolName, ArgsSummary: ArgsSummary(r.ToolName, r.Args),
		Status: status, Started: m.started, Ended: m.ended, Output: out, OutputDropped: dropped,
		FullOutputPath: r.Output.FullOutputPath(), Turn: turn,
	}
	args := callArgs(r.Args, false)
	c.Command = callCommand(r.ToolName, r.Args, args)
	cardDiff(&c, r.ToolName, args, r.Output, status == ToolFailed)
	return c
}

// pendingCard is the card of a call the model is still writing, or that has
// not started: its arguments as far as they streamed.
func (s *Session) pendingCard(id string, m *toolMeta) ToolCard {
	raw, partial := m.callArgs, false
	if m.streamIndex >= 0 && s.live.Streaming() {
		raw, partial = []byte(s.live.PartialArguments(m.streamIndex)), true
	}
	args := callArgs(raw, partial)
	turn := m.turn + s.turnOffset
	if s.turnsPending {
		turn = 0
	}
	c := ToolCard{ID: id, Revision: m.rev, Name: m.callName, Status: s.toolStatus(id), Turn: turn,
		ArgsSummary: streamingSummary(m.callName, raw, args)}
	c.Command = callCommand(m.callName, raw, args)
	cardDiff(&c, m.callName, args, rpcconn.ToolResult{}, false)
	return c
}

func (s *Session) status() Status {
	st := Status{ContextPercent: -1, Activity: s.activity, Running: s.run.Running()}
	s.connStatus(&st)
	if s.stats != nil {
		st.TokensIn, st.TokensOut, st.Cost = s.stats.Tokens.Input, s.stats.Tokens.Output, s.stats.Cost
		if cu := s.stats.ContextUsage; cu != nil {
			st.ContextWindow = cu.ContextWindow
			if cu.Tokens != nil {
				st.ContextTokens = *cu.Tokens
			}
			if cu.Percent != nil {
				st.ContextPercent = *cu.Percent
			}
		}
	}
	if u := s.liveUsage; u != nil {
		// While a reply streams, the provider's running count is fresher.
		st.TokensOut += u.Output
	}
	if s.model != nil && s.model.ContextWindow > 0 && st.ContextWindow != s.model.ContextWindow {
		// The stats were taken before a switch of model: the tokens so far
		// count against the new model's window from the switch on, not
		// from the next reply.
		if st.ContextWindow > 0 && st.ContextPercent >= 0 {
			st.ContextPercent = float64(st.ContextTokens) * 100 / float64(s.model.ContextWindow)
		}
		st.ContextWindow = s.model.ContextWindow
	}
	if len(s.extStatus) > 0 {
		st.Extension = make(map[string]string, len(s.extStatus))
		for k, v := range s.extStatus {
			st.Extension[k] = v
		}
	}
	return st
}
