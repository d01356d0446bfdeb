package sessions

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

const (
	scopeThisFolder = "This folder"
	scopeAllFolders = "All folders"
)

// SessionBrowser lists saved sessions, newest first, with a search box, a
// "This folder / All folders" switch, and Refresh, New session and Close
// buttons.
//
// The search filters here, as the user types: every word of the query
// must appear, ignoring case, in a session's title, folder or model. The
// app hands over all sessions of the scope and never sees the query.
//
// Keyboard: the search box has the focus; Down moves into the list, Up on
// its first row moves back, typing in the list goes on filtering, Enter
// opens. Esc in the search box clears the search and then calls OnClose;
// in the list it calls OnClose. Tab reaches the
// scope switch (the arrows change it) and the buttons (Enter presses
// them); Esc there calls OnClose too, as the Close button does.
type SessionBrowser struct {
	widget.BaseWidget

	OnOpen         func(path string)
	OnNew          func()
	OnRefresh      func()
	OnScopeChanged func(all bool)
	// OnPreview, if set, is asked for the last messages of the session
	// the selection moved to; SetPreview shows them beside the list.
	OnPreview func(path string)
	// OnQuery, if set, gets the query as it is typed, for a search in the
	// sessions' messages; SetMessageHits brings the answer.
	OnQuery func(query string)
	// OnClose is called for Esc with an empty search box and for Close.
	OnClose func()

	sessions []model.SessionRow // newest first
	hay      []string           // what the search looks in, lower-cased
	shown    []int              // indexes into sessions that match the query
	// hits are the sessions the query found in their messages, best
	// first, for hitTerms (a query since typed gets none of them).
	hits     map[string]model.MessageHit
	hitOrder []string
	hitTerms []string
	terms    []string
	all      bool
	quiet    bool

	preview     *sessionPreview
	search      *sessionSearch
	scope       *kit.Choice
	list        *kit.KeyList
	empty       *widget.Label
	count       *canvas.Text
	refresh     *kit.DialogButton
	create      *kit.DialogButton
	closeButton *kit.DialogButton
	// keys hand Esc on the switch and the buttons to OnClose.
	keys *kit.DialogKeys

	now func() time.Time
}

// NewSessionBrowser returns an empty browser showing this folder's sessions.
func NewSessionBrowser() *SessionBrowser {
	b := &SessionBrowser{now: time.Now}
	b.keys = &kit.DialogKeys{Cancel: func() {
		if b.OnClose != nil {
			b.OnClose()
		}
	}}
	b.search = newSessionSearch(b)
	b.scope = kit.NewChoice([]string{scopeThisFolder, scopeAllFolders}, b.keys)
	b.scope.OnChanged = b.scopePicked
	b.list = kit.NewKeyList(func() int { return len(b.shown) }, b.newRow, b.updateRow)
	b.list.OnActivate = func(id widget.ListItemID) { b.open(id) }
	b.preview = newSessionPreview(func() time.Time { return b.now() })
	b.list.OnSelect = func(id widget.ListItemID) { b.previewRow(id) }
	b.list.OnEscape = func() { b.keys.Escape() }
	b.list.OnLeaveTop = func() { b.focusSearch() }
	b.list.OnRune = func(r rune) {
		b.focusSearch()
		b.search.TypedRune(r)
	}
	b.empty = widget.NewLabel("")
	b.empty.Alignment = fyne.TextAlignCenter
	b.empty.Importance = widget.LowImportance
	b.count = canvas.NewText("", nil)
	b.refresh = kit.NewDialogButton("Refresh", theme.ViewRefreshIcon(), func() {
		if b.OnRefresh != nil {
			b.OnRefresh()
		}
	}, b.keys)
	b.create = kit.NewDialogButton("New session", theme.ContentAddIcon(), func() {
		if b.OnNew != nil {
			b.OnNew()
		}
	}, b.keys)
	b.create.Importance = widget.HighImportance
	b.closeButton = kit.NewDialogButton("Close", theme.CancelIcon(), func() { b.keys.Escape() }, b.keys)
	b.ExtendBaseWidget(b)
	b.filter()
	return b
}

// SetSessions replaces the sessions listed; they are shown newest first
// whatever their order. The selected session stays selected if it is
// still there.
func (b *SessionBrowser) SetSessions(rows []model.SessionRow) {
	keep := b.selectedPath()
	b.sessions = slices.Clone(rows)
	slices.SortStableFunc(b.sessions, func(x, y model.SessionRow) int { return y.Modified.Compare(x.Modified) })
	b.hay = make([]string, len(b.sessions))
	for i, s := range b.sessions {
		b.hay[i] = strings.ToLower(s.Title + "\n" + s.Subtitle + "\n" + s.Model)
	}
	b.filterKeeping(keep)
}

// SetScope shows which sessions are listed without calling OnScopeChanged.
func (b *SessionBrowser) SetScope(all bool) {
	b.all = all
	b.quiet = true
	b.scope.SetSelected(scopeLabel(all))
	b.quiet = false
	b.updateStatus()
}

// Scope reports whether all folders' sessions are listed.
func (b *SessionBrowser) Scope() (all bool) { return b.all }

// FocusSearch puts the keyboard in the search box, as when the browser
// opens.
func (b *SessionBrowser) FocusSearch(c fyne.Canvas) {
	if c != nil {
		c.Focus(b.search)
	}
}

func scopeLabel(all bool) string {
	if all {
		return scopeAllFolders
	}
	return scopeThisFolder
}

func (b *SessionBrowser) scopePicked(label string) {
	all := label == scopeAllFolders
	if b.quiet || label == "" || all == b.all {
		return
	}
	b.all = all
	b.updateStatus()
	if b.OnScopeChanged != nil {
		b.OnScopeChanged(all)
	}
}

func (b *SessionBrowser) focusSearch() {
	if c := fyne.CurrentApp().Driver().CanvasForObject(b); c != nil {
		c.Focus(b.search)
	}
}

// enterList moves the keyboard from the search box to the list.
func (b *SessionBrowser) enterList() {
	if len(b.shown) == 0 {
		return
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(b); c != nil {
		c.Focus(b.list)
	}
	if b.list.Sel < 0 {
		b.list.SelectRow(0)
	}
}

func (b *SessionBrowser) open(id widget.ListItemID) {
	if id < 0 || id >= len(b.shown) || b.OnOpen == nil {
		return
	}
	b.OnOpen(b.sessions[b.shown[id]].Path)
}

func (b *SessionBrowser) selectedPath() string {
	if id := b.list.Sel; id >= 0 && id < len(b.shown) {
		return b.sessions[b.shown[id]].Path
	}
	return ""
}

func (b *SessionBrowser) queryChanged(q string) {
	b.terms = strings.Fields(strings.ToLower(q))
	b.filter()
	if b.OnQuery != nil {
		b.OnQuery(q)
	}
}

// SetMessageHits adds the sessions whose messages match query, best first,
// below those whose title, folder or model match. An answer to a query
// the user has since changed is dropped.
func (b *SessionBrowser) SetMessageHits(query string, hits []model.MessageHit) {
	terms := strings.Fields(strings.ToLower(query))
	if !slices.Equal(terms, b.terms) {
		return
	}
	b.hitTerms = terms
	b.hits = make(map[string]model.MessageHit, len(hits))
	b.hitOrder = b.hitOrder[:0]
	for _, h := range hits {
		if _, dup := b.hits[h.Path]; !dup {
			b.hits[h.Path] = h
			b.hitOrder = append(b.hitOrder, h.Path)
		}
	}
	b.filterKeeping(b.selectedPath())
}

// previewRow asks for the preview of row id, unless it shows already.
func (b *SessionBrowser) previewRow(id widget.ListItemID) {
	if id < 0 || id >= len(b.shown) {
		return
	}
	path := b.sessions[b.shown[id]].Path
	if path == b.preview.path {
		return
	}
	b.preview.path = path
	b.preview.say("Reading…")
	if b.OnPreview != nil {
		b.OnPreview(path)
	}
}

// SetPreview shows the last messages of the session at path, if it is
// still the one chosen.
func (b *SessionBrowser) SetPreview(path string, msgs []model.PreviewMessage, err error) {
	if path != b.preview.path {
		return
	}
	b.preview.show(msgs, err)
}

// Query is the search box's text.
func (b *SessionBrowser) Query() string { return b.search.Text }

// SetQuery searches for q as if it had been typed.
func (b *SessionBrowser) SetQuery(q string) { b.search.SetText(q) }

// MessageHit is what the query found in the messages of the session at
// path, if the list shows it for that.
func (b *SessionBrowser) MessageHit(path string) (model.MessageHit, bool) {
	if len(b.terms) == 0 || !slices.Equal(b.terms, b.hitTerms) {
		return model.MessageHit{}, false
	}
	h, ok := b.hits[path]
	return h, ok
}

// filter re-applies the query; a new query starts at the best (newest)
// match, so Enter in the search box opens what is on top.
func (b *SessionBrowser) filter() { b.filterKeeping("") }

func (b *SessionBrowser) filterKeeping(path string) {
	b.shown = b.shown[:0]
	sel := 0
	listed := map[string]bool{}
	add := func(i int) {
		if b.sessions[i].Path == path && path != "" {
			sel = len(b.shown)
		}
		b.shown = append(b.shown, i)
		listed[b.sessions[i].Path] = true
	}
	for i := range b.sessions {
		if b.matches(i) {
			add(i)
		}
	}
	if len(b.terms) > 0 && slices.Equal(b.terms, b.hitTerms) {
		at := make(map[string]int, len(b.sessions))
		for i, s := range b.sessions {
			at[s.Path] = i
		}
		for _, p := range b.hitOrder {
			if i, ok := at[p]; ok && !listed[p] {
				add(i)
			}
		}
	}
	if len(b.shown) == 0 {
		sel = -1
		b.clearPreview()
	}
	b.list.Reset(sel)
	b.updateStatus()
}

// clearPreview stops showing a session no longer listed: a search that
// matches nothing must not leave the last one's messages beside it.
func (b *SessionBrowser) clearPreview() {
	if b.preview.path == "" {
		return
	}
	b.preview.path = ""
	b.preview.say(previewNone)
}

func (b *SessionBrowser) matches(i int) bool {
	for _, t := range b.terms {
		if !strings.Contains(b.hay[i], t) {
			return false
		}
	}
	return true
}

// updateStatus refreshes the count and the empty-list message.
func (b *SessionBrowser) updateStatus() {
	n, total := len(b.shown), len(b.sessions)
	switch {
	case total == 0 && b.all:
		b.empty.SetText("No saved sessions")
	case total == 0:
		b.empty.SetText("No sessions in this folder yet")
	case n == 0:
		b.empty.SetText(fmt.Sprintf("No session matches “%s”", strings.Join(b.terms, " ")))
	}
	if n == 0 {
		b.empty.Show()
	} else {
		b.empty.Hide()
	}
	switch {
	case n == total:
		b.count.Text = plural(total, "session", "sessions")
	default:
		b.count.Text = fmt.Sprintf("%d of %s", n, plural(total, "session", "sessions"))
	}
	b.count.Refresh()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// sessionSearch is the search box: it filters as the user types and sends
// the keys that belong to the list on to it.
type sessionSearch struct {
	widget.Entry
	b *SessionBrowser
}

func newSessionSearch(b *SessionBrowser) *sessionSearch {
	s := &sessionSearch{b: b}
	s.PlaceHolder = "Search sessions"
	s.ActionItem = widget.NewIcon(theme.SearchIcon())
	s.OnChanged = b.queryChanged
	s.ExtendBaseWidget(s)
	return s
}

func (s *sessionSearch) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyDown, fyne.KeyPageDown:
		s.b.enterList()
	case fyne.KeyReturn, fyne.KeyEnter:
		s.b.open(s.b.list.Sel)
	case fyne.KeyEscape:
		if s.Text != "" {
			s.SetText("")
		} else if s.b.OnClose != nil {
			s.b.OnClose()
		}
	default:
		s.Entry.TypedKey(ev)
	}
}
