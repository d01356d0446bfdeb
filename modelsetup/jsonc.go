package modelsetup

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The agent's models.json may hold comments (// and /* */) and trailing
// commas, which pi accepts. To add a provider without losing any of that,
// the file is parsed into values that remember where they are in the text,
// and the change is made to the text itself (see setPath).

// jsonValue is a parsed value and where it is in the text.
type jsonValue struct {
	kind       byte // '{', '[', '"', '0' (number), 't', 'f', 'n'
	start, end int  // the value's bytes, text[start:end]
	members    []jsonMember
	elems      []*jsonValue
}

type jsonMember struct {
	key      string
	keyStart int
	value    *jsonValue
}

func (v *jsonValue) member(key string) *jsonMember {
	for i := range v.members {
		if v.members[i].key == key {
			return &v.members[i]
		}
	}
	return nil
}

// SyntaxError says where a file stops being JSON with comments.
type SyntaxError struct {
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

type jsoncParser struct {
	text string
	pos  int
}

// parseJSONC parses text; a text of only spaces and comments gives nil.
func parseJSONC(text string) (*jsonValue, error) {
	p := &jsoncParser{text: text}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.pos == len(text) {
		return nil, nil
	}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.pos != len(text) {
		return nil, p.fail("more after the end of the top-level value")
	}
	return v, nil
}

func (p *jsoncParser) fail(format string, args ...any) error {
	line := 1 + strings.Count(p.text[:p.pos], "\n")
	col := p.pos - strings.LastIndexByte(p.text[:p.pos], '\n')
	return &SyntaxError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// space skips white space and comments.
func (p *jsoncParser) space() error {
	for p.pos < len(p.text) {
		switch c := p.text[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case strings.HasPrefix(p.text[p.pos:], "//"):
			if i := strings.IndexByte(p.text[p.pos:], '\n'); i >= 0 {
				p.pos += i + 1
			} else {
				p.pos = len(p.text)
			}
		case strings.HasPrefix(p.text[p.pos:], "/*"):
			i := strings.Index(p.text[p.pos+2:], "*/")
			if i < 0 {
				return p.fail("a /* comment is not closed")
			}
			p.pos += 2 + i + 2
		case strings.HasPrefix(p.text[p.pos:], "\ufeff") && p.pos == 0:
			p.pos += len("\ufeff")
		default:
			return nil
		}
	}
	return nil
}

// maxDepth keeps a hostile file from exhausting the stack.
const maxDepth = 200

func (p *jsoncParser) value(depth int) (*jsonValue, error) {
	if depth > maxDepth {
		return nil, p.fail("nested too deeply")
	}
	if p.pos >= len(p.text) {
		return nil, p.fail("the file ends where a value should be")
	}
	start := p.pos
	switch c := p.text[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		if _, err := p.str(); err != nil {
			return nil, err
		}
		return &jsonValue{kind: '"', start: start, end: p.pos}, nil
	case c == '-' || c >= '0' && c <= '9':
		for p.pos < len(p.text) && strings.IndexByte("+-0123456789.eE", p.text[p.pos]) >= 0 {
			p.pos++
		}
		var n json.Number
		if json.Unmarshal([]byte(p.text[start:p.pos]), &n) != nil {
			p.pos = start
			return nil, p.fail("not a number")
		}
		return &jsonValue{kind: '0', start: start, end: p.pos}, nil
	}
	for _, lit := range []string{"true", "false", "null"} {
		if strings.HasPrefix(p.text[p.pos:], lit) {
			p.pos += len(lit)
			return &jsonValue{kind: lit[0], start: start, end: p.pos}, nil
		}
	}
	return nil, p.fail("unexpected %q", p.text[p.pos])
}

// str reads a string and returns its value.
func (p *jsoncParser) str() (string, error) {
	start := p.pos
	p.pos++ // the opening quote
	for p.pos < len(p.text) {
		switch p.text[p.pos] {
		case '\\':
			p.pos += 2
		case '"':
			p.pos++
			var s string
			if err := json.Unmarshal([]byte(p.text[start:p.pos]), &s); err != nil {
				p.pos = start
				return "", p.fail("a string that is not valid: %v", err)
			}
			return s, nil
		case '\n':
			return "", p.fail("a string runs past the end of its line")
		default:
			p.pos++
		}
	}
	p.pos = start
	return "", p.fail("a string is not closed")
}

func (p *jsoncParser) object(depth int) (*jsonValue, error) {
	v := &jsonValue{kind: '{', start: p.pos}
	p.pos++
	for {
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.text) {
			return nil, p.fail("an object is not closed")
		}
		if p.text[p.pos] == '}' {
			p.pos++
			v.end = p.pos
			return v, nil
		}
		if p.text[p.pos] != '"' {
			return nil, p.fail("expected a quoted name or }")
		}
		keyStart := p.pos
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.text) || p.text[p.pos] != ':' {
			return nil, p.fail("expected : after %q", key)
		}
		p.pos++
		if err := p.space(); err != nil {
			return nil, err
		}
		val, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.members = append(v.members, jsonMember{key: key, keyStart: keyStart, value: val})
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos < len(p.text) && p.text[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.text) && p.text[p.pos] == '}' {
			continue
		}
		return nil, p.fail("expected , or } after the value of %q", key)
	}
}

func (p *jsoncParser) array(depth int) (*jsonValue, error) {
	v := &jsonValue{kind: '[', start: p.pos}
	p.pos++
	for {
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.text) {
			return nil, p.fail("a list is not closed")
		}
		if p.text[p.pos] == ']' {
			p.pos++
			v.end = p.pos
			return v, nil
		}
		el, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.elems = append(v.elems, el)
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.pos < len(p.text) && p.text[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.text) && p.text[p.pos] == ']' {
			continue
		}
		return nil, p.fail("expected , or ] in a list")
	}
}

// plainJSON is the value with comments and trailing commas taken out,
// for encoding/json to read what the agent reads.
func plainJSON(text string, v *jsonValue) []byte {
	var b strings.Builder
	var write func(v *jsonValue)
	write = func(v *jsonValue) {
		switch v.kind {
		case '{':
			b.WriteByte('{')
			for i, m := range v.members {
				if i > 0 {
					b.WriteByte(',')
				}
				key, _ := json.Marshal(m.key)
				b.Write(key)
				b.WriteByte(':')
				write(m.value)
			}
			b.WriteByte('}')
		case '[':
			b.WriteByte('[')
			for i, el := range v.elems {
				if i > 0 {
					b.WriteByte(',')
				}
				write(el)
			}
			b.WriteByte(']')
		default:
			b.WriteString(text[v.start:v.end])
		}
	}
	write(v)
	return []byte(b.String())
}
