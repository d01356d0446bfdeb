package chat

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

// welcomeRecent is how many of the folder's sessions the first screen
// offers; the browser has the rest.
const welcomeRecent = 5

// Welcome is what an empty conversation shows: where the agent works,
// with which model and which agent, the folder's recent sessions to go
// back to, and the keys worth knowing. It is rebuilt only when what it
// says changes, which happens a few times per session.
type Welcome struct {
	widget.BaseWidget

	// OnOpen opens a recent session by its file; OnBrowse shows them all;
	// OnChooseFolder, when set, offers another folder to work in, and
	// OnChooseHost one on another machine, OnChooseWorktree a tab in a
	// git worktree of the folder's repository.
	OnOpen           func(path string)
	OnBrowse         func()
	OnChooseFolder   func()
	OnChooseHost     func()
	OnChooseWorktree func()

	shown model.WelcomeInfo
	box   *fyne.Container
	now   func() time.Time
}

// NewWelcome returns an empty first screen; SetInfo fills it.
func NewWelcome() *Welcome {
	w := &Welcome{box: container.NewVBox(), now: time.Now}
	w.ExtendBaseWidget(w)
	return w
}

// SetInfo shows info, rebuilding the screen if it says something new.
func (w *Welcome) SetInfo(info model.WelcomeInfo) {
	if info.Equal(w.shown) && len(w.box.Objects) > 0 {
		return
	}
	w.shown = info
	w.box.Objects = w.build(info)
	w.box.Refresh()
}

func (w *Welcome) build(info model.WelcomeInfo) []fyne.CanvasObject {
	heading := widget.NewLabelWithStyle("KnightCode in "+info.Folder, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	heading.SizeName = theme.SizeNameSubHeadingText
	objs := []fyne.CanvasObject{heading}
	if info.Note != "" {
		note := widget.NewLabelWithStyle(info.Note, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		note.Wrapping = fyne.TextWrapWord
		note.Importance = widget.SuccessImportance
		objs = append(objs, note)
	}
	facts := widget.NewForm(
		widget.NewFormItem("Folder", factLabel(info.FolderPath)),
		widget.NewFormItem("Model", factLabel(orUnknown(info.Model, "asking the agent…"))),
		widget.NewFormItem("Agent", factLabel(orUnknown(info.Agent, "starting…"))),
	)
	objs = append(objs, facts)
	var elsewhere []fyne.CanvasObject
	if w.OnChooseFolder != nil {
		elsewhere = append(elsewhere, linkButton("Work in another folder…", theme.FolderOpenIcon(), w.OnChooseFolder))
	}
	if w.OnChooseHost != nil {
		elsewhere = append(elsewhere, linkButton("On another machine…", theme.ComputerIcon(), w.OnChooseHost))
	}
	if w.OnChooseWorktree != nil {
		elsewhere = append(elsewhere, linkButton("In a worktree…", theme.FolderNewIcon(), w.OnChooseWorktree))
	}
	if len(elsewhere) > 0 {
		objs = append(objs, container.NewHBox(elsewhere...))
	}

	objs = append(objs, sectionTitle("Recent sessions in this folder"))
	switch {
	case !info.RecentLoaded:
		objs = append(objs, dimLabel("Looking for sessions…"))
	case len(info.Recent) == 0:
		objs = append(objs, dimLabel("None yet: what you send starts the first one."))
	default:
		for i, r := range info.Recent {
			if i == welcomeRecent {
				break
			}
			objs = append(objs, w.recentButton(r))
		}
	}
	if info.RecentLoaded && w.OnBrowse != nil {
		more := widget.NewButton("All sessions…", w.OnBrowse)
		more.Importance = widget.LowImportance
		more.Alignment = widget.ButtonAlignLeading
		objs = append(objs, more)
	}

	objs = append(objs, sectionTitle("Keys"))
	keys := container.New(layout.NewFormLayout())
	for _, k := range info.Keys {
		keys.Add(widget.NewLabelWithStyle(k[0], fyne.TextAlignTrailing, fyne.TextStyle{Monospace: true}))
		keys.Add(dimLabel(k[1]))
	}
	return append(objs, keys)
}

// linkButton is a quiet button that reads as a link.
func linkButton(label string, icon fyne.Resource, tapped func()) *widget.Button {
	b := widget.NewButtonWithIcon(label, icon, tapped)
	b.Importance = widget.LowImportance
	b.Alignment = widget.ButtonAlignLeading
	return b
}

func (w *Welcome) recentButton(r model.SessionRow) fyne.CanvasObject {
	title := r.Title
	if title == "" {
		title = "Untitled session"
	}
	label := fmt.Sprintf("%s  ·  %s", model.OneLine(title, 70), kit.RelativeDate(r.Modified, w.now()))
	b := widget.NewButton(label, func() {
		if w.OnOpen != nil {
			w.OnOpen(r.Path)
		}
	})
	b.Importance = widget.LowImportance
	b.Alignment = widget.ButtonAlignLeading
	return b
}

func (w *Welcome) CreateRenderer() fyne.WidgetRenderer {
	// The screen sits near the top, in a column of reading width.
	column := container.New(&readingColumn{width: 640}, w.box)
	return widget.NewSimpleRenderer(container.NewVScroll(container.NewPadded(column)))
}

// readingColumn lays its one child out centred, at most width wide and
// never narrower than the child's minimum. Its own minimum is the child's:
// a column that asked for its full width would keep the window from being
// made narrower than it.
type readingColumn struct{ width float32 }

func (m *readingColumn) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return objs[0].MinSize()
}

func (m *readingColumn) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	w := max(min(size.Width, m.width), objs[0].MinSize().Width)
	objs[0].Move(fyne.NewPos((size.Width-w)/2, 0))
	objs[0].Resize(fyne.NewSize(w, size.Height))
}

func sectionTitle(s string) fyne.CanvasObject {
	l := widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	return container.NewVBox(widget.NewSeparator(), l)
}

func factLabel(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

func dimLabel(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Importance = widget.LowImportance
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

func orUnknown(s, missing string) string {
	if s == "" {
		return missing
	}
	return s
}
