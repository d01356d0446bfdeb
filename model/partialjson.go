package model

import (
	"encoding/json"
	"strings"
)

// partialJSON decodes as much of the JSON text s as has arrived, as the
// arguments of a tool call being streamed: objects and arrays cut short
// end where the text stops, a string cut short holds what arrived of it
// (an escape cut in half is left out), and a key without its value, a
// number or a literal that may still go on are left out. It returns
// values as encoding/json does (map[string]any, []any, string, float64,
// bool, nil); ok is false when nothing could be read.
func partialJSON(s string) (v any, ok bool) {
	p := partialParser{s: s}
	v, st := p.value()
	return v, st != pNone
}

type partialState int

const (
	pNone     partialState = iota // nothing usable
	pPartial                      // a value cut short at the end of the text
	pComplete                     // a whole value
)

type partialParser struct {
	s string
	i int
}

func (p *partialParser) ws() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *partialParser) value() (any, partialState) {
	p.ws()
	if p.i >= len(p.s) {
		return nil, pNone
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.str()
	default:
		return p.scalar()
	}
}

func (p *partialParser) object() (any, partialState) {
	p.i++ // {
	m := map[string]any{}
	for {
		p.ws()
		if p.i >= len(p.s) {
			return m, pPartial
		}
		if p.s[p.i] == '}' {
			p.i++
			return m, pComplete
		}
		if p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.s[p.i] != '"' {
			return m, pPartial // not JSON: keep what was read
		}
		k, st := p.str()
		if st != pComplete {
			return m, pPartial
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return m, pPartial
		}
		p.i++
		v, st := p.value()
		if st != pNone {
			m[k.(string)] = v
		}
		if st != pComplete {
			return m, pPartial
		}
	}
}

func (p *partialParser) array() (any, partialState) {
	p.i++ // [
	a := []any{}
	for {
		p.ws()
		if p.i >= len(p.s) {
			return a, pPartial
		}
		switch p.s[p.i] {
		case ']':
			p.i++
			return a, pComplete
		case ',':
			p.i++
			continue
		}
		v, st := p.value()
		if st != pNone {
			a = append(a, v)
		}
		if st != pComplete {
			return a, pPartial
		}
	}
}

// str reads a string at p.i, which is '"'.
func (p *partialParser) str() (any, partialState) {
	start := p.i
	for j := start + 1; j < len(p.s); j++ {
		switch p.s[j] {
		case '\\':
			j++
		case '"':
			p.i = j + 1
			var out string
			if json.Unmarshal([]byte(p.s[start:p.i]), &out) != nil {
				return nil, pNone
			}
			return out, pComplete
		}
	}
	// Cut short: close it after the last whole character.
	body := p.s[start+1:]
	p.i = len(p.s)
	body = trimPartialEscape(body)
	var out string
	if json.Unmarshal([]byte(`"`+body+`"`), &out) != nil {
		return nil, pNone
	}
	return out, pPartial
}

// trimPartialEscape drops an escape sequence cut off at the end of a JSON
// string's body, and a high surrogate waiting for its other half.
func trimPartialEscape(body string) string {
	// A run of backslashes at the end: an odd count ends in a lone one.
	n := 0
	for n < len(body) && body[len(body)-1-n] == '\\' {
		n++
	}
	if n%2 == 1 {
		return body[:len(body)-1]
	}
	// \u with fewer than four hex digits after it.
	if k := strings.LastIndex(body, `\u`); k >= 0 && len(body)-k < 6 && !escapedAt(body, k) {
		return body[:k]
	}
	// A high surrogate alone would decode to U+FFFD; wait for the pair.
	if k := len(body) - 6; k >= 0 && body[k] == '\\' && body[k+1] == 'u' && !escapedAt(body, k) {
		if h := strings.ToLower(body[k+2 : k+4]); h >= "d8" && h <= "db" {
			return body[:k]
		}
	}
	return body
}

// escapedAt says whether the backslash at body[k] is itself escaped.
func escapedAt(body string, k int) bool {
	n := 0
	for k-1-n >= 0 && body[k-1-n] == '\\' {
		n++
	}
	return n%2 == 1
}

// scalar reads a number or literal; one that runs to the end of the text
// may go on ("tru", "12" of "123") and counts as not there yet.
func (p *partialParser) scalar() (any, partialState) {
	j := p.i
	for j < len(p.s) && strings.IndexByte(",]} \t\r\n", p.s[j]) < 0 {
		j++
	}
	tok := p.s[p.i:j]
	p.i = j
	if j >= len(p.s) {
		return nil, pNone
	}
	var v any
	if json.Unmarshal([]byte(tok), &v) != nil {
		return nil, pNone
	}
	return v, pComplete
}
