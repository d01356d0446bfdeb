package agentsetup

import (
	"fmt"
	"strconv"
	"strings"
)

// Release is an npm release of the agent and the oldest Node that runs it.
type Release struct {
	// Name is what the agent is called on its own command line.
	Name    string
	Package string
	Version string
	// MinNode is the package's "engines" floor; an older Node makes npm
	// only warn, and the agent then fails at start.
	MinNode NodeVersion
	// Size is about how much the install takes on disk with npm's Node
	// (NodeSize of it), for the progress line.
	Size int64
}

// Current is the agent the app installs: the release users get today,
// measured in shared/protocol/current-agent.md.
var Current = Release{
	Name:    "pi",
	Package: "@earendil-works/pi-coding-agent",
	Version: "1.6.0",
	MinNode: NodeVersion{22, 19, 0},
	Size:    294 << 20,
}

// NodeRelease is the Node that npm's node-<os>-<arch> packages carry when
// the system's is too old: pinned, so every install runs the same Node.
const NodeRelease = "22.23.3"

// NodeSize is about how much npm's Node package takes on disk.
const NodeSize = 176 << 20

// String is "pi 1.6.0".
func (r Release) String() string { return r.Name + " " + r.Version }

// Spec is the npm install argument, package@version.
func (r Release) Spec() string { return r.Package + "@" + r.Version }

// NodeVersion is a Node.js version, major.minor.patch.
type NodeVersion [3]int

// ParseNodeVersion reads "v22.19.0" or "22.19.0".
func ParseNodeVersion(s string) (NodeVersion, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	parts := strings.SplitN(s, ".", 3)
	if len(parts) != 3 {
		return NodeVersion{}, fmt.Errorf("not a Node version: %q", s)
	}
	var v NodeVersion
	for i, p := range parts {
		// A pre-release such as 23.0.0-rc.1 counts as its release.
		p, _, _ = strings.Cut(p, "-")
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return NodeVersion{}, fmt.Errorf("not a Node version: %q", s)
		}
		v[i] = n
	}
	return v, nil
}

// AtLeast reports whether v is min or newer.
func (v NodeVersion) AtLeast(min NodeVersion) bool {
	for i := range v {
		if v[i] != min[i] {
			return v[i] > min[i]
		}
	}
	return true
}

func (v NodeVersion) String() string { return fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2]) }
