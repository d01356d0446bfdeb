package chat

import "sort"

// chatRows is where each transcript entry sits: its height and the sum of
// the heights above it, kept in float64 so that a session tens of
// thousands of screens long still adds up to the pixel. A height is
// measured once the entry reaches the screen and guessed before that
// (chatview_estimate.go).
type chatRows struct {
	h        []float32
	measured []bool
	// top[i] is where entry i starts; it is right for i <= upTo.
	top  []float64
	upTo int
	gap  float32
}

func (r *chatRows) len() int { return len(r.h) }

// Reset makes n entries, all unmeasured, with heights from guess.
func (r *chatRows) Reset(n int, guess func(i int) float32) {
	r.h = make([]float32, n)
	r.measured = make([]bool, n)
	for i := range r.h {
		r.h[i] = guess(i)
	}
	r.top = make([]float64, n+1)
	r.upTo = 0
}

// resize keeps the first n entries' rows, guessing for new ones.
func (r *chatRows) resize(n int, guess func(i int) float32) {
	old := len(r.h)
	if n < old {
		r.h, r.measured = r.h[:n], r.measured[:n]
		r.top = r.top[:n+1]
		r.upTo = min(r.upTo, n)
		return
	}
	for i := old; i < n; i++ {
		r.h = append(r.h, guess(i))
		r.measured = append(r.measured, false)
		r.top = append(r.top, 0)
	}
	r.upTo = min(r.upTo, old)
}

// Set gives entry i a height.
func (r *chatRows) Set(i int, h float32, measured bool) {
	if r.h[i] != h {
		r.h[i] = h
		r.upTo = min(r.upTo, i)
	}
	r.measured[i] = measured
}

// forget marks every height as a guess to be measured again (the width or
// the look changed); the old heights stay as the guesses.
func (r *chatRows) forget() {
	clear(r.measured)
}

func (r *chatRows) settle(i int) {
	for ; r.upTo < i; r.upTo++ {
		r.top[r.upTo+1] = r.top[r.upTo] + float64(r.h[r.upTo]) + float64(r.gap)
	}
}

// topOf is where entry i starts.
func (r *chatRows) topOf(i int) float64 {
	r.settle(i)
	return r.top[i]
}

// total is the height of all entries.
func (r *chatRows) total() float64 {
	n := len(r.h)
	if n == 0 {
		return 0
	}
	return r.topOf(n) - float64(r.gap)
}

// at is the entry whose rows (or the gap below it) hold y.
func (r *chatRows) at(y float64) int {
	n := len(r.h)
	r.settle(n)
	i := sort.Search(n, func(i int) bool { return r.top[i+1] > y })
	return min(i, max(n-1, 0))
}
