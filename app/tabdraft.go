package app

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"knightcode.ai/desktop/app/drafts"
)

// tabDraft keeps what a tab has not sent (the editor's text, the attached
// images, the messages queued or waiting for the agent) in the window's
// drafts keeper as it changes, so that a crash, a signal or a closed tab
// loses none of it; and brings a kept draft back when the tab starts in
// the same folder or session. It runs on the UI goroutine.
type tabDraft struct {
	t      *Tab
	keeper *drafts.Keeper // nil: drafts cannot be kept (said once at start)
	id     string
	// queued and session are the tab's queue and session file as last
	// kept, so a frame that changed neither keeps nothing.
	queued  []string
	session string
	// restored is the text a kept draft put into the editor, while the
	// note offering to discard it shows.
	restored string
	// restoredImages are the attachments it brought back.
	restoredImages []string
	// claimed is the kept draft the tab brought back, as it was kept.
	claimed *drafts.Draft
	// pending is the draft the tab opens with (a closed tab reopened);
	// nil: the tab claims one kept for its place and session.
	pending *drafts.Draft
	// released: the draft went back to the keeper untouched, or the tab
	// closed; the tab keeps nothing more.
	released bool
}

// draftIDs numbers the tabs' drafts within this run; the start time
// keeps them apart from an earlier run's.
var draftIDs int

func newTabDraft(t *Tab, keeper *drafts.Keeper) *tabDraft {
	draftIDs++
	return &tabDraft{t: t, keeper: keeper, id: fmt.Sprintf("%d-%d-%d", time.Now().UnixNano(), draftIDs, len(t.shell.tabs))}
}

// place is where the tab works, as drafts are claimed by: the folder, or
// host:folder for an agent over SSH.
func (d *tabDraft) place() string {
	if spec, ok := remoteSpec(d.t.flags); ok {
		return spec.Host.Name() + ":" + spec.Dir
	}
	return d.t.started.dir
}

// current is the tab's draft as it is now.
func (d *tabDraft) current() drafts.Draft {
	t := d.t
	dr := drafts.Draft{Place: d.place(), Session: t.session.SessionFile(), Title: t.label(),
		Text: t.composer.prompt.Editor.Text(), Queued: d.queuedNow(), Reopen: d.reopenInfo()}
	for _, img := range t.composer.images {
		switch {
		case img.kept != "":
			dr.Images = append(dr.Images, drafts.Image{Name: img.name, Path: img.kept, MimeType: img.att.MimeType})
		case img.loading || img.err != nil:
			// Not decoded (yet, or at all): the file it came from, which
			// the keeper copies; a pasted image has none until it loads.
			if img.source != "" {
				dr.Images = append(dr.Images, drafts.Image{Name: img.name, Path: img.source})
			}
		default:
			dr.Images = append(dr.Images, drafts.Image{Name: img.name, MimeType: img.att.MimeType, Data: img.att.Data})
		}
	}
	if strings.TrimSpace(dr.Text) == "" {
		dr.Text = ""
	}
	return dr
}

// queuedNow are the texts sent but not taken by the agent, oldest first.
func (d *tabDraft) queuedNow() []string {
	v := d.t.drawn
	return slices.Concat(v.Waiting, v.Steering, v.FollowUp)
}

// reopenInfo is how the window opens the tab again.
func (d *tabDraft) reopenInfo() json.RawMessage {
	data, err := json.Marshal(d.t.savedTab())
	if err != nil {
		return nil
	}
	return data
}

// keep hands the draft as it is now to the keeper, which writes it
// within its debounce.
func (d *tabDraft) keep() {
	if d.keeper == nil || d.released || d.t.shell.draftsFrozen.Load() {
		return
	}
	d.keeper.Set(d.id, d.current())
}

// follow keeps the draft when a frame changed what was queued or the
// session it belongs to.
func (d *tabDraft) follow() {
	queued, session := d.queuedNow(), d.t.session.SessionFile()
	if slices.Equal(queued, d.queued) && session == d.session {
		return
	}
	d.queued, d.session = queued, session
	d.keep()
}

// restore brings back the draft kept for this tab's place and session, if
// any: queued texts first (they were written first), then the draft's
// text, below anything already in the editor; its images attached again;
// and a note saying so, with Discard.
func (d *tabDraft) restore() {
	if d.keeper == nil {
		return
	}
	if d.pending != nil {
		kept := *d.pending
		d.pending = nil
		d.bringBack(kept)
		return
	}
	kept, ok := d.keeper.Claim(d.place(), sessionArg(d.t.flags.AgentArgs))
	if !ok {
		return
	}
	d.bringBack(kept)
}

// bringBack puts kept into the tab and keeps it under the tab's own ID.
func (d *tabDraft) bringBack(kept drafts.Draft) {
	t := d.t
	text := strings.Join(slices.Concat(kept.Queued, nonEmpty(kept.Text)), "\n\n")
	if cur := strings.TrimRight(t.composer.prompt.Editor.Text(), "\n"); strings.TrimSpace(cur) != "" {
		text = cur + "\n\n" + text
	}
	var paths []string
	for _, im := range kept.Images {
		if im.Path != "" {
			paths = append(paths, im.Path)
		}
	}
	before := len(t.composer.images)
	t.composer.loadImages(paths)
	d.restoredImages = nil
	for _, img := range t.composer.images[before:] {
		d.restoredImages = append(d.restoredImages, img.id)
	}
	if text != "" {
		t.composer.prompt.Editor.SetTextCursorAtEnd(text)
	}
	d.restored = t.composer.prompt.Editor.Text()
	d.claimed = &kept
	d.released = false
	d.keep()
	t.composer.draftRestore.ShowNote(restoredNote(kept, len(paths)), "Discard", d.discard)
}

// restoredNote says what came back and from when.
func restoredNote(kept drafts.Draft, images int) string {
	what := "Your unsent draft"
	switch {
	case len(kept.Queued) > 0:
		what = "Your unsent messages"
	case kept.Text == "" && images > 0:
		what = "Your attached images"
	}
	when := kept.Updated.Local().Format("Mon 2 Jan 15:04")
	if time.Since(kept.Updated) < 12*time.Hour {
		when = kept.Updated.Local().Format("15:04")
	}
	return what + " from " + when + " came back."
}

// discard is the note's Discard: what the draft brought back goes.
func (d *tabDraft) discard() {
	t := d.t
	text, ids := d.restored, d.restoredImages
	d.restored, d.restoredImages = "", nil
	if t.composer.prompt.Editor.Text() == text {
		t.composer.prompt.Editor.Clear()
	}
	for _, id := range ids {
		t.composer.removeImage(id)
	}
	d.keep()
}

// edited drops the note offering to discard the restored draft once the
// user changed it: Discard would take their change too.
func (d *tabDraft) edited(text string) {
	if d.restored != "" && text != d.restored {
		d.restored, d.restoredImages = "", nil
		d.t.composer.draftRestore.HideNote()
	}
}

// release gives a draft the tab brought back and left untouched to the
// keeper again, as it was, before the tab goes unused (the start's fresh
// tab when the last quit's tabs are reopened, one of which will claim
// it). It reports false when the tab holds more than that draft.
func (d *tabDraft) release() bool {
	if d.keeper == nil {
		return true
	}
	cur := d.current()
	if cur.Text != "" && cur.Text != d.restored || len(cur.Images) > len(d.restoredImages) || len(cur.Queued) > 0 {
		return false
	}
	d.keeper.Set(d.id, drafts.Draft{})
	if d.claimed != nil && (d.restored != "" || len(d.restoredImages) > 0) {
		d.keeper.Set(d.claimed.ID, *d.claimed)
	}
	d.released = true
	return true
}

// closing keeps the draft of a tab leaving the window as a closed tab's,
// to be reopened with it; it reports whether there was one.
func (d *tabDraft) closing() bool {
	if d.keeper == nil || d.released {
		return false
	}
	cur := d.current()
	d.keeper.Set(d.id, cur)
	d.keeper.Close(d.id)
	// What the closing agent hands back (its queue) must not reopen the
	// draft as an open tab's: the closed tab keeps what it had.
	d.released = true
	return cur.Text != "" || len(cur.Images) > 0 || len(cur.Queued) > 0
}

// sessionArg is the session file args pick with --session, or "".
func sessionArg(args []string) string {
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "--session" {
			return args[i+1]
		}
	}
	return ""
}

func nonEmpty(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return []string{s}
}
