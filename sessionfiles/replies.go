package sessionfiles

import (
	"context"
	"errors"
	"io"
	"os"
)

// repliesCheckEvery is how many lines CountReplies reads between looks at
// its context.
const repliesCheckEvery = 256

// CountReplies counts the agent's replies (message entries of role
// assistant) in the session file at path, reading only each line's head,
// for a window that shows the file's end before the agent sends the rest:
// the replies before that end number its turns. linear is false when the
// count would not be what the agent's transcript holds: a branch (an entry
// whose parent is not the entry before it), a compaction or a branch
// summary (the transcript then starts from a summary), an entry without
// id (a version 1 file), or a role not in a line's head. A last line cut
// off mid-write is not counted, as the agent has not finished it.
func CountReplies(ctx context.Context, path string) (replies int, linear bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	lr := NewLineReader(f, 0)
	prev := ""
	for n := 0; ; n++ {
		if n%repliesCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return 0, false, err
			}
		}
		line, whole, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return replies, true, nil
		}
		if err != nil {
			return 0, false, err
		}
		h := headFieldsOf(line)
		if !whole {
			if err := lr.Skip(); err != nil {
				return 0, false, err
			}
		}
		if !lr.Terminated() {
			return replies, true, nil
		}
		switch {
		case n == 0 && h.typ == "session":
			continue
		case h.typ == "" || h.id == "" || h.typ == "compaction" || h.typ == "branch_summary":
			return 0, false, nil
		case (h.parent == nil) != (prev == "") || (h.parent != nil && *h.parent != prev):
			return 0, false, nil
		case h.typ == "message" && h.role == "":
			return 0, false, nil
		case h.typ == "message" && h.role == "assistant":
			replies++
		}
		prev = h.id
	}
}
