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

// attachFiles sorts dropped or chosen files off the UI goroutine: images
// are attached and load there, showing each as it arrives; any other file
// or folder goes into the draft as an @path reference at the cursor, with
// a note that can undo it; a file that cannot be read is refused with the
// reason. Nothing asks a question.
func (w *Tab) attachFiles(paths []string) {
	if len(paths) == 0 {
		return
	}
	w.bg.Go(func(ctx context.Context) {
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
		w.do(func() {
			w.insertReferences(refs)
			w.refuseFiles(refused)
			w.loadImages(images)
		})
	})
}

// loadImages attaches image files, loading them off the UI goroutine.
func (w *Tab) loadImages(paths []string) {
	if len(paths) == 0 {
		return
	}
	slots := make([]*draftImage, len(paths))
	for i, p := range paths {
		w.nextImage++
		slots[i] = &draftImage{id: "img" + strconv.Itoa(w.nextImage), name: baseName(p), loading: true, source: p}
		w.images = append(w.images, slots[i])
	}
	w.showAttachments()
	w.bg.Go(func(ctx context.Context) {
		images.LoadAll(ctx, paths, 0, func(i int, a images.Attachment, err error) {
			kept := w.shell.keepImage(slots[i].name, a, err)
			w.do(func() {
				slot := slots[i]
				slot.loading, slot.att, slot.err, slot.kept = false, a, err, kept
				if err == nil && a.Resized {
					w.toasts.Show(slots[i].name+": "+a.Note()+" to fit what models accept.", model.NoticeInfo)
				}
				w.showAttachments()
			})
		})
	})
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

func (w *Tab) removeImage(id string) {
	for i, img := range w.images {
		if img.id == id {
			w.images = append(w.images[:i], w.images[i+1:]...)
			break
		}
	}
	w.showAttachments()
}

func (w *Tab) showAttachments() {
	items := make([]model.Attachment, len(w.images))
	for i, img := range w.images {
		items[i] = model.Attachment{ID: img.id, Name: img.name, Loading: img.loading, Thumb: img.att.Thumb, Note: img.att.Note()}
		if img.err != nil {
			items[i].Error = img.err.Error()
		}
	}
	w.attachStrip.SetAttachments(items)
	w.draft.keep()
}

func (w *Tab) previewImage(id string) {
	for _, img := range w.images {
		if img.id == id && img.err == nil && !img.loading {
			k := newKeyDialog(w.win, w.modals)
			k.build(img.name, prompt.NewImagePreview(img.att.Data, img.name, img.att.Note()),
				dialogAction{label: "Close", isDefault: true, isCancel: true})
			k.Resize(fyne.NewSize(720, 560))
			k.Show()
			return
		}
	}
}

// readyImages are the attachments to send, and whether some still load.
func (w *Tab) readyImages() (ids []string, images []model.Image, loading bool) {
	for _, img := range w.images {
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
func (w *Tab) actionAttach() {
	w.askNative(native.File().Title("Attach images").Filter("Images", "png", "jpg", "jpeg", "gif", "webp").Load,
		func(path string) { w.attachFiles([]string{path}) },
		func() {
			d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
				if err != nil || r == nil {
					return
				}
				r.Close()
				w.attachFiles([]string{r.URI().Path()})
			}, w.win)
			w.showFileDialog(d)
		})
}

// pasteImage attaches an image from the clipboard; false when the
// clipboard holds none, so the editor pastes text as usual.
func (w *Tab) pasteImage() bool {
	data, ok := clipboardImage()
	if !ok {
		return false
	}
	w.nextImage++
	slot := &draftImage{id: "img" + strconv.Itoa(w.nextImage), name: "pasted image", loading: true}
	w.images = append(w.images, slot)
	w.showAttachments()
	w.bg.Go(func(context.Context) {
		a, err := images.Decode("pasted image", data)
		kept := w.shell.keepImage(slot.name, a, err)
		w.do(func() {
			slot.loading, slot.att, slot.err, slot.kept = false, a, err, kept
			w.showAttachments()
		})
	})
	return true
}

// onDropped takes files dropped anywhere on the window.
func (w *Tab) onDropped(_ fyne.Position, uris []fyne.URI) {
	var paths []string
	for _, u := range uris {
		if u.Scheme() == "file" {
			paths = append(paths, u.Path())
		}
	}
	w.attachFiles(paths)
}
