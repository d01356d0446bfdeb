package prompt

import (
	"bytes"
	"image"
	_ "image/gif" // previews show whatever the user attached
	_ "image/jpeg"
	_ "image/png"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/kit"
)

const (
	attachThumbH   = 64  // the brief's cap: the strip must not push the editor far down
	attachTileMinW = 72  // room for a name under a tall, narrow image
	attachTileMaxW = 128 // a panorama is shown shorter rather than wider
	attachChipW    = 200
)

// AttachmentStrip shows the images attached to the draft as a row of
// thumbnails above the editor, each with a remove button, its name and a
// note; files still loading show a placeholder and rejected files an error
// chip. It hides itself when the draft has no attachments.
type AttachmentStrip struct {
	widget.BaseWidget

	// OnRemove is called with the ID of an attachment the user removed.
	OnRemove func(id string)
	// OnPreview is called with the ID of a thumbnail the user tapped.
	OnPreview func(id string)

	items []model.Attachment
	// Decoded thumbnails and their views by ID, so that a draft change
	// decodes only what is new.
	decoded map[string]*decodedThumb
	views   map[string]attachView
	row     *fyne.Container
	scroll  *container.Scroll

	decode func([]byte) (image.Image, error) // tests count calls
}

type decodedThumb struct {
	img image.Image // nil when the bytes did not decode
}

// attachView is a thumbnail tile or an error chip.
type attachView interface {
	fyne.Widget
	Set(a model.Attachment, d *decodedThumb)
	Size() fyne.Size
}

// NewAttachmentStrip returns an empty, hidden strip.
func NewAttachmentStrip() *AttachmentStrip {
	s := &AttachmentStrip{decoded: map[string]*decodedThumb{}, views: map[string]attachView{}, decode: decodeImage}
	s.row = container.New(&attachRowLayout{s: s})
	s.scroll = container.NewHScroll(s.row)
	s.ExtendBaseWidget(s)
	s.Hide()
	return s
}

func decodeImage(data []byte) (image.Image, error) {
	img, _, err := image.Decode(bytes.NewReader(data))
	return img, err
}

// SetAttachments shows items in order. A thumbnail is decoded the first
// time its ID comes with Thumb bytes, on the calling (UI) goroutine, so
// Thumb should be small; it is kept until the ID goes away, and new bytes
// for a known ID are not looked at.
func (s *AttachmentStrip) SetAttachments(items []model.Attachment) {
	if slices.EqualFunc(s.items, items, sameAttachment) {
		return
	}
	s.items = slices.Clone(items)
	keep := make(map[string]bool, len(items))
	objs := make([]fyne.CanvasObject, 0, len(items))
	for _, a := range items {
		keep[a.ID] = true
		d := s.decoded[a.ID]
		if d == nil && len(a.Thumb) > 0 && a.Error == "" {
			img, err := s.decode(a.Thumb)
			if err != nil {
				img = nil
			}
			d = &decodedThumb{img: img}
			s.decoded[a.ID] = d
		}
		v := s.views[a.ID]
		if _, chip := v.(*attachChip); v == nil || chip != (a.Error != "") {
			v = s.newView(a)
			s.views[a.ID] = v
		}
		v.Set(a, d)
		objs = append(objs, v)
	}
	for id := range s.decoded {
		if !keep[id] {
			delete(s.decoded, id)
		}
	}
	for id := range s.views {
		if !keep[id] {
			delete(s.views, id)
		}
	}
	s.row.Objects = objs
	if len(items) == 0 {
		s.Hide()
		return
	}
	s.row.Refresh()
	if s.Visible() {
		s.Refresh()
	} else {
		s.Show()
	}
}

// sameAttachment compares what the strip draws; Thumb bytes count only by
// presence, as an ID's thumbnail is decoded once.
func sameAttachment(a, b model.Attachment) bool {
	return a.ID == b.ID && a.Name == b.Name && a.Note == b.Note && a.Loading == b.Loading &&
		a.Error == b.Error && (len(a.Thumb) > 0) == (len(b.Thumb) > 0)
}

func (s *AttachmentStrip) newView(a model.Attachment) attachView {
	remove := func() {
		if s.OnRemove != nil {
			s.OnRemove(a.ID)
		}
	}
	if a.Error != "" {
		return newAttachChip(remove)
	}
	return newAttachTile(remove, func() {
		if s.OnPreview != nil {
			s.OnPreview(a.ID)
		}
	})
}

func (s *AttachmentStrip) CreateRenderer() fyne.WidgetRenderer {
	return &attachStripRenderer{s: s}
}

type attachStripRenderer struct {
	s *AttachmentStrip
}

func (r *attachStripRenderer) Destroy() {}

func (r *attachStripRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.s.scroll}
}

func (r *attachStripRenderer) MinSize() fyne.Size {
	return fyne.NewSize(0, r.s.row.MinSize().Height)
}

func (r *attachStripRenderer) Layout(size fyne.Size) {
	r.s.scroll.Resize(size)
}

func (r *attachStripRenderer) Refresh() {
	r.s.scroll.Refresh()
	r.Layout(r.s.Size())
}

// attachRowLayout places the views left to right, tops aligned.
type attachRowLayout struct {
	s *AttachmentStrip
}

func (l *attachRowLayout) gap() float32 {
	return l.s.Theme().Size(theme.SizeNamePadding) * 2
}

func (l *attachRowLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	w, h := float32(0), float32(0)
	for _, o := range objs {
		sz := o.(attachView).Size()
		w += sz.Width + l.gap()
		h = max(h, sz.Height)
	}
	if len(objs) > 0 {
		h += l.gap() / 2
	}
	return fyne.NewSize(w, h)
}

func (l *attachRowLayout) Layout(objs []fyne.CanvasObject, _ fyne.Size) {
	x := l.gap() / 2
	for _, o := range objs {
		sz := o.(attachView).Size()
		o.Move(fyne.NewPos(x, 0))
		o.Resize(sz)
		x += sz.Width + l.gap()
	}
}

// NewImagePreview shows an attached image at up to 720×480, scaled down to
// fit, with its name and note under it; the app puts it in a dialog.
func NewImagePreview(data []byte, name, note string) fyne.CanvasObject {
	title := widget.NewLabel(name)
	title.TextStyle.Bold = true
	title.Truncation = fyne.TextTruncateEllipsis
	caption := container.NewVBox(title)
	if note != "" {
		n := widget.NewLabel(note)
		n.SizeName = theme.SizeNameCaptionText
		n.Wrapping = fyne.TextWrapWord
		caption.Add(n)
	}
	img, err := decodeImage(data)
	if err != nil {
		msg := widget.NewLabel("This image cannot be shown: " + err.Error())
		msg.Wrapping = fyne.TextWrapWord
		return container.NewBorder(nil, caption, nil, nil, msg)
	}
	c := canvas.NewImageFromImage(img)
	c.FillMode = canvas.ImageFillContain
	b := img.Bounds()
	w, h := float32(max(b.Dx(), 1)), float32(max(b.Dy(), 1))
	scale := min(1, 720/w, 480/h)
	c.SetMinSize(fyne.NewSize(max(w*scale, 32), max(h*scale, 32)))
	return container.NewBorder(nil, caption, nil, nil, c)
}

// attachTile is a thumbnail (or the placeholder of one still loading) with
// a remove button on its corner and the file's name and note under it.
type attachTile struct {
	widget.BaseWidget
	a       model.Attachment
	img     image.Image
	onTap   func()
	hovered bool

	frame   *canvas.Rectangle
	thumb   *canvas.Image
	loading *canvas.Text
	name    *canvas.Text
	note    []*canvas.Text
	remove  *attachRemove
}

var (
	_ fyne.Tappable      = (*attachTile)(nil)
	_ desktop.Hoverable  = (*attachTile)(nil)
	_ desktop.Cursorable = (*attachTile)(nil)
)

func newAttachTile(remove, tap func()) *attachTile {
	t := &attachTile{onTap: tap, frame: canvas.NewRectangle(nil), thumb: &canvas.Image{FillMode: canvas.ImageFillContain},
		loading: canvas.NewText("Loading…", nil), name: canvas.NewText("", nil), remove: newAttachRemove(remove)}
	t.ExtendBaseWidget(t)
	return t
}

func (t *attachTile) Set(a model.Attachment, d *decodedThumb) {
	var img image.Image
	if d != nil {
		img = d.img
	}
	if img != t.img {
		t.img = img
		t.thumb.Image, t.thumb.Resource = img, nil
		if img == nil {
			t.thumb.Resource = theme.BrokenImageIcon()
		}
		t.thumb.Refresh()
	}
	t.a = a
	t.Refresh()
}

func (t *attachTile) Tapped(*fyne.PointEvent) {
	if !t.a.Loading {
		t.onTap()
	}
}

func (t *attachTile) Cursor() desktop.Cursor {
	if t.a.Loading {
		return desktop.DefaultCursor
	}
	return desktop.PointerCursor
}

func (t *attachTile) MouseIn(*desktop.MouseEvent) { t.hovered = true; t.Restyle(); t.frame.Refresh() }

func (t *attachTile) MouseMoved(*desktop.MouseEvent) {}

func (t *attachTile) MouseOut() { t.hovered = false; t.Restyle(); t.frame.Refresh() }

// geometry: the remove button overhangs the frame's top-right corner by
// over, inside the tile's bounds so that it still gets its taps.
func (t *attachTile) geometry() (frameW, over, capSize, capH float32) {
	th := t.Theme()
	over = th.Size(theme.SizeNameInlineIcon) / 2
	capSize = th.Size(theme.SizeNameCaptionText)
	capH = fyne.MeasureText("Mg", capSize, fyne.TextStyle{}).Height
	frameW = attachTileMinW
	if t.img != nil && !t.a.Loading {
		b := t.img.Bounds()
		frameW = float32(b.Dx()) * attachThumbH / float32(max(b.Dy(), 1))
		frameW = min(max(frameW, attachTileMinW), attachTileMaxW)
	}
	return
}

func (t *attachTile) noteLines() []string {
	if t.a.Note == "" {
		return nil
	}
	frameW, _, capSize, _ := t.geometry()
	return kit.WrapPlain(t.a.Note, frameW, capSize, fyne.TextStyle{}, 2)
}

func (t *attachTile) Size() fyne.Size {
	frameW, over, _, capH := t.geometry()
	return fyne.NewSize(frameW+over, over+attachThumbH+2+capH*float32(1+len(t.noteLines())))
}

func (t *attachTile) HeightAt(float32) float32 { return t.Size().Height }

func (t *attachTile) CreateRenderer() fyne.WidgetRenderer { return &kit.SelfRenderer{W: t} }

func (t *attachTile) Restyle() {
	th := t.Theme()
	t.frame.FillColor = kit.ResolveColor(th, theme.ColorNameInputBackground)
	t.frame.CornerRadius = th.Size(theme.SizeNameInputRadius)
	t.frame.StrokeWidth = 1
	t.frame.StrokeColor = kit.ResolveColor(th, theme.ColorNameInputBorder)
	if t.hovered && !t.a.Loading {
		t.frame.StrokeColor = kit.ResolveColor(th, theme.ColorNamePrimary)
	}
	t.thumb.CornerRadius = t.frame.CornerRadius
	t.loading.Color = kit.ResolveColor(th, theme.ColorNamePlaceHolder)
	t.name.Color = kit.ResolveColor(th, theme.ColorNameForeground)
}

func (t *attachTile) Arrange(fyne.Size) {
	frameW, over, capSize, capH := t.geometry()
	t.frame.Move(fyne.NewPos(0, over))
	t.frame.Resize(fyne.NewSize(frameW, attachThumbH))
	t.thumb.Hidden, t.loading.Hidden = t.a.Loading, !t.a.Loading
	inset := float32(1) // inside the frame's border
	if t.img == nil {
		inset = attachThumbH / 4 // the broken-image icon, not a photo
	}
	t.thumb.Move(fyne.NewPos(inset, over+inset))
	t.thumb.Resize(fyne.NewSize(frameW-2*inset, attachThumbH-2*inset))
	t.loading.TextSize = capSize
	ls := t.loading.MinSize()
	t.loading.Move(fyne.NewPos((frameW-ls.Width)/2, over+(attachThumbH-ls.Height)/2))
	t.loading.Resize(ls)
	d := 2 * over
	t.remove.Move(fyne.NewPos(frameW-over, 0))
	t.remove.Resize(fyne.NewSquareSize(d))

	y := over + attachThumbH + 2
	t.name.TextSize = capSize
	t.name.Text = kit.FitText(kit.OneLine(t.a.Name), frameW, capSize, fyne.TextStyle{})
	t.name.Move(fyne.NewPos(0, y))
	t.name.Resize(fyne.NewSize(frameW, capH))
	t.name.Refresh()
	lines := t.noteLines()
	for len(t.note) < len(lines) {
		t.note = append(t.note, canvas.NewText("", nil))
	}
	t.note = t.note[:len(lines)]
	muted := kit.ResolveColor(t.Theme(), theme.ColorNamePlaceHolder)
	for i, s := range lines {
		n := t.note[i]
		n.Text, n.TextSize, n.Color = s, capSize, muted
		n.Move(fyne.NewPos(0, y+capH*float32(i+1)))
		n.Resize(fyne.NewSize(frameW, capH))
		n.Refresh()
	}
}

func (t *attachTile) Parts() []fyne.CanvasObject {
	objs := []fyne.CanvasObject{t.frame, t.thumb, t.loading, t.name}
	for _, n := range t.note {
		objs = append(objs, n)
	}
	return append(objs, t.remove)
}
