package remote_test

import (
	"testing"
	"time"

	"knightcode.ai/desktop/remote"
	"knightcode.ai/desktop/remote/sshtest"
	"knightcode.ai/desktop/rpcconn"
)

// linkFigures is what one prompt's stream looked like on one link.
type linkFigures struct {
	start, getState, firstDelta, spread time.Duration
	deltas                              int
}

func measureLink(t *testing.T, h remote.Host, prompt string, want int) linkFigures {
	t.Helper()
	var f linkFigures
	began := time.Now()
	c := startSpec(t, remote.Spec{Host: h})
	f.start = time.Since(began)
	began = time.Now()
	if _, err := c.GetState(testContext(t)); err != nil {
		t.Fatal(err)
	}
	f.getState = time.Since(began)
	sent := time.Now()
	if err := c.Prompt(testContext(t), rpcconn.Prompt{Message: prompt}); err != nil {
		t.Fatal(err)
	}
	r := collectRun(t, c)
	if len(r.deltas) != want || r.joined() != r.text {
		t.Fatalf("%d of %d deltas arrived, making %d bytes of the %d-byte message", len(r.deltas), want, len(r.joined()), len(r.text))
	}
	for i := 1; i < len(r.deltas); i++ {
		if r.deltas[i].at.Before(r.deltas[i-1].at) {
			t.Fatalf("delta %d arrived before delta %d", i, i-1)
		}
	}
	f.deltas = len(r.deltas)
	f.firstDelta = r.deltas[0].at.Sub(sent)
	f.spread = r.deltas[len(r.deltas)-1].at.Sub(r.deltas[0].at)
	return f
}

// Streaming over a link with 100 ms each way (a delaying TCP proxy between
// ssh and sshd) brings every delta, in order, spread over the same time
// as on a direct link: only the start is later, by the round trip.
func TestStreamOverSlowLink(t *testing.T) {
	const delay = 100 * time.Millisecond
	srv := sshtest.Start(t, sshtest.Options{})
	fakeAgent(t, srv, "knightcode")
	const n = 200
	prompt := "[[long:200]] [[slow:10]]" // 200 deltas, 10 ms apart: 2 s of stream

	direct := measureLink(t, srv.Host(), prompt, n)
	slow := measureLink(t, srv.Delayed(delay), prompt, n)
	for _, f := range []struct {
		name string
		f    linkFigures
	}{{"direct", direct}, {"100 ms each way", slow}} {
		t.Logf("%-16s start %6v  get_state %6v  first delta %6v  %d deltas over %v", f.name,
			f.f.start.Round(time.Millisecond), f.f.getState.Round(time.Millisecond),
			f.f.firstDelta.Round(time.Millisecond), f.f.deltas, f.f.spread.Round(time.Millisecond))
	}
	// The lower bounds are the proxy's own delays: no machine is faster.
	if slow.getState < 2*delay {
		t.Errorf("get_state took %v through the proxy: it is not delaying", slow.getState)
	}
	// Time is what this test is about, so the upper bounds stay, at 10×
	// the expected figures, for a busy machine: the first delta about one
	// round trip later than direct, ...
	if rtt := 2 * delay; slow.firstDelta < rtt || slow.firstDelta > direct.firstDelta+10*rtt {
		t.Errorf("first delta after %v (direct %v): want about one round trip (%v) later", slow.firstDelta, direct.firstDelta, rtt)
	}
	// ... and the stream as long as on the direct link: latency delays it,
	// and nothing bunches it up (all at once: a spread near zero) or
	// stretches it (a round trip a delta: 200 of them, 40 s).
	if slow.spread < direct.spread/10 || slow.spread > 10*direct.spread {
		t.Errorf("the stream spread over %v through the proxy, %v direct", slow.spread, direct.spread)
	}
}
