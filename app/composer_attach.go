package app

import (
	"context"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	native "github.com/sqweek/dialog"

	"knightcode.ai/desktop/app/images"
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/prompt"
)

// draftImage is an image attached to the draft: loading, ready or rejected.
type draftImage struct {
	id      string
	name    string
	loading bool
	att     images.Attachment
	err     error
	// source is the file it was attached from ("" when pasted); kept is
	// the drafts keeper's copy of its decoded bytes, once made.
	source string
	kept   string
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// attachFiles sorts dropped or chosen files off the UI goroutine: images
// are attached and load there, showing each as it arrives; any other file
// or folder goes into the draft as an @path reference at the cursor, with
// a note that can undo it; a file that cannot be read is refused with the
// reason. Nothing asks a question.
func (c *composer) attachFiles(paths []string) {
	if len(paths) == 0 {
		return
	}
	c.bg.Go(func(ctx context.Context) {
		var images []string
		var refs, refused []droppedFile
		for _, p := range paths {
			switch d := classifyDrop(p); d.kind {
			case dropImage:
				images = append(images, p)
			case dropReference:
				refs = append(refs, d)
			default:
				refused = append(refused, d)
			}
		}
		c.do(func() {
			c.insertReferences(refs)
			c.refuseFiles(refused)
			c.loadImages(images)
		})
	})
}

// loadImages attaches image files, loading them off the UI goroutine.
func (c *composer) loadImages(paths []string) {
	if len(paths) == 0 {
		return
	}
	slots := make([]*draftImage, len(paths))
	for i, p := range paths {
		c.nextImage++
		slots[i] = &draftImage{id: "img" + strconv.Itoa(c.nextImage), name: baseName(p), loading: true, source: p}
		c.images = append(c.images, slots[i])
	}
	c.showAttachments()
	c.bg.Go(func(ctx context.Context) {
		images.LoadAll(ctx, paths, 0, func(i int, a images.Attachment, err error) {
			kept := c.shell.keepImage(slots[i].name, a, err)
			c.do(func() {
				slot := slots[i]
				slot.loading, slot.att, slot.err, slot.kept = false, a, err, kept
				if err == nil && a.Resized {
					c.toasts.Show(slots[i].name+": "+a.Note()+" to fit what models accept.", model.NoticeInfo)
				}
				c.showAttachments()
			})
		})
	})
}

func (c *composer) removeImage(id string) {
	for i, img := range c.images {
		if img.id == id {
			c.images = append(c.images[:i], c.images[i+1:]...)
			break
		}
	}
	c.showAttachments()
}

func (c *composer) showAttachments() {
	items := make([]model.Attachment, len(c.images))
	for i, img := range c.images {
		items[i] = model.Attachment{ID: img.id, Name: img.name, Loading: img.loading, Thumb: img.att.Thumb, Note: img.att.Note()}
		if img.err != nil {
			items[i].Error = img.err.Error()
		}
	}
	c.attachStrip.SetAttachments(items)
	c.attachmentsChanged()
}

func (c *composer) previewImage(id string) {
	for _, img := range c.images {
		if img.id == id && img.err == nil && !img.loading {
			k := newKeyDialog(c.win, c.modals)
			k.build(img.name, prompt.NewImagePreview(img.att.Data, img.name, img.att.Note()),
				dialogAction{label: "Close", isDefault: true, isCancel: true})
			k.Resize(fyne.NewSize(720, 560))
			k.Show()
			return
		}
	}
}

// readyImages are the attachments to send, and whether some still load.
func (c *composer) readyImages() (ids []string, images []model.Image, loading bool) {
	for _, img := range c.images {
		switch {
		case img.loading:
			loading = true
		case img.err == nil:
			ids = append(ids, img.id)
			images = append(images, model.Image{Data: img.att.Base64(), MimeType: img.att.MimeType})
		}
	}
	return ids, images, loading
}

// actionAttach picks image files with the platform's dialog.
func (c *composer) actionAttach() {
	c.askNative(native.File().Title("Attach images").Filter("Images", "png", "jpg", "jpeg", "gif", "webp").Load,
		func(path string) { c.attachFiles([]string{path}) },
		func() {
			d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
				if err != nil || r == nil {
					return
				}
				r.Close()
				c.attachFiles([]string{r.URI().Path()})
			}, c.win)
			c.showFileDialog(d)
		})
}

// pasteImage attaches an image from the clipboard; false when the
// clipboard holds none, so the editor pastes text as usual.
func (c *composer) pasteImage() bool {
	data, ok := clipboardImage()
	if !ok {
		return false
	}
	c.nextImage++
	slot := &draftImage{id: "img" + strconv.Itoa(c.nextImage), name: "pasted image", loading: true}
	c.images = append(c.images, slot)
	c.showAttachments()
	c.bg.Go(func(context.Context) {
		a, err := images.Decode("pasted image", data)
		kept := c.shell.keepImage(slot.name, a, err)
		c.do(func() {
			slot.loading, slot.att, slot.err, slot.kept = false, a, err, kept
			c.showAttachments()
		})
	})
	return true
}

// onDropped takes files dropped anywhere on the window.
func (c *composer) onDropped(_ fyne.Position, uris []fyne.URI) {
	var paths []string
	for _, u := range uris {
		if u.Scheme() == "file" {
			paths = append(paths, u.Path())
		}
	}
	c.attachFiles(paths)
}
