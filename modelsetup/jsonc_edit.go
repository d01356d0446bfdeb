package modelsetup

import (
	"encoding/json"
	"fmt"
	"strings"
)

// setPath returns text with the member at path (keys of nested objects)
// set to value, every other byte of the text as it was: comments, trailing
// commas, order and the file's own indentation stay. Objects missing on the
// way are made. A value on the way that is not an object is an error.
func setPath(text string, path []string, value any) (string, error) {
	root, err := parseJSONC(text)
	if err != nil {
		return "", err
	}
	unit := indentUnit(text)
	if root == nil {
		nested := nest(path, value)
		out, err := json.MarshalIndent(nested, "", unit)
		if err != nil {
			return "", err
		}
		// Comments before or after nothing stay above the new object.
		return strings.TrimRight(text, " \t\r\n") + leadingNewline(text) + string(out) + "\n", nil
	}
	cur := root
	for i, key := range path {
		if cur.kind != '{' {
			return "", fmt.Errorf("%s is not an object", strings.Join(path[:i], "."))
		}
		indent := memberIndent(text, cur, unit)
		m := cur.member(key)
		if m == nil {
			rendered, err := render(nest(path[i+1:], value), indent, unit)
			if err != nil {
				return "", err
			}
			return insertMember(text, cur, key, rendered, indent), nil
		}
		if i == len(path)-1 {
			rendered, err := render(value, indent, unit)
			if err != nil {
				return "", err
			}
			return text[:m.value.start] + rendered + text[m.value.end:], nil
		}
		cur = m.value
	}
	return text, nil
}

func leadingNewline(text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	return "\n"
}

// nest wraps value in an object for each key: nest([a b], v) = {a: {b: v}}.
func nest(keys []string, value any) any {
	for i := len(keys) - 1; i >= 0; i-- {
		value = map[string]any{keys[i]: value}
	}
	return value
}

// render is value as JSON for a member whose line starts with indent.
func render(value any, indent, unit string) (string, error) {
	out, err := json.MarshalIndent(value, indent, unit)
	return string(out), err
}

// insertMember adds "key": rendered as obj's last member, after a trailing
// comma if the object has one (and keeping it), on a line of its own.
func insertMember(text string, obj *jsonValue, key, rendered, indent string) string {
	k, _ := json.Marshal(key)
	line := string(k) + ": " + rendered
	if len(obj.members) == 0 {
		inner := text[obj.start+1 : obj.end-1]
		closing := lineIndent(text, obj.start)
		if strings.TrimSpace(inner) == "" {
			return text[:obj.start+1] + "\n" + indent + line + "\n" + closing + text[obj.end-1:]
		}
		// Only comments inside: the member goes after them.
		return text[:obj.end-1] + "\n" + indent + line + "\n" + closing + text[obj.end-1:]
	}
	last := obj.members[len(obj.members)-1].value.end
	p := &jsoncParser{text: text, pos: last}
	p.space()
	if p.pos < len(text) && text[p.pos] == ',' {
		// A trailing comma: the new member follows it and keeps the style.
		at := p.pos + 1
		if eol, ok := lineEndsInComment(text, at); ok {
			return text[:eol+1] + indent + line + ",\n" + text[eol+1:]
		}
		return text[:at] + "\n" + indent + line + "," + text[at:]
	}
	if eol, ok := lineEndsInComment(text, last); ok {
		// A comment after the last member stays with it.
		return text[:last] + "," + text[last:eol+1] + indent + line + "\n" + text[eol+1:]
	}
	return text[:last] + ",\n" + indent + line + text[last:]
}

// lineEndsInComment reports whether the rest of the line from pos holds
// only white space and comments, and where the line ends (its '\n').
func lineEndsInComment(text string, pos int) (eol int, ok bool) {
	for pos < len(text) {
		switch {
		case text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\r':
			pos++
		case text[pos] == '\n':
			return pos, true
		case strings.HasPrefix(text[pos:], "//"):
			i := strings.IndexByte(text[pos:], '\n')
			return pos + i, i >= 0
		case strings.HasPrefix(text[pos:], "/*"):
			i := strings.Index(text[pos+2:], "*/")
			if i < 0 || strings.Contains(text[pos:pos+2+i], "\n") {
				return 0, false
			}
			pos += 2 + i + 2
		default:
			return 0, false
		}
	}
	return 0, false
}

// memberIndent is the indentation of obj's members: that of its first
// member's line when it starts one, else one unit more than obj's line.
func memberIndent(text string, obj *jsonValue, unit string) string {
	if len(obj.members) > 0 {
		k := obj.members[0].keyStart
		lineStart := strings.LastIndexByte(text[:k], '\n') + 1
		if ws := text[lineStart:k]; strings.TrimLeft(ws, " \t") == "" {
			return ws
		}
	}
	return lineIndent(text, obj.start) + unit
}

// lineIndent is the white space that starts the line holding pos.
func lineIndent(text string, pos int) string {
	lineStart := strings.LastIndexByte(text[:pos], '\n') + 1
	end := lineStart
	for end < len(text) && (text[end] == ' ' || text[end] == '\t') {
		end++
	}
	return text[lineStart:end]
}

// indentUnit guesses one level of the file's indentation: a tab, or the
// smallest run of spaces that starts a line; two spaces for a file with
// none.
func indentUnit(text string) string {
	best := ""
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "\t") {
			return "\t"
		}
		n := len(line) - len(strings.TrimLeft(line, " "))
		if n > 0 && n < len(line) && (best == "" || n < len(best)) {
			best = line[:n]
		}
	}
	if best == "" {
		return "  "
	}
	return best
}
