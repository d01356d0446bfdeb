package widgets

import (
	"strings"

	"knightcode.ai/desktop/model"
)

// Rows the list has not measured would all count as chatRowEstimate. A
// cheap guess from the text's length is much closer, which keeps the
// scroll bar honest in a long session and means a freshly opened session
// builds only the rows that really reach the screen.

// estimateHeight guesses an entry's height at width without building it;
// it is rounded like measured heights.
func estimateHeight(it *model.ChatItem, width float32) float32 {
	return rowHeight(guessHeight(it, width))
}

func guessHeight(it *model.ChatItem, width float32) float32 {
	const line, inset = 21, 16
	cpl := max(int(width/7.5), 20) // characters per line of body text
	lines := func(s string) float32 {
		return float32(len(s)/cpl + strings.Count(s, "\n")/2 + 1)
	}
	switch it.Kind {
	case model.ChatUser:
		h := lines(it.Text)*line + 2*inset + 20
		if len(it.Images) > 0 {
			h += thumbMax + 8
		}
		return h
	case model.ChatAssistant:
		h := float32(2*inset + 28)
		for _, b := range it.Blocks {
			switch b.Kind {
			case model.BlockText:
				h += lines(b.Text)*line + 12
			default:
				h += line + 12
			}
		}
		return h
	case model.ChatBash:
		return float32(min(strings.Count(it.Text, "\n")+1, bashTailLines))*16 + 2*inset + 60
	case model.ChatNotice:
		return line + 2*inset
	}
	return 2*line + 2*inset + 16
}
