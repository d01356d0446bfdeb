package wintest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// Screenshot saves the whole screen of display as a PNG with ImageMagick's
// import.
func Screenshot(display, path string) error {
	cmd := exec.Command("import", "-window", "root", path)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("import: %v: %s", err, out)
	}
	return nil
}

// Word is a word tesseract read, with its box in screenshot pixels.
type Word struct {
	Text       string
	X, Y, W, H int
	Conf       float64
}

// Center is the middle of the word's box.
func (w Word) Center() (int, int) { return w.X + w.W/2, w.Y + w.H/2 }

// ocrVariant turns the screenshot into an image tesseract reads better
// and says how its coordinates scale back.
type ocrVariant struct {
	name  string
	args  []string // convert options between input and output
	scale int
}

// The app's theme is dark: plain grey reads most text, and a hard
// threshold, inverted and doubled, reads light text on coloured buttons
// (white on blue), which tesseract's own binarisation loses.
var ocrVariants = []ocrVariant{
	{"gray", []string{"-colorspace", "gray"}, 1},
	{"threshold", []string{"-colorspace", "gray", "-threshold", "55%", "-negate", "-resize", "200%"}, 2},
}

// OCR reads the words of the PNG at path (cropped to g when g is not
// zero) with tesseract, once per preprocessing variant, and returns them
// all with coordinates in the screenshot's pixels. The preprocessed images
// are left beside path.
func OCR(path string, g Geometry) ([]Word, error) {
	var all []Word
	for _, v := range ocrVariants {
		out := strings.TrimSuffix(path, filepath.Ext(path)) + ".ocr-" + v.name + ".png"
		args := []string{path}
		if g.W > 0 && g.H > 0 {
			args = append(args, "-crop", fmt.Sprintf("%dx%d+%d+%d", g.W, g.H, g.X, g.Y), "+repage")
		}
		args = append(append(args, v.args...), out)
		if b, err := exec.Command("convert", args...).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("convert: %v: %s", err, b)
		}
		cmd := exec.Command("tesseract", out, "-", "--psm", "11", "tsv")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("tesseract: %v: %s", err, stderr.String())
		}
		for _, w := range parseTSV(stdout.String()) {
			w.X, w.Y, w.W, w.H = w.X/v.scale+g.X, w.Y/v.scale+g.Y, w.W/v.scale, w.H/v.scale
			all = append(all, w)
		}
	}
	return all, nil
}

// parseTSV reads tesseract's TSV: level page block par line word left top
// width height conf text; only word rows (level 5) with text.
func parseTSV(tsv string) []Word {
	var out []Word
	for _, line := range strings.Split(tsv, "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 12 || f[0] != "5" || strings.TrimSpace(f[11]) == "" {
			continue
		}
		n := func(i int) int { v, _ := strconv.Atoi(f[i]); return v }
		conf, _ := strconv.ParseFloat(f[10], 64)
		out = append(out, Word{Text: f[11], X: n(6), Y: n(7), W: n(8), H: n(9), Conf: conf})
	}
	return out
}

// normWord lowercases a word and drops what is not a letter or digit.
func normWord(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// FindWord returns the first word that reads as want (case and
// punctuation aside).
func FindWord(words []Word, want string) (Word, bool) {
	want = normWord(want)
	for _, w := range words {
		if normWord(w.Text) == want {
			return w, true
		}
	}
	return Word{}, false
}

// Text joins the words, for messages.
func Text(words []Word) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.Text)
	}
	return b.String()
}
