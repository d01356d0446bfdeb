package gitwork

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// refPrefix is the private namespace checkpoints live in: not a branch,
// tag or stash entry, so the user's git shows none of them unless asked
// for every ref, and git's garbage collection keeps what they point at.
const refPrefix = "refs/knightcode/checkpoints/"

// Kind says why a checkpoint was taken.
type Kind string

const (
	BeforePrompt  Kind = "prompt"  // before a prompt went out
	BeforeRestore Kind = "restore" // before files were restored: the restore's undo
	BeforeRevert  Kind = "revert"  // before the changes pane reverted something: its undo
)

// Checkpoint is the folder's state at one moment, kept as a commit under
// refPrefix/<session>/.
type Checkpoint struct {
	Ref     string
	Commit  string
	Session string // the session's key (SessionKey)
	Kind    Kind
	// Turn is the number of the user message the checkpoint was taken
	// before (1 for the session's first), 0 when it belongs to no message.
	Turn int
	Time time.Time
}

var unsafeRefChars = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// SessionKey makes a session's id usable as one level of a ref name.
func SessionKey(id string) string {
	k := strings.Trim(unsafeRefChars.ReplaceAllString(id, "-"), "-")
	if k == "" {
		return "unnamed"
	}
	if len(k) > 80 {
		k = k[:80]
	}
	return k
}

// Take keeps the folder's present state as a checkpoint of session.
func (r *Repo) Take(ctx context.Context, session string, kind Kind, turn int) (Checkpoint, error) {
	s, err := r.takeSnapshot(ctx)
	if err != nil {
		return Checkpoint{}, err
	}
	defer s.close(ctx)
	return r.keep(ctx, s.Tree, session, kind, turn)
}

// checkpointIdentity signs checkpoint commits, so a repository without
// user.name can have them and the user's name is not put on what the app
// made.
var checkpointIdentity = []string{
	"GIT_AUTHOR_NAME=KnightCode", "GIT_AUTHOR_EMAIL=checkpoints@knightcode.invalid",
	"GIT_COMMITTER_NAME=KnightCode", "GIT_COMMITTER_EMAIL=checkpoints@knightcode.invalid",
}

func (r *Repo) keep(ctx context.Context, tree, session string, kind Kind, turn int) (Checkpoint, error) {
	now := time.Now()
	key := SessionKey(session)
	msg := fmt.Sprintf("knightcode checkpoint: %s\n\nSession: %s\nTurn: %d\n", kind, session, turn)
	args := []string{"commit-tree", tree}
	if head, ok, err := r.head(ctx); err != nil {
		return Checkpoint{}, err
	} else if ok {
		args = append(args, "-p", head) // so `git log` of it reads as "after HEAD"
	}
	commit, err := r.git(ctx, checkpointIdentity, []byte(msg), args...)
	if err != nil {
		return Checkpoint{}, err
	}
	c := Checkpoint{
		Commit: strings.TrimSpace(string(commit)), Session: key, Kind: kind, Turn: turn,
		Time: now,
	}
	c.Ref = fmt.Sprintf("%s%s/%019d-%s-%d", refPrefix, key, now.UnixNano(), kind, turn)
	if _, err := r.git(ctx, nil, nil, "update-ref", "-m", "knightcode checkpoint", c.Ref, c.Commit, ""); err != nil {
		return Checkpoint{}, err
	}
	return c, nil
}

// Checkpoints lists session's checkpoints, oldest first.
func (r *Repo) Checkpoints(ctx context.Context, session string) ([]Checkpoint, error) {
	return r.listCheckpoints(ctx, refPrefix+SessionKey(session)+"/")
}

// AllCheckpoints lists every session's checkpoints in the repository,
// oldest first: a message's checkpoint is found by time (BeforeMessage),
// since a fork or an edited resend carries the message into another
// session file.
func (r *Repo) AllCheckpoints(ctx context.Context) ([]Checkpoint, error) {
	list, err := r.listCheckpoints(ctx, refPrefix)
	sort.SliceStable(list, func(i, j int) bool { return list[i].Time.Before(list[j].Time) })
	return list, err
}

func (r *Repo) listCheckpoints(ctx context.Context, prefix string) ([]Checkpoint, error) {
	out, err := r.git(ctx, nil, nil, "for-each-ref", "--format=%(refname)%09%(objectname)", prefix)
	if err != nil {
		return nil, err
	}
	var list []Checkpoint
	for _, line := range strings.Split(string(out), "\n") {
		ref, commit, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		if c, ok := parseCheckpointRef(ref); ok {
			c.Commit = commit
			list = append(list, c)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Ref < list[j].Ref })
	return list, nil
}

func parseCheckpointRef(ref string) (Checkpoint, bool) {
	rest, ok := strings.CutPrefix(ref, refPrefix)
	if !ok {
		return Checkpoint{}, false
	}
	session, name, ok := strings.Cut(rest, "/")
	if !ok {
		return Checkpoint{}, false
	}
	parts := strings.SplitN(name, "-", 3)
	if len(parts) != 3 {
		return Checkpoint{}, false
	}
	nanos, err1 := strconv.ParseInt(parts[0], 10, 64)
	turn, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil {
		return Checkpoint{}, false
	}
	return Checkpoint{
		Ref: ref, Session: session, Kind: Kind(parts[1]), Turn: turn, Time: time.Unix(0, nanos),
	}, true
}

// BeforeTurn is the checkpoint taken before user message turn went out:
// the last one, when the message was sent more than once (edited and
// resent).
func BeforeTurn(list []Checkpoint, turn int) (Checkpoint, bool) {
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].Kind == BeforePrompt && list[i].Turn == turn {
			return list[i], true
		}
	}
	return Checkpoint{}, false
}

// BeforeMessage is the checkpoint taken just before a user message went
// out: the newest one taken before prompts after the message before it
// (after, zero for the first) and no later than the agent took this one
// (sent). list is oldest first. A checkpoint taken for the message before
// is never the answer, so a message that went out without one (a failed
// checkpoint) has none.
func BeforeMessage(list []Checkpoint, after, sent time.Time) (Checkpoint, bool) {
	for i := len(list) - 1; i >= 0; i-- {
		c := list[i]
		if c.Kind != BeforePrompt || c.Time.After(sent) {
			continue
		}
		if !c.Time.After(after) {
			return Checkpoint{}, false
		}
		return c, true
	}
	return Checkpoint{}, false
}

// Prune deletes the checkpoints of sessions not in keep whose newest
// checkpoint is older than before, and says how many sessions went.
func (r *Repo) Prune(ctx context.Context, before time.Time, keep map[string]bool) (int, error) {
	all, err := r.listCheckpoints(ctx, refPrefix)
	if err != nil {
		return 0, err
	}
	newest := map[string]time.Time{}
	for _, c := range all {
		if c.Time.After(newest[c.Session]) {
			newest[c.Session] = c.Time
		}
	}
	kept := map[string]bool{}
	for id := range keep {
		kept[SessionKey(id)] = true
	}
	var script strings.Builder
	gone := map[string]bool{}
	for _, c := range all {
		if kept[c.Session] || !newest[c.Session].Before(before) {
			continue
		}
		gone[c.Session] = true
		fmt.Fprintf(&script, "delete %s\n", c.Ref)
	}
	if script.Len() == 0 {
		return 0, nil
	}
	_, err = r.git(ctx, nil, []byte(script.String()), "update-ref", "--stdin")
	return len(gone), err
}
