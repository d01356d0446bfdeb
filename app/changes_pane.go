package app

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/gitwork"
	"knightcode.ai/desktop/internal/trace"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/changes"
)

// changesPane is the right-hand pane's "Changes" tab: what the folder has
// changed since the session began, since the last commit, or in one
// message's turn, each file's diff, and the review's actions (revert,
// stage, unstage, commit) with an undo for the last revert. Its widgets
// are built the first time it is shown; git runs in the tab's background
// work, one look at a time.
type changesPane struct {
	*tabHost
	git *folderGit
	// session names the tab's session for the checkpoints a revert keeps.
	session func() string

	// object is what the pane's tab holds; built says whether the
	// widgets in it were made.
	object *fyne.Container
	built  bool

	base          *widget.Select
	refresh       *widget.Button
	summary       *widget.Label
	files         *changes.FileList
	fileName      *widget.Label
	revertBtn     *widget.Button
	stageBtn      *widget.Button
	side          *widget.Select
	diff          *changes.DiffView
	undoBar       *fyne.Container
	undoLabel     *widget.Label
	commitBox     *fyne.Container
	commitMessage *widget.Entry
	commitBtn     *widget.Button
	draftBtn      *widget.Button

	// state is what is shown; looking is set while git is asked, again
	// when another look was asked for meanwhile.
	state   paneState
	looking bool
	again   bool
	undo    *paneUndo
	// watching is the folder under watch, stopWatch ends the watch.
	watching  string
	stopWatch func()
	// drafting is set while the agent drafts a commit message; draftOver
	// is the box's text then, which the draft may replace.
	drafting  bool
	draftOver string
	// diffGen numbers the diffs asked for: only the last one is drawn.
	diffGen int
	// afterPaint (may be nil) runs done once the next frame is painted,
	// for the trace a benchmark reads.
	afterPaint func(done func())
}

// paneState is one look at the folder.
type paneState struct {
	mode paneMode
	turn int // the message's number (1 for the first) in modeTurn
	// from and to are what is compared: checkpoints' commits, "" for HEAD;
	// to "" means the folder as it is (present).
	from, to string
	present  string
	own      bool
	// root is the work tree's top on this computer, "" over SSH: what
	// the folder watch watches.
	root   string
	files  []gitwork.FileChange
	staged map[string]bool
	note   string
	// selected is the file shown, by path; fileDiff its diff and
	// showStaged whether that is the staged side (modeHead only).
	selected   string
	fileDiff   gitwork.FileDiff
	showStaged bool
}

// sideNames are the sides of a file's change since the last commit.
var sideNames = []string{"Unstaged changes", "Staged changes"}

type paneMode int

const (
	modeSession paneMode = iota // since the session's first checkpoint
	modeHead                    // since the last commit, with staging
	modeTurn                    // one message's turn
)

// paneUndo is the last revert, until the next.
type paneUndo struct {
	what string
	undo gitwork.Undo
}

func newChangesPane(h *tabHost, git *folderGit, session func() string) *changesPane {
	return &changesPane{tabHost: h, git: git, session: session, object: container.NewStack()}
}

// build makes the widgets, the first time the pane shows.
func (p *changesPane) build() {
	if p.built {
		return
	}
	p.built = true
	p.base = widget.NewSelect(nil, func(string) { p.baseChosen() })
	p.refresh = widget.NewButtonWithIcon("", theme.ViewRefreshIcon(), p.look)
	p.summary = widget.NewLabel("")
	p.summary.Truncation = fyne.TextTruncateEllipsis
	p.files = changes.NewFileList()
	p.files.OnSelect = func(_ int, f changes.File) { p.selectFile(f.Path) }
	p.fileName = widget.NewLabel("")
	p.fileName.Truncation = fyne.TextTruncateEllipsis
	p.revertBtn = widget.NewButtonWithIcon("Revert", theme.ContentUndoIcon(), p.revertFile)
	p.stageBtn = widget.NewButton("Stage", p.stageFile)
	p.side = widget.NewSelect(sideNames, func(s string) { p.sideChosen(s == sideNames[1]) })
	p.diff = changes.NewDiffView()
	p.diff.OnHunkAction = p.hunkAction
	p.undoLabel = widget.NewLabel("")
	p.undoLabel.Truncation = fyne.TextTruncateEllipsis
	p.undoBar = container.NewBorder(nil, nil, nil, widget.NewButtonWithIcon("Undo", theme.ContentUndoIcon(), p.undoRevert), p.undoLabel)
	p.undoBar.Hide()
	p.commitMessage = widget.NewMultiLineEntry()
	p.commitMessage.SetPlaceHolder("Commit message for the staged changes")
	p.commitMessage.SetMinRowsVisible(2)
	p.commitMessage.Wrapping = fyne.TextWrapWord
	p.commitMessage.OnChanged = func(string) { p.drawCommit() }
	p.commitBtn = widget.NewButtonWithIcon("Commit staged", theme.ConfirmIcon(), p.commit)
	p.draftBtn = widget.NewButtonWithIcon("Ask the agent", theme.DocumentCreateIcon(), p.askDraft)
	p.commitBox = container.NewBorder(nil, nil, nil, container.NewVBox(p.commitBtn, p.draftBtn), p.commitMessage)
	top := container.NewBorder(nil, nil, nil, p.refresh, p.base)
	// Two rows, so the buttons never widen the pane: the file's name, then
	// the side shown and the file's actions.
	fileBar := container.NewVBox(p.fileName,
		container.NewBorder(nil, nil, nil, container.NewHBox(p.stageBtn, p.revertBtn), p.side))
	split := container.NewVSplit(p.files, container.NewBorder(fileBar, nil, nil, nil,
		container.New(sideBySideWhenWide{p.diff}, p.diff)))
	split.Offset = 0.3
	p.object.Objects = []fyne.CanvasObject{container.NewBorder(
		container.NewVBox(top, p.summary), container.NewVBox(p.undoBar, p.commitBox), nil, nil, split)}
	p.object.Refresh()
	p.setBases()
}

// shown is called when the pane comes to the front: it looks again.
func (p *changesPane) shown() {
	p.build()
	p.setBases()
	p.look()
}

// visible is whether the pane is on screen, so looks are worth taking.
func (p *changesPane) visible() bool { return p.built && p.object.Visible() && p.isCurrent() }

// setBases offers the bases: the session, the last commit, each message.
func (p *changesPane) setBases() {
	opts := []string{"Since the session began", "Since the last commit"}
	n := 0
	for _, it := range p.drawn.Items {
		if it.Kind == model.ChatUser && !it.Sent.IsZero() {
			n++
			opts = append(opts, fmt.Sprintf("Message %d: %s", n, headline(it.Text, 48)))
		}
	}
	sel := p.base.SelectedIndex()
	p.base.Options = opts
	switch {
	case sel < 0:
		p.base.SetSelectedIndex(0)
	case sel >= len(opts):
		p.base.SetSelectedIndex(1)
	default:
		p.base.Refresh()
	}
}

func headline(text string, n int) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	r := []rune(line)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return line
}

func (p *changesPane) baseChosen() {
	if p.built {
		p.look()
	}
}

// look asks git for the changes again, unless a look is under way (then
// once more after it).
func (p *changesPane) look() {
	if !p.built {
		return
	}
	if p.looking {
		p.again = true
		return
	}
	p.looking = true
	want := p.wanted()
	items := p.drawn.Items
	p.bg.Go(func(ctx context.Context) {
		st := lookAt(ctx, p.git, want, items)
		if trace.Enabled() {
			trace.Mark("changes-git", diffRows(st.fileDiff))
		}
		p.do(func() {
			p.looking = false
			p.show(st)
			if p.again {
				p.again = false
				p.look()
			}
		})
	})
}

// wanted is the look the base picker asks for, keeping the file shown.
func (p *changesPane) wanted() paneState {
	st := paneState{selected: p.state.selected, showStaged: p.state.showStaged}
	switch i := p.base.SelectedIndex(); {
	case i == 1:
		st.mode = modeHead
	case i >= 2:
		st.mode, st.turn = modeTurn, i-1
	default:
		st.mode = modeSession
	}
	return st
}

// show draws a look's result.
func (p *changesPane) show(st paneState) {
	p.state = st
	p.watch(st.root)
	p.diffGen++ // a diff still on its way is older than this look
	list := make([]changes.File, len(st.files))
	added, deleted := 0, 0
	for i, f := range st.files {
		list[i] = changes.File{Path: f.Path, OldPath: f.OldPath, Status: byte(f.Status), Added: f.Added,
			Deleted: f.Deleted, Binary: f.Binary, ModeOnly: f.ModeOnly, Staged: st.staged[f.Path]}
		added += f.Added
		deleted += f.Deleted
	}
	p.files.Set(list)
	switch {
	case st.note != "" && len(st.files) == 0:
		p.summary.SetText(st.note)
	case len(st.files) == 0:
		p.summary.SetText("No changes")
	default:
		s := fmt.Sprintf("%s · +%d −%d", plural(len(st.files), "file"), added, deleted)
		if st.note != "" {
			s += " · " + st.note
		}
		p.summary.SetText(s)
	}
	p.drawFile()
	p.drawCommit()
	if trace.Enabled() {
		rows := diffRows(st.fileDiff)
		trace.Mark("changes-drawn", rows)
		if p.afterPaint != nil {
			p.afterPaint(func() { trace.Mark("changes-painted", rows) })
		}
	}
}

// diffRows counts a diff's lines, for the trace.
func diffRows(d gitwork.FileDiff) int {
	n := 0
	for _, h := range d.Hunks {
		n += len(h.Lines) + 1
	}
	return n
}

// drawFile shows the selected file's bar and diff.
func (p *changesPane) drawFile() {
	st := p.state
	f, ok := st.file(st.selected)
	if !ok {
		p.fileName.SetText("")
		p.diff.Set(changes.Diff{Note: "Choose a file to see its changes."})
		p.revertBtn.Disable()
		p.stageBtn.Hide()
		p.side.Hide()
		return
	}
	name := printablePath(f.Path)
	if f.OldPath != "" {
		name = printablePath(f.OldPath) + " → " + name
	}
	p.fileName.SetText(name)
	p.revertBtn.Enable()
	if st.mode == modeTurn && st.to != "" {
		p.revertBtn.SetText("Revert to before")
	} else {
		p.revertBtn.SetText("Revert")
	}
	head := st.mode == modeHead && !st.own
	if head {
		p.stageBtn.Show()
		if st.staged[f.Path] && st.showStaged {
			p.stageBtn.SetText("Unstage")
		} else {
			p.stageBtn.SetText("Stage")
		}
		p.side.Show()
		p.side.OnChanged = nil
		if st.showStaged {
			p.side.SetSelected(sideNames[1])
		} else {
			p.side.SetSelected(sideNames[0])
		}
		p.side.OnChanged = func(s string) { p.sideChosen(s == sideNames[1]) }
	} else {
		p.stageBtn.Hide()
		p.side.Hide()
	}
	switch {
	case head && st.showStaged:
		p.diff.SetHunkActions("Unstage")
	case head:
		p.diff.SetHunkActions("Revert", "Stage")
	default:
		p.diff.SetHunkActions("Revert")
	}
	p.diff.Set(viewDiff(f, st.fileDiff))
}

func (p *changesPane) drawCommit() {
	if !p.built {
		return
	}
	if p.state.own {
		p.commitBox.Hide()
		return
	}
	p.commitBox.Show()
	if len(p.state.staged) == 0 || strings.TrimSpace(p.commitMessage.Text) == "" {
		p.commitBtn.Disable()
	} else {
		p.commitBtn.Enable()
	}
	if n := len(p.state.staged); n > 0 {
		p.commitBtn.SetText(fmt.Sprintf("Commit %s", plural(n, "file")))
	} else {
		p.commitBtn.SetText("Commit staged")
	}
	if p.drafting {
		p.draftBtn.SetText("Drafting…")
		p.draftBtn.Disable()
	} else {
		p.draftBtn.SetText("Ask the agent")
		p.draftBtn.Enable()
	}
}

func (st paneState) file(path string) (gitwork.FileChange, bool) {
	for _, f := range st.files {
		if f.Path == path {
			return f, true
		}
	}
	return gitwork.FileChange{}, false
}

// selectFile shows path's diff.
func (p *changesPane) selectFile(path string) {
	if path == p.state.selected && len(p.state.fileDiff.Hunks) > 0 {
		return
	}
	p.state.selected = path
	p.state.fileDiff = gitwork.FileDiff{}
	p.state.showStaged = false
	p.loadDiff()
}

func (p *changesPane) sideChosen(staged bool) {
	if p.state.showStaged == staged {
		return
	}
	p.state.showStaged = staged
	p.loadDiff()
}

// loadDiff reads the selected file's diff, then draws it.
func (p *changesPane) loadDiff() {
	st := p.state
	f, ok := st.file(st.selected)
	if !ok {
		p.drawFile()
		return
	}
	p.diffGen++
	gen := p.diffGen
	p.bg.Go(func(ctx context.Context) {
		var d gitwork.FileDiff
		err := p.git.with(ctx, func(r *gitwork.Repo) error {
			var err error
			d, err = fileDiff(ctx, r, &st, f)
			return err
		})
		p.do(func() {
			if p.diffGen != gen || p.state.selected != st.selected {
				return // another file or side was chosen, or a look came, meanwhile
			}
			p.state.showStaged = st.showStaged
			if err != nil {
				p.diff.Set(changes.Diff{Note: sentence(gitWords(err))})
				return
			}
			p.state.fileDiff = d
			p.drawFile()
		})
	})
}

// sideBySideWide is the width from which the diff shows old and new side
// by side: each half then still holds a line of code.
const sideBySideWide = 900

// sideBySideWhenWide lays the diff view out over its space and shows it
// side by side when that is wide.
type sideBySideWhenWide struct{ diff *changes.DiffView }

func (l sideBySideWhenWide) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	if wide := size.Width >= sideBySideWide; wide != l.diff.SideBySide() {
		l.diff.SetSideBySide(wide)
	}
	for _, o := range objects {
		o.Move(fyne.Position{})
		o.Resize(size)
	}
}

func (l sideBySideWhenWide) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return l.diff.MinSize()
}

// watch watches root while the pane is in front of the right-hand pane:
// files changed by anything else show without a click. "" stops.
func (p *changesPane) watch(root string) {
	if root == p.watching {
		return
	}
	p.unwatch()
	if root == "" {
		return
	}
	p.watching = root
	// Walking a large tree takes a while: not on the UI goroutine.
	p.bg.Go(func(context.Context) {
		stop, err := watchFolder(root, func() { p.do(p.lookIfVisible) })
		if err != nil {
			return // Refresh, the end of a tool run and the window's return still look
		}
		p.do(func() {
			if p.watching != root || p.stopWatch != nil {
				stop() // stopped or moved meanwhile
				return
			}
			p.stopWatch = stop
		})
	})
}

func (p *changesPane) unwatch() {
	if p.stopWatch != nil {
		p.stopWatch()
	}
	p.watching, p.stopWatch = "", nil
}

// lookIfVisible looks again if the pane is on screen.
func (p *changesPane) lookIfVisible() {
	if p.visible() {
		p.look()
	}
}
