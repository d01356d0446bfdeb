package sessionfiles

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"knightcode.ai/desktop/rpcconn"
)

// A session remembers the folder it was recorded in, and the agent
// refuses to open one whose folder is gone (pi: "Stored session working
// directory does not exist"). Real sessions outlive their folders: a
// checkout deleted, a temporary folder cleaned up. The browser marks
// them, and opening one offers a copy of it in this folder — the file with
// its header's folder replaced, the original untouched — or a read-only
// view rendered from the file, with no agent involved.

// folderGone reports whether a session's recorded folder is set and no
// longer exists.
func FolderGone(cwd string) bool {
	if cwd == "" {
		return false
	}
	info, err := os.Stat(cwd)
	return err != nil || !info.IsDir()
}

// sessionHeader reads a session file's header line.
func sessionHeader(path string) (map[string]json.RawMessage, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadBytes('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, err
	}
	var h map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimSpace(line), &h) != nil || string(h["type"]) != `"session"` {
		return nil, nil, fmt.Errorf("%s has no session header", path)
	}
	return h, line, nil
}

// sessionCwd is the folder a session file's header names, or "".
func Cwd(path string) string {
	h, _, err := sessionHeader(path)
	if err != nil {
		return ""
	}
	var cwd string
	json.Unmarshal(h["cwd"], &cwd)
	return cwd
}

// copySessionToFolder copies the session file at src with its header's
// working folder set to cwd and returns the copy's path. The copy goes
// where the agent keeps cwd's sessions: beside the original in a flat
// session folder, else in the sibling folder named for cwd. Every line
// but the header is copied byte for byte; the original is only read.
func CopyToFolder(src, cwd string) (string, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return "", err
	}
	h, line, err := sessionHeader(src)
	if err != nil {
		return "", err
	}
	h["cwd"], _ = json.Marshal(cwd)
	var header bytes.Buffer
	enc := json.NewEncoder(&header) // ends with the newline the line had
	enc.SetEscapeHTML(false)
	if err := enc.Encode(orderedHeader(h)); err != nil {
		return "", err
	}
	rest := data[len(line):]
	if !bytes.HasSuffix(line, []byte("\n")) {
		rest = nil // the file was the header alone, without a newline
	}

	dir := filepath.Dir(src)
	if name := filepath.Base(dir); strings.HasPrefix(name, "--") && strings.HasSuffix(name, "--") && len(name) > 4 {
		dir = filepath.Join(filepath.Dir(dir), FolderName(cwd))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	stem := strings.TrimSuffix(filepath.Base(src), ".jsonl")
	dst := filepath.Join(dir, stem+".jsonl")
	for i := 1; ; i++ {
		if _, err := os.Lstat(dst); errors.Is(err, os.ErrNotExist) {
			break
		}
		suffix := "-copy"
		if i > 1 {
			suffix = fmt.Sprintf("-copy-%d", i)
		}
		dst = filepath.Join(dir, stem+suffix+".jsonl")
	}
	mode := os.FileMode(0o600)
	if st, err := os.Stat(src); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, ".copy-*.jsonl")
	if err != nil {
		return "", err
	}
	_, werr := tmp.Write(append(header.Bytes(), rest...))
	if werr == nil {
		werr = tmp.Chmod(mode)
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), dst)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return "", werr
	}
	return dst, nil
}

// orderedHeader writes a header's fields in pi's order (type, version, id,
// timestamp, cwd, then any others in name order), so the copy reads like
// the original.
type orderedHeader map[string]json.RawMessage

func (h orderedHeader) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	put := func(k string) {
		v, ok := h[k]
		if !ok {
			return
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(v)
	}
	known := []string{"type", "version", "id", "timestamp", "cwd"}
	for _, k := range known {
		put(k)
	}
	var others []string
	for k := range h {
		if !slices.Contains(known, k) {
			others = append(others, k)
		}
	}
	slices.Sort(others)
	for _, k := range others {
		put(k)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// readSessionTranscript is the conversation a session file holds on its
// current branch (the one ending at its last entry) as the agent would
// load it: after the last compaction only its summary and what it kept.
func ReadTranscript(path string) ([]rpcconn.Message, error) {
	entries, err := readSessionEntries(path)
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, nil
	}
	index := make(map[string]int, len(entries))
	for i, e := range entries {
		if _, dup := index[e.ID]; !dup {
			index[e.ID] = i
		}
	}
	var branch []int
	seen := map[int]bool{}
	for i := len(entries) - 1; i >= 0 && !seen[i]; {
		seen[i] = true
		branch = append(branch, i)
		e := entries[i]
		if e.ParentID == nil {
			break
		}
		p, ok := index[*e.ParentID]
		if !ok {
			break
		}
		i = p
	}
	for l, r := 0, len(branch)-1; l < r; l, r = l+1, r-1 {
		branch[l], branch[r] = branch[r], branch[l]
	}
	from, compaction := 0, -1
	for j, i := range branch {
		if entries[i].Type == "compaction" {
			compaction = j
		}
	}
	var out []rpcconn.Message
	if compaction >= 0 {
		c := entries[branch[compaction]]
		out = append(out, rpcconn.Message{Role: rpcconn.RoleCompactionSummary, Summary: c.Summary, TokensBefore: c.TokensBefore})
		from = compaction + 1
		for j := 0; j < compaction; j++ {
			if entries[branch[j]].ID == c.FirstKeptEntryID {
				from = j
				break
			}
		}
	}
	for _, i := range branch[from:] {
		switch e := entries[i]; {
		case e.Message != nil:
			out = append(out, *e.Message)
		case e.Type == "branch_summary":
			out = append(out, rpcconn.Message{Role: rpcconn.RoleBranchSummary, Summary: e.Summary})
		}
	}
	return out, nil
}
