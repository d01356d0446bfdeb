package remote

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Target is where ssh connects: a host (a name from the ssh config, a DNS
// name or an address), and optionally the user and port, which otherwise
// come from the ssh config or ssh's defaults.
type Target struct {
	User string
	Host string
	// Port is 0 when not given.
	Port int
}

// ParseTarget reads "[user@]host[:port]": an IPv6 address in brackets when
// a port follows ("[::1]:2222", "me@[fe80::1%eth0]"), or bare ("::1").
// "ssh://[user@]host[:port]" is accepted too. The user ends at the last @.
func ParseTarget(s string) (Target, error) {
	orig := s
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimPrefix(s, "ssh://"), "/")
	var t Target
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		t.User, s = s[:i], s[i+1:]
		if t.User == "" {
			return Target{}, fmt.Errorf("%q: nothing before @: give a user name, or leave out the @", orig)
		}
	}
	switch {
	case strings.HasPrefix(s, "["):
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return Target{}, fmt.Errorf("%q: no ] after the [ of an IPv6 address", orig)
		}
		t.Host, s = s[1:end], s[end+1:]
		switch {
		case s == "":
		case strings.HasPrefix(s, ":"):
			p, err := parsePort(s[1:])
			if err != nil {
				return Target{}, fmt.Errorf("%q: %w", orig, err)
			}
			t.Port = p
		default:
			return Target{}, fmt.Errorf("%q: only :port may follow the ]", orig)
		}
	case strings.Count(s, ":") > 1:
		t.Host = s // a bare IPv6 address, no port
	case strings.Contains(s, ":"):
		i := strings.IndexByte(s, ':')
		p, err := parsePort(s[i+1:])
		if err != nil {
			return Target{}, fmt.Errorf("%q: %w", orig, err)
		}
		t.Host, t.Port = s[:i], p
	default:
		t.Host = s
	}
	if err := t.check(); err != nil {
		return Target{}, fmt.Errorf("%q: %w", orig, err)
	}
	return t, nil
}

func parsePort(s string) (int, error) {
	p, err := strconv.Atoi(s)
	if err != nil || p < 1 || p > 65535 {
		return 0, fmt.Errorf("port %q is not a number from 1 to 65535", s)
	}
	return p, nil
}

// Shell metacharacters: ssh refuses most of them in a host name today
// (and may pass them to a ProxyCommand's %h or a Match exec), so the app
// refuses them first. A user name keeps a backslash (CORP\me); a host keeps
// % (an IPv6 zone, fe80::1%eth0).
const (
	userMetachars = "'`\";&<>|(){}$"
	hostMetachars = userMetachars + "\\*?!~#"
)

// check refuses what ssh would take for an option or cannot use.
func (t Target) check() error {
	if t.Host == "" {
		return errors.New("no host name")
	}
	for _, part := range []struct{ what, s, refused string }{
		{"host", t.Host, hostMetachars}, {"user", t.User, userMetachars},
	} {
		if strings.HasPrefix(part.s, "-") {
			return fmt.Errorf("a %s cannot start with -", part.what)
		}
		if i := strings.IndexFunc(part.s, func(r rune) bool {
			return r <= ' ' || r == 0x7f || unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
		}); i >= 0 {
			return fmt.Errorf("the %s holds a space or a control or invisible character", part.what)
		}
		if i := strings.IndexAny(part.s, part.refused); i >= 0 {
			return fmt.Errorf("the %s holds %q, which a shell would take as its own", part.what, part.s[i:i+1])
		}
	}
	if strings.ContainsAny(t.Host, "@/[]") {
		return fmt.Errorf("%q is not a host name", t.Host)
	}
	if t.Port < 0 || t.Port > 65535 {
		return fmt.Errorf("port %d is not from 1 to 65535", t.Port)
	}
	return nil
}

// String is the target as ParseTarget reads it.
func (t Target) String() string {
	s := t.Host
	if strings.Contains(s, ":") {
		s = "[" + s + "]" // IPv6
	}
	if t.Port != 0 {
		s += ":" + strconv.Itoa(t.Port)
	}
	if t.User != "" {
		s = t.User + "@" + s
	}
	return s
}
