// Package widgettest is what the widget packages' tests share: themes
// pinned to light or dark, a test app, screenshots for a person to look at
// (KC_SHOTS, KC_PNG_DIR), typing into the focused widget, and generated
// markdown replies. Importing it makes kit.Later queue its steps (RunLater
// drains them) and kit.InBackground run in place, as the test driver needs.
// It may import Fyne and widgets/kit; nothing but tests imports it.
package widgettest
