// Package images turns files and pasted bytes into images the agent
// accepts: it sniffs what a file is by its content, decodes it within
// limits on size and pixels, applies EXIF orientation, scales it down and
// re-encodes it, and makes the prompt bar's thumbnail. Errors say in words
// what was wrong with which file. It imports the standard library and
// golang.org/x/image only, so its tests need no window.
package images
