package markdown

import (
	"net/url"
	"strings"
)

// systemLink is what of dest may go to the system's opener: an http or
// https URL with a host, or a mailto URL with only its subject and body
// (a mail program would take attach=, cc= and the like from a model's
// text). ok is false for anything else, and for a mailto whose address
// hides a %3F ("?") or that is written mailto://: mail programs disagree on
// what those mean.
func systemLink(dest string) (u *url.URL, ok bool) {
	u, err := url.Parse(strings.TrimSpace(dest))
	if err != nil {
		return nil, false
	}
	switch u.Scheme {
	case "http", "https":
		return u, u.Host != "" && u.Opaque == ""
	case "mailto":
		return mailtoLink(u)
	}
	return nil, false
}

func mailtoLink(u *url.URL) (*url.URL, bool) {
	if u.Opaque == "" && (u.Host != "" || u.Path != "" || strings.HasPrefix(u.String(), "mailto://")) {
		return nil, false // mailto://…
	}
	address := u.Opaque
	if strings.Contains(strings.ToLower(address), "%3f") {
		return nil, false
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return nil, false
	}
	kept := url.Values{}
	for k, vs := range q {
		switch strings.ToLower(k) {
		case "subject", "body":
			kept[strings.ToLower(k)] = vs
		}
	}
	return &url.URL{Scheme: "mailto", Opaque: address, RawQuery: strings.ReplaceAll(kept.Encode(), "+", "%20")}, true
}
