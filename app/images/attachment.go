package images

import (
	"encoding/base64"
	"fmt"
)

// Limits for images sent to the agent. Providers refuse larger images, and
// Anthropic measures its 5 MiB cap on the base64 text, so the byte budget is
// on that form with some headroom rather than on the raw file.
const (
	maxEdgePixels  = 2048
	maxBase64Size  = 4608 << 10 // 4.5 MiB of base64, about 3.4 MiB of image
	maxTotalPixels = 100_000_000
	maxFileSize    = 64 << 20
	thumbEdge      = 160
)

// Attachment is an image ready for a prompt: the bytes the agent gets, a
// thumbnail for the prompt bar, and what was done to make it acceptable.
type Attachment struct {
	Name     string
	MimeType string
	Data     []byte // encoded bytes to send
	Width    int
	Height   int
	Thumb    []byte // small PNG, long edge ≤ 160 px, for the UI

	// Resized is set when the image was scaled or recompressed to fit the
	// provider's limits; the Original fields then describe the source.
	Resized        bool
	OriginalWidth  int
	OriginalHeight int
	OriginalSize   int
}

// Base64 is the form the agent's images field carries.
func (a Attachment) Base64() string {
	return base64.StdEncoding.EncodeToString(a.Data)
}

// Note tells the user what was done to their image, so a blurrier result is
// not a surprise; it is empty when the original is sent.
func (a Attachment) Note() string {
	if !a.Resized {
		return ""
	}
	if a.Width == a.OriginalWidth && a.Height == a.OriginalHeight {
		return fmt.Sprintf("compressed from %s to %s", formatByteSize(a.OriginalSize), formatByteSize(len(a.Data)))
	}
	return fmt.Sprintf("scaled down from %d×%d (%s) to %d×%d (%s)",
		a.OriginalWidth, a.OriginalHeight, formatByteSize(a.OriginalSize),
		a.Width, a.Height, formatByteSize(len(a.Data)))
}

// formatByteSize uses binary units, matching how the limits are defined.
func formatByteSize(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%d KB", (n+1<<9)>>10)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
}

// AttachProblem classifies why an image could not be attached, so the UI can
// react (e.g. offer another file) without parsing the message.
type AttachProblem int

const (
	AttachUnreadable  AttachProblem = iota + 1 // missing, no permission, not a regular file
	AttachFolder                               // a folder was dropped
	AttachEmpty                                // zero bytes
	AttachNotImage                             // e.g. a PDF or a text file
	AttachUnsupported                          // an image, but not PNG/JPEG/GIF/WebP
	AttachCorrupt                              // the header or pixel data is broken
	AttachTooLarge                             // file or pixel count beyond what we dare load
)

// AttachmentError is a failure worded for the user: Reason is a complete
// phrase that can be shown next to the file's name.
type AttachmentError struct {
	Name    string // file name or path the user chose
	Problem AttachProblem
	Reason  string
	Err     error // underlying cause, for logs; may be nil
}

func (e *AttachmentError) Error() string {
	if e.Name == "" {
		return e.Reason
	}
	return e.Name + ": " + e.Reason
}

func (e *AttachmentError) Unwrap() error { return e.Err }

func newAttachmentError(name string, p AttachProblem, reason string, err error) *AttachmentError {
	return &AttachmentError{Name: name, Problem: p, Reason: reason, Err: err}
}
