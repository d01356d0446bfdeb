package app

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"knightcode.ai/desktop/widgets/kit"
)

// shownOutput is what the viewer shows of a tool's output file.
type shownOutput struct {
	name, path string
	text       string
	// size is the file's size; cut says only its head is in text.
	size int64
	cut  bool
}

// loadOutput checks path, then reads the head of the file and cleans it
// for display.
func loadOutput(path string, folders []string) (shownOutput, error) {
	f, err := checkOutputPath(path, folders)
	if err != nil {
		return shownOutput{}, err
	}
	defer f.Close()
	head, cut, err := readHead(f, outputViewLimit)
	if err != nil {
		return shownOutput{}, fmt.Errorf("%s cannot be read: %w", f.asked, err)
	}
	size := f.info.Size()
	if cut {
		size = max(size, outputViewLimit+1) // it grew since
	}
	return shownOutput{name: filepath.Base(f.asked), path: f.asked, text: cleanOutputText(head),
		size: size, cut: cut}, nil
}

// readHead reads at most limit bytes of r, cut after the last whole UTF-8
// character; cut says there was more.
func readHead(r io.Reader, limit int) (head string, cut bool, err error) {
	buf := make([]byte, limit+1)
	n, err := io.ReadFull(r, buf)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	if err != nil {
		return "", false, err
	}
	if n <= limit {
		return string(buf[:n]), false, nil
	}
	return string(wholeRunes(buf[:limit])), true, nil
}

// wholeRunes drops a character the cut at the end of b split.
func wholeRunes(b []byte) []byte {
	start := len(b)
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			start = i
			break
		}
	}
	if start < len(b) && !utf8.FullRune(b[start:]) {
		return b[:start]
	}
	return b
}

// cleanOutputText makes a program's output plain text: terminal escape
// sequences (colours, cursor moves, titles) go, a carriage return ends a
// line, and other control characters, or bytes that are not UTF-8, show
// as U+FFFD. Tabs and newlines stay.
func cleanOutputText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			i += escapeLen(s[i:])
			continue
		case c == '\r':
			b.WriteByte('\n')
			i++
			if i < len(s) && s[i] == '\n' {
				i++
			}
			continue
		case c == '\n' || c == '\t':
			b.WriteByte(c)
			i++
			continue
		case c < 0x20 || c == 0x7f:
			b.WriteRune(utf8.RuneError)
			i++
			continue
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || (r >= 0x80 && r < 0xa0) { // not UTF-8, or a C1 control
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// escapeLen is the length of the escape sequence at the start of s (which
// starts with ESC), as terminals read them (ECMA-48): CSI (colours, cursor
// moves), the string commands OSC, DCS, SOS, PM and APC (ended by BEL or
// ESC \; here also by a line's end, so a broken one cannot hide the rest
// of the file), and two- or three-byte escapes.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch c := s[1]; {
	case c == '[':
		i := 2
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
			i++ // parameters and intermediates
		}
		if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
			i++ // the final byte
		}
		return i
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		for i := 2; i < len(s); i++ {
			switch s[i] {
			case 0x07:
				return i + 1
			case '\n', '\r':
				return i
			case 0x1b:
				if i+1 < len(s) && s[i+1] == '\\' {
					return i + 2
				}
				return i
			}
		}
		return len(s)
	case c >= 0x20 && c <= 0x2f: // ESC ( B and the like
		i := 2
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
			i++
		}
		return i
	case c >= 0x30 && c <= 0x7e:
		return 2
	}
	return 1
}

// cutNote says how much of the file the viewer shows, when not all.
func (o shownOutput) cutNote() string {
	if !o.cut {
		return ""
	}
	total := kit.ByteSize(int(o.size))
	if total == kit.ByteSize(outputViewLimit) {
		total = fmt.Sprintf("%d bytes", o.size)
	}
	return "Showing the first 1 MB of " + total + "."
}
