package drafts

import (
	"encoding/json"
	"time"
)

// Draft is what one tab had not sent.
type Draft struct {
	// ID names the tab's draft; the keeper holds one draft per ID.
	ID string `json:"id"`
	// Place is where the tab works: a folder, or host:folder over SSH.
	Place string `json:"place"`
	// Session is the tab's session file, "" before it has one.
	Session string `json:"session,omitempty"`
	// Title is the tab's title, for a "Recently closed tabs" list.
	Title string `json:"title,omitempty"`
	// Text is the editor's text.
	Text string `json:"text,omitempty"`
	// Images are the attached images.
	Images []Image `json:"images,omitempty"`
	// Queued are messages sent but never taken: steering, follow-up and
	// waiting texts, oldest first.
	Queued []string `json:"queued,omitempty"`
	// Closed: the tab was closed with this draft; kept to be recovered.
	Closed bool `json:"closed,omitempty"`
	// Reopen is how the window opens the tab again (its flags and
	// session), in the window's own form: the keeper only stores it.
	Reopen json.RawMessage `json:"reopen,omitempty"`
	// Updated is when the draft last changed; the keeper sets it.
	Updated time.Time `json:"updated"`
}

// Image is an attached image: a file at Path, or the bytes in Data that
// the keeper writes to a file of its own (and then names in Path).
type Image struct {
	Name     string `json:"name"`
	Path     string `json:"path,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
	Data     []byte `json:"-"`
}

// empty reports whether d holds nothing worth keeping.
func (d Draft) empty() bool {
	return d.Text == "" && len(d.Images) == 0 && len(d.Queued) == 0
}

// clone copies d so that the caller's slices and the keeper's never alias.
func (d Draft) clone() Draft {
	d.Images = append([]Image(nil), d.Images...)
	d.Queued = append([]string(nil), d.Queued...)
	d.Reopen = append(json.RawMessage(nil), d.Reopen...)
	return d
}
