package widgets

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
)

// samplePNG is a small gradient, standing in for an attached screenshot.
func samplePNG(w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.NRGBA{R: uint8(40 + 180*x/w), G: uint8(90 + 120*y/h), B: 200, A: 255})
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}

func intPtr(i int) *int { return &i }

const sampleReplyMarkdown = "Here is what I found in `main.go`:\n\n" +
	"1. The **handler** never closes the body.\n" +
	"2. Errors are *swallowed*.\n\n" +
	"```go\ndefer resp.Body.Close()\n```\n\n" +
	"| File | Lines |\n|---|--:|\n| main.go | 120 |\n"

// sampleTranscript has one entry of each kind the chat view draws.
func sampleTranscript() []ChatItem {
	return []ChatItem{
		{ID: "u1", Kind: ChatUser, Revision: 1, Text: "Why does the server leak connections? Screenshot attached.",
			Images: []Thumbnail{{Data: samplePNG(320, 200), MimeType: "image/png"}}},
		{ID: "a1", Kind: ChatAssistant, Revision: 1, Meta: "Fake Thinker · 12:04", Blocks: []ChatBlock{
			{Kind: BlockThinking, Text: "The user asks about leaks.\nLet me look at the handler first."},
			{Kind: BlockToolCall, ToolCallID: "t1", ToolName: "bash", ArgsSummary: "ls -la", ToolStatus: ToolDone},
			{Kind: BlockToolCall, ToolCallID: "t2", ToolName: "read", ArgsSummary: "main.go", ToolStatus: ToolFailed},
			{Kind: BlockText, Text: sampleReplyMarkdown},
		}},
		{ID: "b1", Kind: ChatBash, Revision: 1, Command: "go test ./...", Text: "ok  \tknightcode.ai/desktop/rpcconn\t0.41s\n", ExitCode: intPtr(0)},
		{ID: "b2", Kind: ChatBash, Revision: 1, Command: "make lint", Text: "main.go:12: unused variable x\n",
			ExitCode: intPtr(2), Truncated: true, FullOutputPath: "/tmp/kc-bash-1.log"},
		{ID: "a2", Kind: ChatAssistant, Revision: 1, Meta: "Fake Thinker · 12:05", StopReason: "error",
			ErrorMessage: "429 Too Many Requests: rate limit reached", Blocks: []ChatBlock{{Kind: BlockText, Text: "Let me check"}}},
		{ID: "a3", Kind: ChatAssistant, Revision: 1, Meta: "Fake Thinker · 12:06", StopReason: "aborted",
			Blocks: []ChatBlock{{Kind: BlockText, Text: "Starting the refactor…"}}},
		{ID: "c1", Kind: ChatCompaction, Revision: 1, Text: "The user is fixing a connection leak in the server.\nDone so far: found the unclosed body."},
		{ID: "s1", Kind: ChatBranchSummary, Revision: 1, Text: "Tried pooling connections; abandoned because it hid the bug."},
		{ID: "x1", Kind: ChatCustom, Revision: 1, Meta: "todo extension", Text: "3 open items: fix leak, add test, update docs"},
		{ID: "n1", Kind: ChatNotice, Revision: 1, Level: NoticeInfo, Text: "Model changed to Fake Thinker"},
		{ID: "n2", Kind: ChatNotice, Revision: 1, Level: NoticeWarning, Text: "Retrying in 2 s (attempt 1 of 3)"},
		{ID: "n3", Kind: ChatNotice, Revision: 1, Level: NoticeError, Text: "Agent exited with code 3"},
		{ID: "a4", Kind: ChatAssistant, Revision: 1, Meta: "Fake Thinker · 12:07", Streaming: true, Blocks: []ChatBlock{
			{Kind: BlockToolCall, ToolCallID: "t3", ToolName: "edit", ArgsSummary: "main.go", ToolStatus: ToolRunning},
			{Kind: BlockText, Text: "Applying the fix to the **handler**"},
		}},
	}
}
