package model

import "time"

// The plain data the widgets draw. The Session converts protocol types into
// these; widgets never see the protocol.

// ChatKind says what a transcript entry is.
type ChatKind int

const (
	// ChatUser is a prompt the user sent (with image thumbnails).
	ChatUser ChatKind = iota
	// ChatAssistant is a reply: markdown, thinking and tool-call chips.
	ChatAssistant
	// ChatBash is a !command the user ran, with its output.
	ChatBash
	// ChatCompaction is a compaction summary (or one in progress).
	ChatCompaction
	// ChatBranchSummary is the summary of an abandoned branch.
	ChatBranchSummary
	// ChatCustom is an extension's message.
	ChatCustom
	// ChatNotice is a line from the app itself: an error, a retry, an
	// agent exit. Text is plain, never markup.
	ChatNotice
)

// BlockKind says what a part of an assistant reply is.
type BlockKind int

const (
	// BlockText is markdown.
	BlockText BlockKind = iota
	// BlockThinking is the model's reasoning: collapsible, collapsed by default.
	BlockThinking
	// BlockToolCall is a compact chip naming a tool call.
	BlockToolCall
)

// ToolStatus is how far a tool call has got.
type ToolStatus int

const (
	// ToolPending: the model is still writing the call.
	ToolPending ToolStatus = iota
	// ToolRunning: the tool runs.
	ToolRunning
	// ToolDone: it finished.
	ToolDone
	// ToolFailed: it finished with isError.
	ToolFailed
)

// ChatBlock is one part of an assistant reply.
type ChatBlock struct {
	Kind BlockKind
	// Text is markdown for BlockText, plain text for BlockThinking.
	Text string
	// Tool call fields, for BlockToolCall.
	ToolCallID  string
	ToolName    string
	ArgsSummary string
	ToolStatus  ToolStatus
}

// Thumbnail is an image attached to a message, as encoded bytes.
type Thumbnail struct {
	Data     []byte
	MimeType string
}

// NoticeLevel colours a ChatNotice.
type NoticeLevel int

// The levels of a notice, from quiet to loud.
const (
	NoticeInfo NoticeLevel = iota
	NoticeWarning
	NoticeError
)

// StopInterrupted is the StopReason of a reply cut short because the agent
// process ended; ErrorMessage says so. The banner reports the exit itself.
const StopInterrupted = "interrupted"

// ChatItem is one entry of the transcript.
type ChatItem struct {
	// ID is stable for the life of the entry.
	ID   string
	Kind ChatKind
	// Revision changes whenever anything below changes; the view redraws an
	// item only when its Revision differs from what it drew.
	Revision uint64

	// Text: the user's prompt, a bash command's output, a summary, a
	// custom message's text, or a notice. Plain text except where said.
	Text   string
	Blocks []ChatBlock
	Images []Thumbnail

	// Sent is when the agent took a user message (its own timestamp), zero
	// while it is waiting: the message's checkpoint is the one taken just
	// before, whatever session file it is now in (a fork keeps it).
	Sent time.Time

	// Streaming is true while the reply is still arriving.
	Streaming bool
	// Meta is a short line such as "Fake Thinker · 12:04".
	Meta string
	// StopReason is "error", "aborted" or StopInterrupted for a reply that
	// did not finish, "length" for one cut off at the model's output limit;
	// ErrorMessage says why.
	StopReason   string
	ErrorMessage string

	// Bash executions. Started and Ended time a command run in this
	// window (zero for one loaded from the session); Ended is zero while
	// it runs.
	Command        string
	ExitCode       *int
	Cancelled      bool
	Truncated      bool
	FullOutputPath string
	Started, Ended time.Time

	// Notices.
	Level NoticeLevel

	// Waiting marks a prompt sent but not yet taken by the agent (no
	// echo); Stuck one the agent has not taken for notReadingAfter.
	Waiting, Stuck bool
}

// ToolCard is one tool execution in the sidebar.
type ToolCard struct {
	ID          string
	Revision    uint64
	Name        string
	ArgsSummary string
	Status      ToolStatus
	Started     time.Time
	// Ended is zero while running.
	Ended time.Time
	// Output is the tool's accumulated output, possibly only its tail.
	Output string
	// OutputDropped is how many leading bytes of the output are not in
	// Output because of the memory cap.
	OutputDropped  int
	FullOutputPath string
	// Turn numbers the agent turn the call belongs to.
	Turn int

	// Command is the whole call, shown in the expanded card's header and
	// copied from there: a bash command, a file tool's path, else the
	// arguments.
	Command string
	// Diff is what an edit or a write changes, shown instead of the
	// output, in the agent's details.diff format: one row per line,
	// "+N text" added, "-N text" removed, " N text" unchanged (N a line
	// number, padded), and a row of "..." for unchanged lines left out.
	// Empty for other tools and failed calls.
	Diff string
	// DiffContent says Diff is a file's whole content (unchanged rows
	// only); copying it copies the text without line numbers.
	DiffContent bool
	// DiffNote says where a diff that is not the agent's own comes from.
	DiffNote string
	// DiffDropped counts the rows after Diff left out for size.
	DiffDropped int
}

// ModelChoice is an entry of the model picker.
type ModelChoice struct {
	Provider  string
	ID        string
	Name      string
	Reasoning bool
	Images    bool
}

// Status is what the status bar shows.
type Status struct {
	// Connection is e.g. "Connected", "Starting…", "Exited (code 3)".
	Connection string
	Connected  bool
	Running    bool
	TokensIn   int
	TokensOut  int
	Cost       float64
	// ContextPercent is 0–100, or negative when unknown.
	ContextPercent float64
	ContextTokens  int
	ContextWindow  int
	// Activity is a retry or compaction indicator, empty when idle.
	Activity string
	// Extension status entries by key, shown as plain text.
	Extension map[string]string

	// Exited says the agent process is gone (it crashed or quit): the
	// connection shows in the error colour rather than as starting.
	Exited bool
	// Ended says the agent ended the session by itself: not an error, the
	// connection shows in a neutral colour.
	Ended bool
}

// Attachment is an image attached to the draft, shown in the strip above
// the editor.
type Attachment struct {
	// ID is stable while the attachment is in the draft; the strip caches
	// its decoded thumbnail by it.
	ID   string
	Name string
	// Thumb is a small PNG of the image; nil while Loading.
	Thumb []byte
	// Note is a caption such as "scaled down from 4032×3024".
	Note string
	// Loading is true while the file is being read and scaled.
	Loading bool
	// Error says why the file was rejected; such an attachment shows as an
	// error chip the user can only remove.
	Error string
}

// Notice is one in-window notification, kept in the toast layer's history.
// Text is plain, never markup.
type Notice struct {
	Time  time.Time
	Text  string
	Level NoticeLevel
	// Source names who raised it, such as an extension; may be empty.
	Source string
}

// SessionRow is a saved session in the session browser.
type SessionRow struct {
	Path string
	// Title is the session's name, or its first prompt when it has none.
	Title string
	// Subtitle is the working folder the session ran in.
	Subtitle string
	Modified time.Time
	Messages int
	Model    string
	// From is the title of the session this one was forked from (Edit &
	// resend, a fork in the tree); empty for a session of its own.
	From string
	// Problem says why the session may not open (a damaged file, an
	// unknown version); empty when it is fine.
	Problem string
	// Current marks the session the agent has open.
	Current bool
}

// TreeRow is one entry of a session's tree, in display order.
type TreeRow struct {
	ID, ParentID string
	// Kind is the entry's type: "user", "assistant", "tool", "compaction",
	// "branch_summary", "model_change", "label", or another the agent adds.
	Kind string
	// Text is one line: a message's start, a tool call, a new model.
	Text string
	// Label is the user's bookmark on the entry, shown as a tag.
	Label string
	Time  time.Time
	// OnActiveBranch is true for entries between the root and the leaf.
	OnActiveBranch bool
	// IsLeaf marks the session's current leaf: where the next prompt goes.
	IsLeaf bool
	// Depth is the indentation level: children of an entry with several
	// children sit one level deeper than it.
	Depth int
}

// PaletteItem is a command offered by the command palette or, as
// "/name", by the slash completion.
type PaletteItem struct {
	ID, Title, Detail string
	// Source is where the command comes from: "app", "extension",
	// "prompt" or "skill".
	Source string
	// Shortcut is a key hint such as "Ctrl+N"; empty when there is none.
	Shortcut string
	// Keywords are more words the item is found by ("theme" for
	// Settings), not shown.
	Keywords string
	// Unavailable says why the item cannot run now ("nothing is
	// running"); such an item is greyed, listed after the others and not
	// run. Empty: it can.
	Unavailable string
}

// UserPrompts are the texts of the prompts among items, oldest first: what
// Up recalls in an empty editor.
func UserPrompts(items []ChatItem) []string {
	var out []string
	for _, it := range items {
		if it.Kind == ChatUser && it.Text != "" {
			out = append(out, it.Text)
		}
	}
	return out
}

// MessageHit is a session found by what was said in it, for a query of the
// session browser: the message that matched best, cut to a snippet.
type MessageHit struct {
	Path string
	// Who wrote the message: "you", "agent" or "tool".
	Who     string
	Snippet string
	// Matches are where the query's words are in Snippet, as byte offsets
	// [start, end).
	Matches [][2]int
	When    time.Time
}

// PreviewMessage is one message of a session shown read-only in the
// session browser, from the file, before the session is opened.
type PreviewMessage struct {
	// Who wrote it: "You" or the model's name.
	Who  string
	Text string
	When time.Time
}
