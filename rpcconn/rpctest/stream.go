package rpctest

import (
	"fmt"
	"strings"
	"time"
)

// stream writes one assistant message as message_start, message_update
// deltas and message_end, growing msg as it goes so message_end (and the
// older agent's cumulative copies) match the deltas exactly.
type stream struct {
	a      *agent
	r      *run
	sc     *script
	msg    *assistantMessage
	model  *model
	delay  time.Duration
	deltas int
}

func (a *agent) streamAssistant(r *run, in replyInput) (*assistantMessage, plan) {
	a.mu.Lock()
	m := a.currentModel()
	input := 200 // the system prompt
	for _, raw := range a.sess.messages() {
		input += tokenEstimate(string(raw))
	}
	a.mu.Unlock()

	p := planReply(in, m)
	msg := &assistantMessage{Role: "assistant", Content: []any{}, StopReason: "stop", Timestamp: nowMillis()}
	if m != nil {
		msg.API, msg.Provider, msg.Model = m.API, m.Provider, m.ID
	}
	msg.Usage = priced(m, usage{Input: input})
	st := &stream{a: a, r: r, sc: in.sc, msg: msg, model: m, delay: a.opts.Delay}
	if in.sc.delay > 0 {
		st.delay = in.sc.delay
	}
	a.emit(obj("type", "message_start", "message", msg))
	complete := true
	for _, b := range p.blocks {
		if complete = st.block(b); !complete {
			break
		}
	}
	msg.StopReason, msg.ErrorMessage = p.stopReason, p.errorMessage
	if !complete {
		msg.StopReason, msg.ErrorMessage = "aborted", "Request was aborted"
	}
	a.emit(obj("type", "message_end", "message", msg))
	a.mu.Lock()
	a.sess.appendMessage(msg)
	a.mu.Unlock()
	return msg, p
}

// block streams one content block; false means the run was aborted.
func (st *stream) block(b block) bool {
	idx := len(st.msg.Content)
	switch b.kind {
	case "toolCall":
		call := &toolCallContent{Type: "toolCall", ID: b.call.ID, Name: b.call.Name, Arguments: map[string]any{}, noDiff: b.call.noDiff}
		st.msg.Content = append(st.msg.Content, call)
		st.update(obj("type", "toolcall_start", "contentIndex", idx, "id", call.ID, "toolName", call.Name))
		for _, d := range b.deltas {
			if !st.pause() {
				return false
			}
			st.addOutput(d)
			st.update(obj("type", "toolcall_delta", "contentIndex", idx, "delta", d))
		}
		call.Arguments = b.call.Arguments
		st.update(obj("type", "toolcall_end", "contentIndex", idx, "toolCall", call))
		return true
	case "thinking":
		t := &thinkingContent{Type: "thinking"}
		st.msg.Content = append(st.msg.Content, t)
		return st.deltasOf("thinking", idx, b.deltas, func(s string) { t.Thinking = s })
	default:
		t := &textContent{Type: "text"}
		st.msg.Content = append(st.msg.Content, t)
		return st.deltasOf("text", idx, b.deltas, func(s string) { t.Text = s })
	}
}

// deltasOf streams a text-like block. A strings.Builder keeps a long reply
// linear: String() shares its buffer, so set costs nothing per delta.
func (st *stream) deltasOf(kind string, idx int, deltas []string, set func(string)) bool {
	var sb strings.Builder
	st.update(obj("type", kind+"_start", "contentIndex", idx))
	for _, d := range deltas {
		if !st.pause() {
			return false
		}
		sb.WriteString(d)
		set(sb.String())
		st.addOutput(d)
		st.update(obj("type", kind+"_delta", "contentIndex", idx, "delta", d))
		st.misbehave()
	}
	st.update(obj("type", kind+"_end", "contentIndex", idx, "content", sb.String()))
	return true
}

func (st *stream) pause() bool { return sleepCtx(st.r.ctx, st.delay) }

func (st *stream) addOutput(d string) {
	u := st.msg.Usage
	u.Output += tokenEstimate(d)
	st.msg.Usage = priced(st.model, u)
}

// update writes a message_update. 0.9.2 sends the delta and usage only; the
// older agent repeats the whole message so far, twice.
func (st *stream) update(ev object) {
	rec := obj("type", "message_update")
	if st.a.opts.Older {
		rec = append(rec, field{"message", st.msg})
		ev = ev.with("partial", st.msg)
	} else {
		rec = append(rec, field{"usage", st.msg.Usage})
	}
	st.a.emit(rec.with("assistantMessageEvent", ev))
}

// misbehave runs the stream-level misbehaviour markers after a few deltas, so
// a client has already seen a healthy start.
func (st *stream) misbehave() {
	st.deltas++
	sc, a := st.sc, st.a
	if sc.outOfOrder && !sc.oooDone && st.deltas >= 1 {
		sc.oooDone = true
		st.r.flushPromptResponse()
	}
	if sc.garbage && !sc.garbageDone && st.deltas >= 2 {
		sc.garbageDone = true
		a.out.raw("this line is not JSON {oops")
		a.out.send(obj("garbage", true, "note", "valid JSON without a type"))
	}
	if sc.stall > 0 && !sc.stallDone && st.deltas >= 2 {
		sc.stallDone = true
		a.out.stall(sc.stall)
	}
	if sc.crash && st.deltas >= 3 {
		fmt.Fprintf(a.stderr, "fake-knightcode: simulated crash ([[crash]] marker): exiting with code %d\n", sc.crashCode)
		a.out.exit(sc.crashCode)
	}
}
