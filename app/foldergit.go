package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"knightcode.ai/desktop/gitwork"
	"knightcode.ai/desktop/remote"
)

// folderGit is a tab's git for its folder: the checkpoints taken before
// prompts, the restores, and the changes pane's repository. The repository
// is opened on first use off the UI goroutine, and one operation runs at a
// time, so a checkpoint and a restore never work on the files together.
// Every method but the setters blocks: call them from background work.
type folderGit struct {
	// cfg is what the UI goroutine sets (the folder, the setting): its
	// own lock, never held while git runs, so a setter never waits.
	cfgMu sync.Mutex
	cfg   folderConfig

	mu sync.Mutex
	// folder is the tab's working folder; host is set for a tab whose
	// agent works over SSH, where git runs on the host. gen is the
	// config's they were taken from.
	folder string
	host   *remote.Host
	gen    int
	// ownDirs holds the git directories of folders outside any repository.
	ownDirs string
	repo    *gitwork.Repo
	// off says why there are no checkpoints for this folder; said once.
	off     error
	offSaid bool
	pruned  bool
	// lastRestore is the checkpoint that undoes the last restore, for
	// "Undo file restore".
	lastRestore *gitwork.Checkpoint
}

// ownFolderLimit bounds what a folder outside git may hold to get
// checkpoints: the app's own git directory copies every file into it, so a
// home folder would cost minutes and gigabytes.
const ownFolderLimit = 20000

// ownFolderBytes bounds the size of what such a folder holds: every byte
// of it is copied into the app's git directory once, and again as it
// changes.
const ownFolderBytes = 256 << 20

// checkpointBound bounds one checkpoint: a prompt waits for it.
const checkpointBound = 30 * time.Second

// folderConfig is the folder and setting a folderGit works with.
type folderConfig struct {
	folder string
	host   *remote.Host
	// keepDays is how long a closed session's checkpoints are kept after
	// its last one (0: for ever).
	keepDays int
	// gen changes with the folder: the repository is opened again.
	gen int
}

func newFolderGit(ownDirs string, keepDays int) *folderGit {
	return &folderGit{ownDirs: ownDirs, cfg: folderConfig{keepDays: keepDays}}
}

// setKeepDays follows the setting.
func (g *folderGit) setKeepDays(days int) {
	g.cfgMu.Lock()
	g.cfg.keepDays = days
	g.cfgMu.Unlock()
}

func (g *folderGit) config() folderConfig {
	g.cfgMu.Lock()
	defer g.cfgMu.Unlock()
	return g.cfg
}

// sessionsInUse are the sessions this process has kept checkpoints for:
// never pruned while it runs, however old their last checkpoint.
var sessionsInUse sync.Map // session key → true

func inUse() map[string]bool {
	keep := map[string]bool{}
	sessionsInUse.Range(func(k, _ any) bool {
		keep[k.(string)] = true
		return true
	})
	return keep
}

// setFolder points g at the tab's folder (on start and restart); host is
// the SSH host it is on, nil for this computer.
func (g *folderGit) setFolder(folder string, host *remote.Host) {
	g.cfgMu.Lock()
	defer g.cfgMu.Unlock()
	if folder == g.cfg.folder && sameHost(host, g.cfg.host) {
		return
	}
	g.cfg.folder, g.cfg.host = folder, host
	g.cfg.gen++
}

// with runs f with the folder's repository, opening it first.
func (g *folderGit) with(ctx context.Context, f func(*gitwork.Repo) error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if cfg := g.config(); cfg.gen != g.gen {
		g.folder, g.host, g.gen = cfg.folder, cfg.host, cfg.gen
		g.repo, g.off, g.offSaid, g.lastRestore, g.pruned = nil, nil, false, nil, false
	}
	if err := g.openLocked(ctx); err != nil {
		return err
	}
	return f(g.repo)
}

func (g *folderGit) openLocked(ctx context.Context) error {
	switch {
	case g.repo != nil:
		return nil
	case g.off != nil:
		return g.off
	case g.host != nil:
		return g.openRemoteLocked(ctx)
	case g.folder == "":
		return errors.New("the tab has no folder yet")
	}
	if _, err := exec.LookPath("git"); err != nil {
		g.off = errors.New("git was not found: checkpoints and the changes pane need it (install git, then restart the tab)")
		return g.off
	}
	repo, err := gitwork.Open(ctx, gitwork.Local{}, g.folder, gitwork.Options{OwnDirs: g.ownDirs})
	if err != nil {
		if ctx.Err() == nil {
			g.off = err
		}
		return err
	}
	if repo.Own {
		if why := ownFolderRefused(ctx, repo.Root); why != nil {
			g.off = why
			return why
		}
	}
	g.repo = repo
	return nil
}

// pruneOnce deletes, the first time a checkpoint is kept, the folder's
// checkpoints of sessions closed for longer than keepDays. Only then: by
// that time the tab's own session is known (a session reopened after
// months must keep its checkpoints), and it is among sessionsInUse.
// Failing is no reason to keep no checkpoint.
func (g *folderGit) pruneOnceLocked(ctx context.Context) {
	days := g.config().keepDays
	if g.pruned || days <= 0 || g.repo == nil {
		return
	}
	g.pruned = true
	_, _ = g.repo.Prune(ctx, time.Now().AddDate(0, 0, -days), inUse())
}

// ownFolderRefused says why a folder outside git gets no checkpoints: the
// home folder or a file system's root, or more files than ownFolderLimit.
func ownFolderRefused(ctx context.Context, folder string) error {
	clean := filepath.Clean(folder)
	if home, err := os.UserHomeDir(); err == nil && clean == filepath.Clean(home) {
		return errors.New("the folder is your home folder and not a git repository: no checkpoints are kept for it")
	}
	if filepath.Dir(clean) == clean {
		return errors.New("the folder is a file system's root: no checkpoints are kept for it")
	}
	n, size, err := countFiles(ctx, clean, ownFolderLimit, ownFolderBytes)
	if err != nil {
		return fmt.Errorf("the folder could not be read for checkpoints: %w", err)
	}
	if n > ownFolderLimit || size > ownFolderBytes {
		return fmt.Errorf("the folder is not a git repository and holds more than %d files or %d MB: no checkpoints are kept for it (make it a repository with `git init`, and ignore what needs no keeping, to have them)", ownFolderLimit, ownFolderBytes>>20)
	}
	return nil
}

// countFiles counts files under dir and their bytes, stopping past
// either limit. Folders git would never keep (.git, node_modules) are
// skipped as git's ignore rules would usually skip them.
func countFiles(ctx context.Context, dir string, limit int, bytesLimit int64) (int, int64, error) {
	n := 0
	var size int64
	stop := errors.New("enough")
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is git's to report
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			if p != dir && (d.Name() == ".git" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		n++
		if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
			size += info.Size()
		}
		if n > limit || size > bytesLimit {
			return stop
		}
		return nil
	})
	if errors.Is(err, stop) {
		err = nil
	}
	return n, size, err
}

// sessionKey names the tab's session in checkpoint refs: the session
// file's name without its extension, or the tab's own name when the agent
// keeps no file.
func sessionKey(file string) string {
	if file == "" {
		return fmt.Sprintf("unsaved-%d", os.Getpid())
	}
	return strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
}

// takeBeforePrompt keeps a checkpoint before a prompt goes out; what
// stops it is returned for the tab to say once.
func (g *folderGit) takeBeforePrompt(ctx context.Context, session string) (said error) {
	ctx, cancel := context.WithTimeout(ctx, checkpointBound)
	defer cancel()
	sessionsInUse.Store(gitwork.SessionKey(session), true)
	err := g.with(ctx, func(r *gitwork.Repo) error {
		_, err := r.Take(ctx, session, gitwork.BeforePrompt, 0)
		g.pruneOnceLocked(ctx)
		return err
	})
	if err == nil || errors.Is(err, context.Canceled) {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.offSaid {
		return nil
	}
	g.offSaid = true
	return err
}

// checkpointDirs is where folders outside git keep their checkpoints: the
// app's own storage.
func checkpointDirs(a fyne.App) string {
	return filepath.Join(a.Storage().RootURI().Path(), "checkpoints")
}

func sameHost(a, b *remote.Host) bool {
	return a == nil && b == nil || a != nil && b != nil && a.Name() == b.Name() && a.ConfigFile == b.ConfigFile
}

// openRemoteLocked opens the folder's repository on the SSH host, its git
// commands sharing one connection (a login per command would cost a
// fifth of a second each). A folder there in no repository gets no
// checkpoints: the app cannot tell from here whether it holds a home
// folder's worth of files.
func (g *folderGit) openRemoteLocked(ctx context.Context) error {
	host := *g.host
	repo, err := gitwork.Open(ctx, hostGit(host), g.folder, gitwork.Options{})
	if err != nil {
		if errors.Is(err, gitwork.ErrNotRepository) {
			err = fmt.Errorf("the folder on %s is not in a git repository: checkpoints and the changes pane over SSH need one (git init there to have them)", host.Name())
			g.off = err // until the tab's folder changes; a host that is down is tried again
		}
		return err
	}
	g.repo = repo
	return nil
}

// sshControlDir holds the control sockets of the connections git shares
// with a host: short, as a socket's path must be, and the user's own.
func sshControlDir() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("kc-ssh-%d", os.Getuid()))
}

// hostGit runs git on host, its commands sharing one connection where ssh
// can (a login per command would cost a fifth of a second each).
func hostGit(host remote.Host) gitwork.Runner {
	if shared, err := host.SharedConnections(sshControlDir(), time.Minute); err == nil {
		host = shared
	}
	return host.GitRunner()
}

// gitFor runs git where a tab's folder is: here, or on its SSH host.
func gitFor(f Flags) gitwork.Runner {
	if spec, ok := remoteSpec(f); ok {
		return hostGit(spec.Host)
	}
	return gitwork.Local{}
}
