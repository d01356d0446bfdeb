package rpcconn

// Extension UI methods. The first four are dialogs that wait for an
// ExtensionUIResponse; the rest are fire-and-forget.
const (
	UISelect        = "select"
	UIConfirm       = "confirm"
	UIInput         = "input"
	UIEditor        = "editor"
	UINotify        = "notify"
	UISetStatus     = "setStatus"
	UISetWidget     = "setWidget"
	UISetTitle      = "setTitle"
	UISetEditorText = "set_editor_text"
)

// ExtensionUIRequest is an extension asking the user something (a dialog) or
// telling the window something (fire-and-forget). Fields not used by Method
// stay zero. Everything here is plain text from an extension: never markup.
type ExtensionUIRequest struct {
	ID     string `json:"id"`
	Method string `json:"method"`

	// Dialogs (select, confirm, input, editor) and setTitle.
	Title       string   `json:"title,omitempty"`
	Message     string   `json:"message,omitempty"`
	Options     []string `json:"options,omitempty"`
	Placeholder string   `json:"placeholder,omitempty"`
	Prefill     string   `json:"prefill,omitempty"`
	// TimeoutMs is when the agent resolves the dialog by itself with its
	// default; 0 means never.
	TimeoutMs int `json:"timeout,omitempty"`

	// notify: NotifyType is info, warning or error (info when empty).
	NotifyType string `json:"notifyType,omitempty"`

	// setStatus: a nil StatusText clears the key.
	StatusKey  string  `json:"statusKey,omitempty"`
	StatusText *string `json:"statusText,omitempty"`

	// setWidget: nil WidgetLines clears the key. WidgetPlacement is
	// aboveEditor (when empty) or belowEditor.
	WidgetKey       string   `json:"widgetKey,omitempty"`
	WidgetLines     []string `json:"widgetLines,omitempty"`
	WidgetPlacement string   `json:"widgetPlacement,omitempty"`

	// set_editor_text
	Text string `json:"text,omitempty"`
}

// EventType implements Event.
func (ExtensionUIRequest) EventType() string { return TypeExtensionUIRequest }

// IsDialog reports whether the request waits for an answer.
func (r ExtensionUIRequest) IsDialog() bool {
	switch r.Method {
	case UISelect, UIConfirm, UIInput, UIEditor:
		return true
	}
	return false
}

// UIAnswer is the user's answer to a dialog. Build one with AnswerValue,
// AnswerConfirmed or AnswerCancelled.
type UIAnswer struct {
	value     *string
	confirmed *bool
	cancelled bool
}

// AnswerValue answers select, input and editor dialogs.
func AnswerValue(v string) UIAnswer { return UIAnswer{value: &v} }

// AnswerConfirmed answers a confirm dialog.
func AnswerConfirmed(yes bool) UIAnswer { return UIAnswer{confirmed: &yes} }

// AnswerCancelled dismisses any dialog.
func AnswerCancelled() UIAnswer { return UIAnswer{cancelled: true} }

type extensionUIResponse struct {
	Type      string  `json:"type"`
	ID        string  `json:"id"`
	Value     *string `json:"value,omitempty"`
	Confirmed *bool   `json:"confirmed,omitempty"`
	Cancelled bool    `json:"cancelled,omitempty"`
}

func (a UIAnswer) record(id string) extensionUIResponse {
	return extensionUIResponse{
		Type:      "extension_ui_response",
		ID:        id,
		Value:     a.value,
		Confirmed: a.confirmed,
		Cancelled: a.cancelled,
	}
}

// String describes the answer for logs and tests: value=…, confirmed=…
// or cancelled.
func (a UIAnswer) String() string {
	switch {
	case a.cancelled:
		return "cancelled"
	case a.confirmed != nil:
		if *a.confirmed {
			return "confirmed=true"
		}
		return "confirmed=false"
	case a.value != nil:
		return "value=" + *a.value
	}
	return "empty"
}
