package markdown

import "testing"

func TestSystemLinkLetsThroughOnlyWebAndCleanMail(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want "" is refused
	}{
		{"https://example.com/a?b=c#d", "https://example.com/a?b=c#d"},
		{"http://example.com", "http://example.com"},
		{"  https://example.com/x  ", "https://example.com/x"},
		{"HTTPS://example.com/", "https://example.com/"},
		{"https:///etc/passwd", ""},
		{"https:example.com", ""},
		{"http://", ""},
		{"file:///etc/passwd", ""},
		{"javascript:alert(1)", ""},
		{"vscode://file/etc/passwd", ""},
		{"smb://host/share", ""},
		{"/etc/passwd", ""},
		{"ftp://example.com/f", ""},
		{"mailto:me@example.com", "mailto:me@example.com"},
		{"mailto:me@example.com?subject=Hi%20there&body=a%26b", "mailto:me@example.com?body=a%26b&subject=Hi%20there"},
		{"mailto:me@example.com?subject=x&attach=/home/me/.ssh/id_ed25519", "mailto:me@example.com?subject=x"},
		{"mailto:me@example.com?Attachment=%2Fetc%2Fpasswd&cc=boss@example.com&bcc=x@y&BODY=hi", "mailto:me@example.com?body=hi"},
		{"mailto:?subject=x", "mailto:?subject=x"},
		{"mailto:me@example.com%3Fattach=/etc/passwd", ""},
		{"mailto:me@example.com%3fattach=/etc/passwd", ""},
		{"mailto://me@example.com", ""},
		{"mailto://me@example.com?attach=/etc/passwd", ""},
	} {
		u, ok := systemLink(tc.in)
		got := ""
		if ok {
			got = u.String()
		}
		if got != tc.want {
			t.Errorf("systemLink(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
