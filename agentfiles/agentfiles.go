package agentfiles

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
)

// Entry is one entry of a folder listing.
type Entry struct {
	Name string
	Dir  bool
}

// Lister lists a folder, given as a slash-separated path; a folder that
// is not there is an error that satisfies errors.Is(err, fs.ErrNotExist),
// or an empty listing.
type Lister func(dir string) ([]Entry, error)

// LocalLister lists a folder of this computer.
func LocalLister(dir string) ([]Entry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(des))
	for _, d := range des {
		isDir := d.IsDir()
		if d.Type()&fs.ModeSymlink != 0 {
			if info, err := os.Stat(path.Join(dir, d.Name())); err == nil {
				isDir = info.IsDir()
			}
		}
		out = append(out, Entry{Name: d.Name(), Dir: isDir})
	}
	return out, nil
}

// Roots are where agents keep a project's files, relative to the folder:
// pi's, and the one the KnightCode reference names.
var Roots = []string{".pi", ".knightcode/agent"}

// Found is what one root of a folder holds.
type Found struct {
	// Root is the root, relative to the folder (".pi").
	Root string
	// Prompts, Extensions, Skills and Themes are the names in their
	// folders (templates and skills without their .md).
	Prompts, Extensions, Skills, Themes []string
	// SystemFiles are SYSTEM.md and APPEND_SYSTEM.md, where present.
	SystemFiles []string
	// Settings and MCP say whether settings.json and mcp.json are there.
	Settings, MCP bool
}

// Empty reports whether the root holds nothing an agent loads.
func (f Found) Empty() bool {
	return len(f.Prompts)+len(f.Extensions)+len(f.Skills)+len(f.Themes)+len(f.SystemFiles) == 0 && !f.Settings && !f.MCP
}

// Scan looks for agent files under folder (slash-separated) with list;
// roots that are missing or empty are left out. Only an error other than
// "not there" on a root itself is returned.
func Scan(folder string, list Lister) ([]Found, error) {
	var out []Found
	for _, root := range Roots {
		entries, err := list(path.Join(folder, root))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return out, err
		}
		f := Found{Root: root}
		for _, e := range entries {
			sub := path.Join(folder, root, e.Name)
			switch {
			case e.Dir && e.Name == "prompts":
				f.Prompts = names(list, sub, ".md")
			case e.Dir && e.Name == "extensions":
				f.Extensions = names(list, sub, "")
			case e.Dir && e.Name == "skills":
				f.Skills = names(list, sub, "")
			case e.Dir && e.Name == "themes":
				f.Themes = names(list, sub, ".json")
			case !e.Dir && (e.Name == "SYSTEM.md" || e.Name == "APPEND_SYSTEM.md"):
				f.SystemFiles = append(f.SystemFiles, e.Name)
			case !e.Dir && e.Name == "settings.json":
				f.Settings = true
			case !e.Dir && e.Name == "mcp.json":
				f.MCP = true
			}
		}
		if !f.Empty() {
			out = append(out, f)
		}
	}
	return out, nil
}

// names lists a folder's entries (hidden ones left out), with suffix
// taken off the names that have it.
func names(list Lister, dir, suffix string) []string {
	entries, err := list(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name, ".") {
			continue
		}
		out = append(out, strings.TrimSuffix(e.Name, suffix))
	}
	sort.Strings(out)
	return out
}

// Lines tell what f holds, a line each, for the question to the user.
func (f Found) Lines() []string {
	var lines []string
	add := func(what string, items []string, note string) {
		if len(items) == 0 {
			return
		}
		line := what + ": " + list(items, 6)
		if note != "" {
			line += " — " + note
		}
		lines = append(lines, line)
	}
	add("Prompt templates", f.Prompts, "become / commands")
	add("Extensions", f.Extensions, "programs that run on this computer, with your rights, inside the agent")
	add("Skills", f.Skills, "instructions and files the model may follow")
	add("System prompt files", f.SystemFiles, "change what the agent tells the model")
	add("Themes", f.Themes, "")
	if f.Settings {
		lines = append(lines, "Settings (settings.json) — can name more packages and resources to load")
	}
	if f.MCP {
		lines = append(lines, "MCP servers (mcp.json) — programs or services the agent starts or calls")
	}
	return lines
}

// list joins at most n items, and counts the rest.
func list(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + " and " + itoa(len(items)-n) + " more"
}

func itoa(n int) string {
	const digits = "0123456789"
	if n < 10 {
		return digits[n : n+1]
	}
	return itoa(n/10) + digits[n%10:n%10+1]
}

// approveFlag is how pi 1.6's --help offers trust for one run:
// "  -a, --approve   Trust project-local files for this run".
var approveFlag = regexp.MustCompile(`(?m)^\s*(-\w+,\s*)?--approve\b`)

// SupportsApprove reports whether an agent's --help offers --approve: the
// agent can be asked to trust the folder's files for a run.
func SupportsApprove(help string) bool { return approveFlag.MatchString(help) }
