package wintest

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// X is a minimal X11 client, just enough for measurements that xdotool
// cannot time: it sends a key through the XTEST extension from this very
// process (so the send time is known to the microsecond, not "somewhere in
// an xdotool process's life"), and reads pixels back with GetImage to see
// when a window really painted. Requests are sent one at a time, each
// followed by its reply, so no sequence numbers are tracked.
type X struct {
	conn     net.Conn
	r        *bufio.Reader
	Root     uint32
	Width    int
	Height   int
	minKey   byte
	perKey   int
	keysyms  []uint32 // (keycode-minKey)*perKey + column
	xtest    byte     // XTEST's major opcode
	keyCache map[rune]byte
}

// DialX connects to the display named by display (":N" or ":N.S"), with
// the MIT-MAGIC-COOKIE-1 from XAUTHORITY (or ~/.Xauthority) when there is one.
func DialX(display string) (*X, error) {
	num, err := displayNumber(display)
	if err != nil {
		return nil, err
	}
	conn, err := net.DialTimeout("unix", fmt.Sprintf("/tmp/.X11-unix/X%s", num), 5*time.Second)
	if err != nil {
		return nil, fmt.Errorf("x11: %w", err)
	}
	x := &X{conn: conn, r: bufio.NewReaderSize(conn, 1<<16), keyCache: map[rune]byte{}}
	if err := x.setup(num); err != nil {
		conn.Close()
		return nil, err
	}
	return x, nil
}

func displayNumber(display string) (string, error) {
	i := strings.LastIndexByte(display, ':')
	if i < 0 || (i > 0 && display[:i] != "unix") {
		return "", fmt.Errorf("x11: only local displays are supported, not %q", display)
	}
	num := display[i+1:]
	if j := strings.IndexByte(num, '.'); j >= 0 {
		num = num[:j]
	}
	if _, err := strconv.Atoi(num); err != nil {
		return "", fmt.Errorf("x11: bad display %q", display)
	}
	return num, nil
}

// Close ends the connection.
func (x *X) Close() error { return x.conn.Close() }

func pad4(n int) int { return (4 - n%4) % 4 }

func (x *X) setup(num string) error {
	name, data := xauthCookie(num)
	req := make([]byte, 12)
	req[0] = 'l'
	binary.LittleEndian.PutUint16(req[2:], 11)
	binary.LittleEndian.PutUint16(req[6:], uint16(len(name)))
	binary.LittleEndian.PutUint16(req[8:], uint16(len(data)))
	req = append(req, name...)
	req = append(req, make([]byte, pad4(len(name)))...)
	req = append(req, data...)
	req = append(req, make([]byte, pad4(len(data)))...)
	if _, err := x.conn.Write(req); err != nil {
		return fmt.Errorf("x11 setup: %w", err)
	}
	head := make([]byte, 8)
	if _, err := io.ReadFull(x.r, head); err != nil {
		return fmt.Errorf("x11 setup: %w", err)
	}
	rest := make([]byte, int(binary.LittleEndian.Uint16(head[6:]))*4)
	if _, err := io.ReadFull(x.r, rest); err != nil {
		return fmt.Errorf("x11 setup: %w", err)
	}
	if head[0] != 1 {
		reason := rest
		if head[0] == 0 && int(head[1]) <= len(rest) {
			reason = rest[:head[1]]
		}
		return fmt.Errorf("x11 setup refused: %s", strings.TrimSpace(string(reason)))
	}
	vendorLen := int(binary.LittleEndian.Uint16(rest[16:]))
	nFormats := int(rest[21])
	x.minKey = rest[26]
	maxKey := rest[27]
	screen := 32 + vendorLen + pad4(vendorLen) + 8*nFormats
	if len(rest) < screen+40 {
		return errors.New("x11 setup: short reply")
	}
	x.Root = binary.LittleEndian.Uint32(rest[screen:])
	x.Width = int(binary.LittleEndian.Uint16(rest[screen+20:]))
	x.Height = int(binary.LittleEndian.Uint16(rest[screen+22:]))
	if err := x.loadKeymap(x.minKey, maxKey); err != nil {
		return err
	}
	return x.initXTest()
}

// xauthCookie finds the display's MIT-MAGIC-COOKIE-1, if any.
func xauthCookie(num string) (name, data []byte) {
	path := os.Getenv("XAUTHORITY")
	if path == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, nil
		}
		path = filepath.Join(home, ".Xauthority")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil
	}
	field := func() ([]byte, bool) {
		if len(b) < 2 {
			return nil, false
		}
		n := int(binary.BigEndian.Uint16(b))
		if len(b) < 2+n {
			return nil, false
		}
		f := b[2 : 2+n]
		b = b[2+n:]
		return f, true
	}
	for len(b) >= 2 {
		family := binary.BigEndian.Uint16(b)
		b = b[2:]
		_, ok1 := field() // address
		number, ok2 := field()
		n, ok3 := field()
		d, ok4 := field()
		if !(ok1 && ok2 && ok3 && ok4) {
			return nil, nil
		}
		if (family == 256 || family == 65535) && string(number) == num && string(n) == "MIT-MAGIC-COOKIE-1" {
			return n, d
		}
	}
	return nil, nil
}

// roundTrip sends a request and reads its reply: the 32-byte head and the
// rest. Events are skipped; an X error is returned as an error.
func (x *X) roundTrip(req []byte) ([]byte, error) {
	if _, err := x.conn.Write(req); err != nil {
		return nil, err
	}
	return x.readReply()
}

func (x *X) readReply() ([]byte, error) {
	for {
		head := make([]byte, 32)
		if _, err := io.ReadFull(x.r, head); err != nil {
			return nil, err
		}
		switch head[0] {
		case 0:
			return nil, fmt.Errorf("x11 error %d (major opcode %d)", head[1], head[10])
		case 1:
			extra := int(binary.LittleEndian.Uint32(head[4:])) * 4
			if extra == 0 {
				return head, nil
			}
			out := make([]byte, 32+extra)
			copy(out, head)
			if _, err := io.ReadFull(x.r, out[32:]); err != nil {
				return nil, err
			}
			return out, nil
		}
		// An event: nothing here selects any, but skip them all the same.
	}
}

func (x *X) loadKeymap(minKey, maxKey byte) error {
	count := int(maxKey) - int(minKey) + 1
	req := make([]byte, 8)
	req[0] = 101 // GetKeyboardMapping
	binary.LittleEndian.PutUint16(req[2:], 2)
	req[4] = minKey
	req[5] = byte(count)
	rep, err := x.roundTrip(req)
	if err != nil {
		return fmt.Errorf("x11 GetKeyboardMapping: %w", err)
	}
	x.perKey = int(rep[1])
	for i := 32; i+4 <= len(rep); i += 4 {
		x.keysyms = append(x.keysyms, binary.LittleEndian.Uint32(rep[i:]))
	}
	return nil
}

func (x *X) initXTest() error {
	name := "XTEST"
	req := make([]byte, 8, 8+len(name)+pad4(len(name)))
	req[0] = 98 // QueryExtension
	binary.LittleEndian.PutUint16(req[2:], uint16(2+(len(name)+pad4(len(name)))/4))
	binary.LittleEndian.PutUint16(req[4:], uint16(len(name)))
	req = append(req, name...)
	req = append(req, make([]byte, pad4(len(name)))...)
	rep, err := x.roundTrip(req)
	if err != nil {
		return fmt.Errorf("x11 QueryExtension: %w", err)
	}
	if rep[8] == 0 {
		return errors.New("x11: the server has no XTEST extension")
	}
	x.xtest = rep[9]
	// XTestGetVersion, as Xlib's XTestQueryExtension does first.
	v := []byte{x.xtest, 0, 2, 0, 2, 0, 2, 0}
	if _, err := x.roundTrip(v); err != nil {
		return fmt.Errorf("x11 XTestGetVersion: %w", err)
	}
	return nil
}

// Keycode returns the keycode that types r without modifiers (its keysym
// in the first column of the keyboard map). Latin-1 runes only.
func (x *X) Keycode(r rune) (byte, error) {
	if k, ok := x.keyCache[r]; ok {
		return k, nil
	}
	if r > 0xff {
		return 0, fmt.Errorf("x11: no keysym for %q", r)
	}
	for i := 0; i*x.perKey < len(x.keysyms); i++ {
		if x.keysyms[i*x.perKey] == uint32(r) {
			k := x.minKey + byte(i)
			x.keyCache[r] = k
			return k, nil
		}
	}
	return 0, fmt.Errorf("x11: no unshifted key types %q", r)
}

func (x *X) fakeInput(typ, detail byte) []byte {
	req := make([]byte, 36)
	req[0] = x.xtest
	req[1] = 2 // XTestFakeInput
	binary.LittleEndian.PutUint16(req[2:], 9)
	req[4] = typ
	req[5] = detail
	return req
}

// syncReq is GetInputFocus: a round trip that returns once the server has
// processed every request before it.
var syncReq = []byte{43, 0, 1, 0}

// Key presses and releases the key typing r (to whichever window has the
// input focus) and returns the moment the press was written to the server.
// It returns after a round trip, so the server has processed both.
func (x *X) Key(r rune) (time.Time, error) {
	k, err := x.Keycode(r)
	if err != nil {
		return time.Time{}, err
	}
	buf := append(x.fakeInput(2, k), x.fakeInput(3, k)...) // KeyPress, KeyRelease
	buf = append(buf, syncReq...)
	sent := time.Now()
	if _, err := x.conn.Write(buf); err != nil {
		return sent, err
	}
	_, err = x.readReply()
	return sent, err
}

// Sync waits until the server has processed everything sent so far.
func (x *X) Sync() error {
	_, err := x.roundTrip(syncReq)
	return err
}

// GetImage reads a rectangle of the root window as 32-bit pixels (ZPixmap,
// depth 24). The rectangle must lie on the screen.
func (x *X) GetImage(px, py, w, h int) ([]byte, error) {
	req := make([]byte, 20)
	req[0] = 73 // GetImage
	req[1] = 2  // ZPixmap
	binary.LittleEndian.PutUint16(req[2:], 5)
	binary.LittleEndian.PutUint32(req[4:], x.Root)
	binary.LittleEndian.PutUint16(req[8:], uint16(px))
	binary.LittleEndian.PutUint16(req[10:], uint16(py))
	binary.LittleEndian.PutUint16(req[12:], uint16(w))
	binary.LittleEndian.PutUint16(req[14:], uint16(h))
	binary.LittleEndian.PutUint32(req[16:], 0xffffffff)
	rep, err := x.roundTrip(req)
	if err != nil {
		return nil, err
	}
	return rep[32:], nil
}

// Colours counts the distinct pixel values in a GetImage result, up to max.
func Colours(pix []byte, max int) int {
	seen := map[uint32]struct{}{}
	for i := 0; i+4 <= len(pix); i += 4 {
		seen[binary.LittleEndian.Uint32(pix[i:])&0xffffff] = struct{}{}
		if len(seen) >= max {
			break
		}
	}
	return len(seen)
}
