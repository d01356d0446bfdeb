// Package gitwork keeps, compares and restores the state of a folder with
// the git command line: a checkpoint of the folder before each prompt, the
// list of what changed since one (or since HEAD) with a diff per file, and
// the actions of a review pane (revert, stage, unstage, commit).
//
// Everything goes through git run with argv (the user's git: hooks, config
// and LFS behave as they expect) by a Runner, which is a local process here
// and an SSH command for a remote tab. Checkpoints never touch the user's
// index, HEAD, branches or stash: they are commits under a private ref
// namespace (refs/knightcode/checkpoints/), built in a temporary index. A
// folder that is not a repository gets a git directory of the app's own,
// outside the folder.
//
// It imports the standard library only, so its tests (real repositories
// made by the tests) run with -race in seconds.
package gitwork
