// Package widgettest is what the widget packages' tests share: themes
// pinned to light or dark, a test app, screenshots for a person to look at
// (KC_SHOTS, KC_PNG_DIR), typing into the focused widget, and generated
// markdown replies. Importing it installs its kit.Driver: kit.Later queues
// its steps (RunLater drains them) and kit.InBackground runs in place, as
// the test driver needs.
// It may import Fyne and widgets/kit; nothing but tests imports it.
package widgettest
