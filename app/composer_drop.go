package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"knightcode.ai/desktop/app/images"
	"knightcode.ai/desktop/model"
)

// What a dropped (or chosen) file becomes: an image attached to the draft,
// a reference to the file typed into the draft at the cursor ("@path", the
// way the agent is pointed at files), or nothing, with the reason.
type dropKind int

const (
	dropImage dropKind = iota
	dropReference
	dropRefused
)

// droppedFile is one path sorted by classifyDrop.
type droppedFile struct {
	path   string
	kind   dropKind
	folder bool
	// reason says why a refused file was refused.
	reason string
}

// dropSniffBytes is how much of a file is read to tell an image from
// anything else: enough for every format images.SniffKind knows (SVG looks
// furthest, 4 KiB).
const dropSniffBytes = 4096

// imageExtensions are names that promise an image: such a file is
// attached even when it is empty or broken, so the chip says what is wrong
// with the image the user meant to attach.
var imageExtensions = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true,
	".bmp": true, ".tif": true, ".tiff": true, ".heic": true, ".heif": true, ".avif": true,
	".jxl": true, ".jp2": true, ".ico": true, ".psd": true, ".qoi": true,
}

// classifyDrop reads a file's first bytes to decide what it becomes. An
// image format the agent cannot take (BMP, HEIC…) is still an image: the
// attachment then says so. SVG is text the agent can read, so it is a
// reference, as are documents, sources and folders. A file that cannot be
// read is refused with the reason.
func classifyDrop(path string) droppedFile {
	d := droppedFile{path: path}
	refuse := func(err error) droppedFile {
		d.kind = dropRefused
		d.reason = attachReason(images.Unreadable(path, err))
		return d
	}
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return refuse(err)
	case fi.IsDir():
		d.kind, d.folder = dropReference, true
		return d
	case !fi.Mode().IsRegular():
		d.kind, d.reason = dropRefused, "not a regular file (a device, socket or pipe)"
		return d
	}
	f, err := os.Open(path)
	if err != nil {
		return refuse(err)
	}
	defer f.Close()
	head := make([]byte, dropSniffBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return refuse(err)
	}
	head = head[:n]
	mime, _, _ := images.SniffKind(head)
	switch {
	case mime == "image/svg+xml":
		d.kind = dropReference
	case strings.HasPrefix(mime, "image/"):
		d.kind = dropImage
	case imageExtensions[strings.ToLower(filepath.Ext(path))] && (n == 0 || mime == "" || mime == "application/octet-stream"):
		d.kind = dropImage // named as an image but empty or unrecognised: the chip says which
	default:
		d.kind = dropReference
	}
	return d
}

func attachReason(err error) string {
	var ae *images.AttachmentError
	if errors.As(err, &ae) {
		return ae.Reason
	}
	return err.Error()
}

// fileReference is how the draft names a file for the agent: "@" and its
// path, relative to the agent's working folder when inside it, a folder
// with a trailing slash, in quotes when it holds a space — as the agent's
// own @ completion writes it.
func fileReference(path, workDir string, folder bool) string {
	if workDir != "" {
		if rel, err := filepath.Rel(workDir, path); err == nil && rel != "." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != ".." {
			path = rel
		}
	}
	path = filepath.ToSlash(path)
	if folder && !strings.HasSuffix(path, "/") {
		path += "/"
	}
	if strings.ContainsAny(path, " \t") {
		return `@"` + path + `"`
	}
	return "@" + path
}

func isSpace(r rune) bool { return r == ' ' || r == '\n' || r == '\t' }

// insertReferences types references to files into the draft at the
// cursor, spaced from what is around them, and says so in a note whose
// Undo takes them out again (as Ctrl+Z does).
func (c *composer) insertReferences(files []droppedFile) {
	if len(files) == 0 {
		return
	}
	if spec, onHost := c.controller.Remote(); onHost {
		// A path here means nothing on the host; nothing is typed, so
		// nothing needs taking back.
		c.toasts.Show("The agent runs on "+spec.Host.Name()+" and cannot read files on this computer: "+
			baseName(files[0].path)+" was not added. Images can be dropped: they travel with the prompt.", model.NoticeWarning)
		return
	}
	refs := make([]string, len(files))
	for i, f := range files {
		refs[i] = fileReference(f.path, c.started.dir, f.folder)
	}
	e := c.prompt.Editor
	e.CollapseSelection() // the references go after a selection, never over it
	text := []rune(e.Text())
	at := min(e.CursorOffset(), len(text))
	ins := strings.Join(refs, " ")
	if at > 0 && !isSpace(text[at-1]) {
		ins = " " + ins
	}
	if at == len(text) || !isSpace(text[at]) {
		ins += " "
	}
	e.InsertAtCursor(ins)
	c.focus(e)
	what := baseName(files[0].path)
	if files[0].folder {
		what = "the folder " + what
	}
	if len(files) > 1 {
		what = fmt.Sprintf("%d files", len(files))
	}
	c.referenceNote = e.Text()
	c.draftRestore.ShowNote("Added a reference to "+what+" to your prompt: the agent reads it from disk.", "Undo", func() {
		c.referenceNote = ""
		e.UndoInsert()
		c.focus(e)
	})
}

// refuseFiles says why files could not be added, one line each.
func (c *composer) refuseFiles(files []droppedFile) {
	for _, f := range files {
		c.toasts.Show("Not added: "+f.path+": "+f.reason+".", model.NoticeWarning)
	}
}
