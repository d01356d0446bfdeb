package remote

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// File is a file or folder on the remote machine.
type File struct {
	// Path is the remote path, slash-separated: absolute unless the
	// caller gave a relative one.
	Path string
	Size int64
	// Modified is the modification time, to the second; zero when the
	// remote stat could not say.
	Modified time.Time
	Dir      bool
}

// Name is the last element of Path.
func (f File) Name() string { return f.Path[strings.LastIndexByte(f.Path, '/')+1:] }

// statFunction is a shell function st that writes, for each of its
// arguments that exists (symlinks followed), "TYPE/SIZE/MTIME/NAME\0":
// GNU stat in one run when it has --printf, else one stat per file (GNU,
// busybox or BSD syntax).
const statFunction = `
gnu=;
st() {
if [ -z "$gnu" ]; then if stat -L --printf '' / >/dev/null 2>&1; then gnu=1; else gnu=0; fi; fi;
if [ "$gnu" = 1 ]; then stat -L --printf '%F/%s/%Y/%n\0' -- "$@" 2>/dev/null; return 0; fi;
for f in "$@"; do
s=$(stat -L -c '%F/%s/%Y' -- "$f" 2>/dev/null || stat -L -f '%HT/%z/%m' -- "$f" 2>/dev/null) || continue;
printf '%s/%s\0' "$s" "$f";
done;
return 0;
};
`

// expandDir is shell text that turns $dir into an absolute path: "" and
// "~" are the home folder, "~/…" and relative paths are taken from it.
const expandDir = `
case $dir in "" | "~") dir=$HOME ;; "~/"*) dir=$HOME/${dir#"~/"} ;; /*) ;; *) dir=$HOME/$dir ;; esac;
`

// readDirScript lists the folder $1: its physical path, then st records
// of its entries.
const readDirScript = `
dir=$1;
` + markerFunction + expandDir + statFunction + `
if [ ! -d "$dir" ]; then m error folder-missing: there is no folder "$dir"; exit 1; fi;
cd -P "$dir" 2>/dev/null || { m error folder-denied: cannot enter the folder "$dir"; exit 1; };
printf '%s\0' "$PWD";
set --;
for f in * .*; do case $f in . | ..) continue ;; esac; if [ -e "$f" ] || [ -L "$f" ]; then set -- "$@" "$f"; fi; done;
if [ $# -gt 0 ]; then st "$@"; fi
`

// ReadDir lists a remote folder ("" or "~" is the home folder, a relative
// path is taken from there): its absolute path with symlinks resolved, and
// its entries (hidden ones too) sorted by name, folders and files that
// symlinks point to as such. For a folder chooser.
func (h Host) ReadDir(ctx context.Context, dir string) (string, []File, error) {
	var out bytes.Buffer
	if err := h.run(ctx, plainCommand(readDirScript, dir), &out); err != nil {
		return "", nil, err
	}
	abs, rest, ok := strings.Cut(out.String(), "\x00")
	if !ok {
		return "", nil, &Error{Kind: Other, Host: h.Name(), Message: fmt.Sprintf("%s sent no folder listing", h.Name())}
	}
	files := parseStats(rest)
	for i := range files {
		files[i].Path = joinRemote(abs, files[i].Path)
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return abs, files, nil
}

// parseStats reads st records.
func parseStats(s string) []File {
	var files []File
	for rec := range strings.SplitSeq(s, "\x00") {
		typ, rest, ok1 := strings.Cut(rec, "/")
		size, rest, ok2 := strings.Cut(rest, "/")
		mtime, name, ok3 := strings.Cut(rest, "/")
		if !ok1 || !ok2 || !ok3 || name == "" {
			continue
		}
		f := File{Path: name, Dir: strings.Contains(strings.ToLower(typ), "directory")}
		f.Size, _ = strconv.ParseInt(size, 10, 64)
		if sec, err := strconv.ParseInt(mtime, 10, 64); err == nil && sec > 0 {
			f.Modified = time.Unix(sec, 0)
		}
		files = append(files, f)
	}
	return files
}

func joinRemote(dir, name string) string {
	if strings.HasPrefix(name, "/") {
		return name
	}
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// catScript writes the file $1 to stdout.
const catScript = `
f=$1;
` + markerFunction + `
case $f in "~/"*) f=$HOME/${f#"~/"} ;; esac;
if [ ! -e "$f" ]; then m error file-missing: there is no file "$f"; exit 1; fi;
if [ -d "$f" ]; then m error file-unreadable: "$f" is a folder; exit 1; fi;
if [ ! -r "$f" ]; then m error file-unreadable: "$f" cannot be read; exit 1; fi;
exec cat -- "$f"
`

// ReadFile writes the remote file at path (absolute, or "~/…") to w: a
// tool's whole output, a session file, an export. No size is announced,
// so it stops with an error past maxUnsizedFile (4 GB), ending the command.
func (h Host) ReadFile(ctx context.Context, path string, w io.Writer) error {
	run, stop := context.WithCancel(ctx)
	defer stop()
	capped := &cappedWriter{w: w, left: maxUnsizedFile, stop: stop}
	err := h.run(run, plainCommand(catScript, path), capped)
	if capped.over && ctx.Err() == nil {
		return &Error{Kind: Other, Host: h.Name(), Message: fmt.Sprintf(
			"%s on %s is larger than %s: not copied", path, h.Name(), byteSize(maxUnsizedFile))}
	}
	return err
}

// CopyFile copies the remote file at remotePath to the local file
// localPath, as a whole or not at all: it is written beside it first and
// then renamed over it. For an HTML export the agent wrote there.
func (h Host) CopyFile(ctx context.Context, remotePath, localPath string) error {
	tmp, err := os.CreateTemp(filepath.Dir(localPath), "."+filepath.Base(localPath)+".part*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriterSize(tmp, 256<<10)
	err = h.ReadFile(ctx, remotePath, w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), localPath)
}

// foldersScript writes 1 or 0 and a NUL for each argument: whether it is
// a folder.
const foldersScript = `
for d in "$@"; do if [ -d "$d" ]; then printf '1\0'; else printf '0\0'; fi; done
`

// FoldersExist says which of dirs (absolute remote paths) are folders on
// the remote machine, in one connection: sessions whose folder is gone
// cannot be resumed there.
func (h Host) FoldersExist(ctx context.Context, dirs []string) (map[string]bool, error) {
	found := make(map[string]bool, len(dirs))
	if len(dirs) == 0 {
		return found, nil
	}
	var out bytes.Buffer
	if err := h.run(ctx, plainCommand(foldersScript, dirs...), &out); err != nil {
		return nil, err
	}
	answers := strings.Split(out.String(), "\x00")
	if len(answers) < len(dirs) {
		return nil, &Error{Kind: Other, Host: h.Name(), Message: fmt.Sprintf("%s answered %d of %d folders", h.Name(), len(answers)-1, len(dirs))}
	}
	for i, d := range dirs {
		found[d] = answers[i] == "1"
	}
	return found, nil
}
