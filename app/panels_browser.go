package app

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/sessionfiles"
	"knightcode.ai/desktop/widgets/sessions"
)

func sessionRows(infos []sessionfiles.Info, current string) []model.SessionRow {
	rows := make([]model.SessionRow, len(infos))
	titles := make(map[string]string, len(infos))
	for _, in := range infos {
		titles[in.Path] = rowTitle(in)
	}
	for i, in := range infos {
		title := titles[in.Path]
		problems := in.Problems
		if in.FolderGone {
			problems = append([]string{"folder no longer exists"}, problems...)
		}
		rows[i] = model.SessionRow{Path: in.Path, Title: title, Subtitle: in.Cwd, Modified: in.Modified,
			Messages: in.MessageCount, Model: in.Model, Problem: strings.Join(problems, "; "), Current: in.Path == current,
			From: titles[in.ParentSession]}
	}
	return rows
}

// rowTitle is sessionTitle, with words for a session without a prompt.
func rowTitle(in sessionfiles.Info) string {
	if in.Name == "" && in.FirstPrompt == "" {
		return "(empty session)"
	}
	return sessionTitle(in)
}

// actionBrowse opens the session browser: this folder's sessions first,
// all folders on request, search as you type.
func (p *sessionPanels) actionBrowse() {
	if !p.needAgent() {
		return
	}
	k := newKeyDialog(p.win, p.modals)
	b := sessions.NewSessionBrowser()
	// listed are the sessions shown, to know more of the one opened.
	var listed []sessionfiles.Info
	load := func(all bool) {
		sessions := func(ctx context.Context) ([]sessionfiles.Info, error) {
			infos, _, err := p.controller.Sessions(ctx, all)
			return infos, err
		}
		model.Ask(p.controller, model.CallTimeout, sessions, func(infos []sessionfiles.Info, err error) {
			if err != nil {
				p.showError(err)
				return
			}
			listed = infos
			b.SetSessions(sessionRows(infos, p.session.SessionFile()))
		})
	}
	// The index covers this computer's session files; a host's are
	// searched by title, folder and model only.
	if _, remote := p.controller.Remote(); !remote {
		search := func(q string) {
			if strings.TrimSpace(q) != "" {
				p.messages.search(q, b.SetMessageHits)
			}
		}
		b.OnQuery = search
		p.messages.catchUp(sessionRootsOf(p.controller.Options().Args), func() { search(b.Query()) })
	}
	previews := &previewReads{host: p.tabHost}
	b.OnPreview = func(path string) { previews.read(path, b.SetPreview) }
	k.onClosed = previews.stop
	b.OnOpen = func(path string) {
		// Found by what was said: the transcript opens at the match.
		if _, ok := b.MessageHit(path); ok {
			p.findOnOpen = findTarget{path: path, query: b.Query()}
		}
		k.Close()
		for _, in := range listed {
			if in.Path == path {
				p.openSession(in)
				return
			}
		}
		p.openSession(sessionfiles.Info{Path: path})
	}
	b.OnNew = func() {
		k.Close()
		p.controller.NewSession()
	}
	b.OnScopeChanged = load
	b.OnClose = k.Cancel
	k.build("Sessions", b)
	k.Resize(fyne.NewSize(760, 520))
	k.Show()
	b.FocusSearch(p.win.Canvas())
	load(b.Scope())
}
