package drafts

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// imagesDir holds the keeper's copies of attached images, one folder per
// content hash: an image attached to many drafts, or kept across many
// writes, is stored once.
const imagesDir = "draft-images"

// storeImages gives every image of drafts a file of the keeper's: bytes
// are written, a file elsewhere is copied (the user may delete or change
// it before the draft is restored). An image whose file cannot be read
// keeps its path.
func storeImages(dir string, drafts []Draft) error {
	for i := range drafts {
		imgs := drafts[i].Images
		for j := range imgs {
			data := imgs[j].Data
			if data == nil {
				if imgs[j].Path == "" || ownImage(dir, imgs[j].Path) {
					continue
				}
				read, err := os.ReadFile(imgs[j].Path)
				if err != nil {
					continue
				}
				data = read
			}
			path, err := storeImage(dir, imgs[j].Name, data)
			if err != nil {
				return err
			}
			imgs[j].Path, imgs[j].Data = path, nil
		}
	}
	return nil
}

// StoreImage keeps a copy of an attached image's bytes in the keeper's
// folder and returns its path, for Set to name instead of handing over the
// bytes on every change (each write would hash them again). The copy is
// dropped at a later Open when no draft names it.
func (k *Keeper) StoreImage(name string, data []byte) (string, error) {
	return storeImage(k.dir, name, data)
}

// storeImage writes data as draft-images/<hash>/<name>, unless it is there.
func storeImage(dir, name string, data []byte) (string, error) {
	sum := sha256.Sum256(data)
	folder := filepath.Join(dir, imagesDir, hex.EncodeToString(sum[:]))
	name = filepath.Base(name)
	if name == "." || name == string(filepath.Separator) || name == "" {
		name = "image"
	}
	path := filepath.Join(folder, name)
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(folder, 0o700); err != nil {
		return "", err
	}
	return path, writeAtomic(path, data, os.Rename)
}

// ownImage reports whether path is one of the keeper's image files.
func ownImage(dir, path string) bool {
	return imageFolder(dir, path) != ""
}

// imageFolder is the hash folder of one of the keeper's image files, or "".
func imageFolder(dir, path string) string {
	rel, err := filepath.Rel(filepath.Join(dir, imagesDir), path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return ""
	}
	first, _, ok := strings.Cut(filepath.ToSlash(rel), "/")
	if !ok {
		return ""
	}
	return first
}

// sweepImages removes the image folders no draft refers to.
func sweepImages(dir string, drafts []Draft) {
	used := map[string]bool{}
	for _, d := range drafts {
		for _, im := range d.Images {
			if f := imageFolder(dir, im.Path); f != "" {
				used[f] = true
			}
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, imagesDir))
	for _, e := range entries {
		if !used[e.Name()] {
			os.RemoveAll(filepath.Join(dir, imagesDir, e.Name()))
		}
	}
}
