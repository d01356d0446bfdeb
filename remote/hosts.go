package remote

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxIncludeDepth is how deep Include may nest, as in ssh (16).
const maxIncludeDepth = 16

// Hosts lists the Host names of an ssh config that name one host: the
// words of Host lines without wildcards (* ?) or negation (!), in the order
// they first appear, following Include. configFile "" means ~/.ssh/config;
// a missing file lists nothing. As in ssh, an Include path that is not
// absolute is taken from ~/.ssh, ~ is the home folder, and globs are
// expanded. Match blocks and every other keyword are ignored.
func Hosts(configFile string) ([]string, error) {
	home, _ := os.UserHomeDir()
	return hostsIn(configFile, home)
}

func hostsIn(configFile, home string) ([]string, error) {
	if configFile == "" {
		if home == "" {
			return nil, errors.New("no home folder to find ~/.ssh/config in")
		}
		configFile = filepath.Join(home, ".ssh", "config")
	}
	h := hostLister{home: home, seen: map[string]bool{}}
	if err := h.read(expandTilde(configFile, home), 0); err != nil {
		return nil, err
	}
	return h.names, nil
}

type hostLister struct {
	home  string
	names []string
	seen  map[string]bool
}

func (h *hostLister) read(path string, depth int) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		keyword, args := configLine(sc.Text())
		switch strings.ToLower(keyword) {
		case "host":
			for _, name := range args {
				if strings.ContainsAny(name, "*?!") || h.seen[name] {
					continue
				}
				h.seen[name] = true
				h.names = append(h.names, name)
			}
		case "include":
			if depth >= maxIncludeDepth {
				continue
			}
			for _, pattern := range args {
				pattern = expandTilde(pattern, h.home)
				if !filepath.IsAbs(pattern) {
					pattern = filepath.Join(h.home, ".ssh", pattern)
				}
				matches, _ := filepath.Glob(pattern)
				for _, m := range matches {
					if info, err := os.Stat(m); err == nil && !info.IsDir() {
						// An included file that cannot be read is
						// skipped, as a missing one is.
						_ = h.read(m, depth+1)
					}
				}
			}
		}
	}
	return sc.Err()
}

// configLine splits an ssh_config line into its keyword and arguments:
// "Keyword arg…" or "Keyword=arg…", arguments in double quotes kept
// whole, a # that starts a word beginning a comment.
func configLine(line string) (string, []string) {
	var words []string
	var cur strings.Builder
	inWord, quoted, equals := false, false, false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted:
			if c == '"' {
				quoted = false
			} else {
				cur.WriteByte(c)
			}
		case c == '"':
			quoted, inWord = true, true
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		case c == '=' && !equals && (len(words) == 0 || len(words) == 1 && !inWord):
			// One = may stand between the keyword and its arguments.
			equals = true
			flush()
		case c == '#' && !inWord:
			flush()
			i = len(line)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	if len(words) == 0 {
		return "", nil
	}
	return words[0], words[1:]
}

func expandTilde(path, home string) string {
	switch {
	case path == "~":
		return home
	case strings.HasPrefix(path, "~/"):
		return filepath.Join(home, path[2:])
	}
	return path
}
