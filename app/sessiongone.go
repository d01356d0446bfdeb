package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/rpcconn"
	"knightcode.ai/desktop/widgets"
)

// A session remembers the folder it was recorded in, and the agent
// refuses to open one whose folder is gone (pi: "Stored session working
// directory does not exist"). Real sessions outlive their folders: a
// checkout deleted, a temporary folder cleaned up. The browser marks
// them, and opening one offers a copy of it in this folder — the file with
// its header's folder replaced, the original untouched — or a read-only
// view rendered from the file, with no agent involved.

// folderGone reports whether a session's recorded folder is set and no
// longer exists.
func folderGone(cwd string) bool {
	if cwd == "" {
		return false
	}
	info, err := os.Stat(cwd)
	return err != nil || !info.IsDir()
}

// sessionHeader reads a session file's header line.
func sessionHeader(path string) (map[string]json.RawMessage, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadBytes('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, err
	}
	var h map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimSpace(line), &h) != nil || string(h["type"]) != `"session"` {
		return nil, nil, fmt.Errorf("%s has no session header", path)
	}
	return h, line, nil
}

// sessionCwd is the folder a session file's header names, or "".
func sessionCwd(path string) string {
	h, _, err := sessionHeader(path)
	if err != nil {
		return ""
	}
	var cwd string
	json.Unmarshal(h["cwd"], &cwd)
	return cwd
}

// copySessionToFolder copies the session file at src with its header's
// working folder set to cwd and returns the copy's path. The copy goes
// where the agent keeps cwd's sessions: beside the original in a flat
// session folder, else in the sibling folder named for cwd. Every line
// but the header is copied byte for byte; the original is only read.
func copySessionToFolder(src, cwd string) (string, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return "", err
	}
	h, line, err := sessionHeader(src)
	if err != nil {
		return "", err
	}
	h["cwd"], _ = json.Marshal(cwd)
	var header bytes.Buffer
	enc := json.NewEncoder(&header) // ends with the newline the line had
	enc.SetEscapeHTML(false)
	if err := enc.Encode(orderedHeader(h)); err != nil {
		return "", err
	}
	rest := data[len(line):]
	if !bytes.HasSuffix(line, []byte("\n")) {
		rest = nil // the file was the header alone, without a newline
	}

	dir := filepath.Dir(src)
	if name := filepath.Base(dir); strings.HasPrefix(name, "--") && strings.HasSuffix(name, "--") && len(name) > 4 {
		dir = filepath.Join(filepath.Dir(dir), sessionFolderName(cwd))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	stem := strings.TrimSuffix(filepath.Base(src), ".jsonl")
	dst := filepath.Join(dir, stem+".jsonl")
	for i := 1; ; i++ {
		if _, err := os.Lstat(dst); errors.Is(err, os.ErrNotExist) {
			break
		}
		suffix := "-copy"
		if i > 1 {
			suffix = fmt.Sprintf("-copy-%d", i)
		}
		dst = filepath.Join(dir, stem+suffix+".jsonl")
	}
	mode := os.FileMode(0o600)
	if st, err := os.Stat(src); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, ".copy-*.jsonl")
	if err != nil {
		return "", err
	}
	_, werr := tmp.Write(append(header.Bytes(), rest...))
	if werr == nil {
		werr = tmp.Chmod(mode)
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), dst)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return "", werr
	}
	return dst, nil
}

// orderedHeader writes a header's fields in pi's order (type, version, id,
// timestamp, cwd, then any others in name order), so the copy reads like
// the original.
type orderedHeader map[string]json.RawMessage

func (h orderedHeader) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	put := func(k string) {
		v, ok := h[k]
		if !ok {
			return
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(v)
	}
	known := []string{"type", "version", "id", "timestamp", "cwd"}
	for _, k := range known {
		put(k)
	}
	var others []string
	for k := range h {
		if !slices.Contains(known, k) {
			others = append(others, k)
		}
	}
	slices.Sort(others)
	for _, k := range others {
		put(k)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// readSessionTranscript is the conversation a session file holds on its
// current branch (the one ending at its last entry) as the agent would
// load it: after the last compaction only its summary and what it kept.
func readSessionTranscript(path string) ([]rpcconn.Message, error) {
	entries, err := readSessionEntries(path)
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, nil
	}
	index := make(map[string]int, len(entries))
	for i, e := range entries {
		if _, dup := index[e.ID]; !dup {
			index[e.ID] = i
		}
	}
	var branch []int
	seen := map[int]bool{}
	for i := len(entries) - 1; i >= 0 && !seen[i]; {
		seen[i] = true
		branch = append(branch, i)
		e := entries[i]
		if e.ParentID == nil {
			break
		}
		p, ok := index[*e.ParentID]
		if !ok {
			break
		}
		i = p
	}
	for l, r := 0, len(branch)-1; l < r; l, r = l+1, r-1 {
		branch[l], branch[r] = branch[r], branch[l]
	}
	from, compaction := 0, -1
	for j, i := range branch {
		if entries[i].Type == "compaction" {
			compaction = j
		}
	}
	var out []rpcconn.Message
	if compaction >= 0 {
		c := entries[branch[compaction]]
		out = append(out, rpcconn.Message{Role: rpcconn.RoleCompactionSummary, Summary: c.Summary, TokensBefore: c.TokensBefore})
		from = compaction + 1
		for j := 0; j < compaction; j++ {
			if entries[branch[j]].ID == c.FirstKeptEntryID {
				from = j
				break
			}
		}
	}
	for _, i := range branch[from:] {
		switch e := entries[i]; {
		case e.Message != nil:
			out = append(out, *e.Message)
		case e.Type == "branch_summary":
			out = append(out, rpcconn.Message{Role: rpcconn.RoleBranchSummary, Summary: e.Summary})
		}
	}
	return out, nil
}

// openSession opens a session from the browser: at once when its folder
// is there, else after asking what to do instead.
func (w *Window) openSession(info SessionInfo) {
	cwd := info.Cwd
	if cwd == "" {
		cwd = sessionCwd(info.Path)
	}
	if !folderGone(cwd) {
		w.controller.SwitchSession(info.Path)
		return
	}
	w.offerGoneFolder(info, cwd)
}

// SessionFolderGone implements folderGoneUI: the agent refused a session
// whose folder is gone (opened some other way than the browser, or the
// folder went after the browser listed it). It runs on a controller
// goroutine.
func (w *Window) SessionFolderGone(path string) {
	info := SessionInfo{Path: path}
	if r, err := scanSessionFile(context.Background(), path, nil); err == nil && r.skipped == "" {
		info = r.info
	}
	w.do(func() { w.openSession(info) })
}

// offerGoneFolder says a session's folder is gone and offers a copy in
// this folder (the default) or a read-only view.
func (w *Window) offerGoneFolder(info SessionInfo, cwd string) {
	here := w.controller.WorkDir()
	title := sessionTitle(info)
	w.ask("This session's folder is gone",
		"“"+title+"” was recorded in "+cwd+", which no longer exists, so "+w.session.AgentName()+" cannot open it there.\n\n"+
			"Open a copy of it in "+here+" (the original file stays as it is), or read it without the agent.",
		dialogAction{label: "Cancel", isCancel: true},
		dialogAction{label: "View read-only", icon: theme.VisibilityIcon(), run: func() { w.viewSessionReadOnly(info, cwd) }},
		dialogAction{label: "Open a copy in this folder", icon: theme.ContentCopyIcon(), isDefault: true, run: func() { w.openSessionCopy(info.Path) }})
}

// openSessionCopy copies the session into this folder and opens the copy.
func (w *Window) openSessionCopy(path string) {
	here := w.controller.WorkDir()
	w.bg.Go(func(context.Context) {
		dst, err := copySessionToFolder(path, here)
		w.do(func() {
			if err != nil {
				w.message("Could not copy the session", "Copying "+path+" into "+here+" failed: "+err.Error())
				return
			}
			w.toasts.Show("Opened a copy in "+here+": "+dst, widgets.NoticeInfo)
			w.controller.SwitchSession(dst)
		})
	})
}

// viewSessionReadOnly shows a session's conversation, read from its file,
// in a window of its own: nothing goes to the agent. Esc or Close closes
// it; it offers the copy too.
func (w *Window) viewSessionReadOnly(info SessionInfo, cwd string) {
	w.bg.Go(func(context.Context) {
		msgs, err := readSessionTranscript(info.Path)
		w.do(func() {
			if err != nil {
				w.message("Could not read the session", err.Error())
				return
			}
			s := NewSession()
			s.LoadHistory(msgs)
			v := s.View(nil)
			win := w.app.NewWindow(sessionTitle(info) + " — read-only — " + appTitle)
			chat := widgets.NewChatView()
			chat.SetItems(v.Items)
			note := widget.NewLabel("Read-only, from " + info.Path + ". It was recorded in " + cwd + ", which no longer exists; nothing here goes to the agent.")
			note.Wrapping = fyne.TextWrapWord
			closeKeys := &widgets.DialogKeys{Cancel: win.Close}
			open := widgets.NewDialogButton("Open a copy in this folder", theme.ContentCopyIcon(), func() {
				win.Close()
				w.openSessionCopy(info.Path)
			}, closeKeys)
			closeButton := widgets.NewDialogButton("Close", theme.CancelIcon(), win.Close, closeKeys)
			top := container.NewBorder(nil, nil, widget.NewIcon(theme.InfoIcon()), container.NewCenter(container.NewHBox(open, closeButton)), note)
			win.SetContent(container.NewBorder(container.NewVBox(container.NewPadded(top), widget.NewSeparator()), nil, nil, nil, chat))
			win.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
				if ev.Name == fyne.KeyEscape {
					win.Close()
				}
			})
			win.Resize(fyne.NewSize(900, 700))
			w.readOnly = append(w.readOnly, win)
			win.SetOnClosed(func() {
				for i, o := range w.readOnly {
					if o == win {
						w.readOnly = append(w.readOnly[:i], w.readOnly[i+1:]...)
						break
					}
				}
			})
			win.Show()
		})
	})
}

// sessionTitle is how the browser names a session.
func sessionTitle(info SessionInfo) string {
	switch {
	case info.Name != "":
		return info.Name
	case info.FirstPrompt != "":
		return info.FirstPrompt
	}
	return filepath.Base(info.Path)
}
