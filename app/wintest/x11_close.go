package wintest

import (
	"encoding/binary"
	"errors"
)

// internAtom returns the atom named name, made if missing.
func (x *X) internAtom(name string) (uint32, error) {
	n := len(name)
	req := make([]byte, 8+n+pad4(n))
	req[0] = 16 // InternAtom, only-if-exists false
	binary.LittleEndian.PutUint16(req[2:], uint16(len(req)/4))
	binary.LittleEndian.PutUint16(req[4:], uint16(n))
	copy(req[8:], name)
	reply, err := x.roundTrip(req)
	if err != nil {
		return 0, err
	}
	if len(reply) < 12 {
		return 0, errors.New("x11: short InternAtom reply")
	}
	return binary.LittleEndian.Uint32(reply[8:]), nil
}

// CloseWindow asks window's client to close it, as a window manager's close
// button does: a WM_PROTOCOLS ClientMessage with WM_DELETE_WINDOW. The app
// gets it as a click on its close button (Fyne's close intercept); Xvfb has
// no window manager to send it, and xdotool's windowclose destroys the
// window instead.
func (x *X) CloseWindow(window uint32) error {
	protocols, err := x.internAtom("WM_PROTOCOLS")
	if err != nil {
		return err
	}
	deleteWindow, err := x.internAtom("WM_DELETE_WINDOW")
	if err != nil {
		return err
	}
	req := make([]byte, 44)
	req[0] = 25 // SendEvent, propagate false
	binary.LittleEndian.PutUint16(req[2:], 11)
	binary.LittleEndian.PutUint32(req[4:], window)
	// Event mask 0: the event goes to the client that made the window.
	ev := req[12:]
	ev[0] = 33 // ClientMessage
	ev[1] = 32 // format
	binary.LittleEndian.PutUint32(ev[4:], window)
	binary.LittleEndian.PutUint32(ev[8:], protocols)
	binary.LittleEndian.PutUint32(ev[12:], deleteWindow)
	binary.LittleEndian.PutUint32(ev[16:], 0) // CurrentTime
	if _, err := x.conn.Write(req); err != nil {
		return err
	}
	return x.Sync()
}
