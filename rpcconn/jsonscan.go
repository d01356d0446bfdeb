package rpcconn

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// The agent's older generation repeats the whole message so far in every
// message_update, so most bytes of the stream are fields nobody reads. This
// file walks a JSON object's top level and hands out only the wanted values,
// skipping the rest at memchr speed instead of decoding them.

var errBadJSON = errors.New("malformed JSON")

// objectFields calls visit with each top-level key (raw, without quotes) and
// value (raw JSON) of the object in data. It checks structure only as far as
// needed to find where values end; values it hands out are decoded later.
func objectFields(data []byte, visit func(key, value []byte)) error {
	return walkObject(data, func(key []byte, start int) (int, error) {
		end, err := skipValue(data, start)
		if err == nil {
			visit(key, data[start:end])
		}
		return end, err
	})
}

// walkObject is objectFields with the value left to value: it gets each
// top-level key and the offset where its value starts, and returns the
// offset just past the value (skipValue's job, unless it has a faster or
// more useful walk for that key).
func walkObject(data []byte, value func(key []byte, start int) (end int, err error)) error {
	end, err := walkObjectAt(data, skipSpace(data, 0), value)
	if err != nil {
		return err
	}
	return checkTrailing(data, end)
}

// walkObjectAt walks the object starting at data[i] like walkObject and
// returns the offset just past it.
func walkObjectAt(data []byte, i int, value func(key []byte, start int) (end int, err error)) (int, error) {
	if i >= len(data) || data[i] != '{' {
		return 0, fmt.Errorf("%w: not an object", errBadJSON)
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return 0, fmt.Errorf("%w: expected key at offset %d", errBadJSON, i)
		}
		keyEnd, err := skipString(data, i)
		if err != nil {
			return 0, err
		}
		key := data[i+1 : keyEnd-1]
		i = skipSpace(data, keyEnd)
		if i >= len(data) || data[i] != ':' {
			return 0, fmt.Errorf("%w: expected ':' at offset %d", errBadJSON, i)
		}
		i = skipSpace(data, i+1)
		if i >= len(data) {
			return 0, fmt.Errorf("%w: missing value", errBadJSON)
		}
		valueEnd, err := value(key, i)
		if err != nil {
			return 0, err
		}
		i = skipSpace(data, valueEnd)
		if i >= len(data) {
			return 0, fmt.Errorf("%w: unterminated object", errBadJSON)
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return i + 1, nil
		default:
			return 0, fmt.Errorf("%w: unexpected %q at offset %d", errBadJSON, data[i], i)
		}
	}
}

func checkTrailing(data []byte, i int) error {
	if skipSpace(data, i) != len(data) {
		return fmt.Errorf("%w: data after the object", errBadJSON)
	}
	return nil
}

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the offset just past the string starting at data[i].
func skipString(data []byte, i int) (int, error) {
	j := i + 1
	for {
		q := bytes.IndexByte(data[j:], '"')
		if q < 0 {
			return 0, fmt.Errorf("%w: unterminated string", errBadJSON)
		}
		end := j + q
		// A quote is escaped when an odd run of backslashes precedes it.
		backslashes := 0
		for k := end - 1; k > i && data[k] == '\\'; k-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return end + 1, nil
		}
		j = end + 1
	}
}

// skipValue returns the offset just past the value starting at data[i].
func skipValue(data []byte, i int) (int, error) {
	if i >= len(data) {
		return 0, fmt.Errorf("%w: missing value", errBadJSON)
	}
	switch c := data[i]; {
	case c == '"':
		return skipString(data, i)
	case c == '{' || c == '[':
		return skipContainer(data, i)
	case c == 't':
		return skipLiteral(data, i, "true")
	case c == 'f':
		return skipLiteral(data, i, "false")
	case c == 'n':
		return skipLiteral(data, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		j := i + 1
		for j < len(data) && isNumberByte(data[j]) {
			j++
		}
		return j, nil
	default:
		return 0, fmt.Errorf("%w: unexpected %q at offset %d", errBadJSON, c, i)
	}
}

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

func skipLiteral(data []byte, i int, lit string) (int, error) {
	if !bytes.HasPrefix(data[i:], []byte(lit)) {
		return 0, fmt.Errorf("%w: bad literal at offset %d", errBadJSON, i)
	}
	return i + len(lit), nil
}

// skipContainer skips an object or array, checking only that brackets pair up.
func skipContainer(data []byte, i int) (int, error) {
	var backing [64]byte
	stack := backing[:0]
	for i < len(data) {
		switch c := data[i]; c {
		case '"':
			end, err := skipString(data, i)
			if err != nil {
				return 0, err
			}
			i = end
			continue
		case '{', '[':
			stack = append(stack, c)
		case '}', ']':
			depth := len(stack)
			if depth == 0 || (c == '}') != (stack[depth-1] == '{') {
				return 0, fmt.Errorf("%w: mismatched %q at offset %d", errBadJSON, c, i)
			}
			stack = stack[:depth-1]
			if depth == 1 {
				return i + 1, nil
			}
		}
		i++
	}
	return 0, fmt.Errorf("%w: unterminated container", errBadJSON)
}

// splitArray cuts the JSON array starting at data[i] into its elements, raw
// and trimmed of surrounding space, appending them to elems; it returns the
// offset just past the array. It is skipContainer that also notes where the
// array's own commas are, so it costs one walk at memchr speed through
// strings and allocates nothing but elems.
//
// Elements are cut at those commas whatever they hold, so one that is not
// valid JSON (a bad literal, a missing value, trailing garbage) comes out
// as it is, for its decoder to reject, and the elements after it are still
// found. Only brackets that do not pair up or an unterminated string stop
// it, since no boundary after them can be trusted; the elements before are
// returned with the error.
func splitArray(data []byte, i int, elems []json.RawMessage) ([]json.RawMessage, int, error) {
	if i >= len(data) || data[i] != '[' {
		return elems, 0, fmt.Errorf("%w: not an array", errBadJSON)
	}
	var backing [64]byte
	stack := append(backing[:0], '[')
	start := i + 1
	// commas says whether an element was cut, telling "[]" (none) from
	// "[ ,]" (two empty ones).
	commas := false
	for i++; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			end, err := skipString(data, i)
			if err != nil {
				return elems, 0, err
			}
			i = end - 1
		case ',':
			if len(stack) == 1 {
				elems = append(elems, trimSpace(data[start:i]))
				start, commas = i+1, true
			}
		case '{', '[':
			stack = append(stack, c)
		case '}', ']':
			depth := len(stack)
			if (c == '}') != (stack[depth-1] == '{') {
				return elems, 0, fmt.Errorf("%w: mismatched %q at offset %d", errBadJSON, c, i)
			}
			stack = stack[:depth-1]
			if depth == 1 {
				if last := trimSpace(data[start:i]); len(last) > 0 || commas {
					elems = append(elems, last)
				}
				return elems, i + 1, nil
			}
		}
	}
	return elems, 0, fmt.Errorf("%w: unterminated array", errBadJSON)
}

func trimSpace(b []byte) []byte {
	i := skipSpace(b, 0)
	j := len(b)
	for j > i {
		switch b[j-1] {
		case ' ', '\t', '\r', '\n':
			j--
			continue
		}
		break
	}
	return b[i:j:j]
}
