package widgets

import (
	"bytes"
	"image"
	"image/color"
	"image/png"

	"knightcode.ai/desktop/model"
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
func sampleTranscript() []model.ChatItem {
	return []model.ChatItem{
		{ID: "u1", Kind: model.ChatUser, Revision: 1, Text: "Why does the server leak connections? Screenshot attached.",
			Images: []model.Thumbnail{{Data: samplePNG(320, 200), MimeType: "image/png"}}},
		{ID: "a1", Kind: model.ChatAssistant, Revision: 1, Meta: "Fake Thinker · 12:04", Blocks: []model.ChatBlock{
			{Kind: model.BlockThinking, Text: "The user asks about leaks.\nLet me look at the handler first."},
			{Kind: model.BlockToolCall, ToolCallID: "t1", ToolName: "bash", ArgsSummary: "ls -la", ToolStatus: model.ToolDone},
			{Kind: model.BlockToolCall, ToolCallID: "t2", ToolName: "read", ArgsSummary: "main.go", ToolStatus: model.ToolFailed},
			{Kind: model.BlockText, Text: sampleReplyMarkdown},
		}},
		{ID: "b1", Kind: model.ChatBash, Revision: 1, Command: "go test ./...", Text: "ok  \tknightcode.ai/desktop/rpcconn\t0.41s\n", ExitCode: intPtr(0)},
		{ID: "b2", Kind: model.ChatBash, Revision: 1, Command: "make lint", Text: "main.go:12: unused variable x\n",
			ExitCode: intPtr(2), Truncated: true, FullOutputPath: "/tmp/kc-bash-1.log"},
		{ID: "a2", Kind: model.ChatAssistant, Revision: 1, Meta: "Fake Thinker · 12:05", StopReason: "error",
			ErrorMessage: "429 Too Many Requests: rate limit reached", Blocks: []model.ChatBlock{{Kind: model.BlockText, Text: "Let me check"}}},
		{ID: "a3", Kind: model.ChatAssistant, Revision: 1, Meta: "Fake Thinker · 12:06", StopReason: "aborted",
			Blocks: []model.ChatBlock{{Kind: model.BlockText, Text: "Starting the refactor…"}}},
		{ID: "c1", Kind: model.ChatCompaction, Revision: 1, Text: "The user is fixing a connection leak in the server.\nDone so far: found the unclosed body."},
		{ID: "s1", Kind: model.ChatBranchSummary, Revision: 1, Text: "Tried pooling connections; abandoned because it hid the bug."},
		{ID: "x1", Kind: model.ChatCustom, Revision: 1, Meta: "todo extension", Text: "3 open items: fix leak, add test, update docs"},
		{ID: "n1", Kind: model.ChatNotice, Revision: 1, Level: model.NoticeInfo, Text: "Model changed to Fake Thinker"},
		{ID: "n2", Kind: model.ChatNotice, Revision: 1, Level: model.NoticeWarning, Text: "Retrying in 2 s (attempt 1 of 3)"},
		{ID: "n3", Kind: model.ChatNotice, Revision: 1, Level: model.NoticeError, Text: "Agent exited with code 3"},
		{ID: "a4", Kind: model.ChatAssistant, Revision: 1, Meta: "Fake Thinker · 12:07", Streaming: true, Blocks: []model.ChatBlock{
			{Kind: model.BlockToolCall, ToolCallID: "t3", ToolName: "edit", ArgsSummary: "main.go", ToolStatus: model.ToolRunning},
			{Kind: model.BlockText, Text: "Applying the fix to the **handler**"},
		}},
	}
}
