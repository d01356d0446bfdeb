package remote

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestHosts(t *testing.T) {
	home := t.TempDir()
	ssh := filepath.Join(home, ".ssh")
	write := func(rel, text string) {
		p := filepath.Join(ssh, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("config", `# my machines
Include config.d/*.conf
Host build gpu-box
    HostName 10.0.0.7
    User me
Host *.corp !bastion.corp
    ProxyJump bastion.corp
host=lower
HOST "quoted name" dev?
Match host build exec "true"
    ForwardAgent no
Host build
  Port 2222
Host  tabbed	second # a comment
Include ~/.ssh/extra missing-file
`)
	write("config.d/10-work.conf", "Host work-vm\n  HostName 192.168.1.9\nInclude nested.conf\n")
	write("config.d/20-skip.txt", "Host not-included\n")
	write("nested.conf", "Host nested\n")
	write("extra", "Host extra * \n")

	got, err := hostsIn("", home)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"work-vm", "nested", "build", "gpu-box", "lower", "quoted name", "tabbed", "second", "extra"}
	if !slices.Equal(got, want) {
		t.Fatalf("Hosts = %q\nwant    %q", got, want)
	}

	if got, err := hostsIn(filepath.Join(home, "nothing-here"), home); err != nil || len(got) != 0 {
		t.Fatalf("a missing config: %q, %v; want nothing and no error", got, err)
	}
	// An explicit file (--ssh-config) is read as given, its Includes
	// still from ~/.ssh.
	other := filepath.Join(t.TempDir(), "cfg")
	os.WriteFile(other, []byte("Host only-here\nInclude nested.conf\n"), 0o600)
	if got, _ := hostsIn(other, home); !slices.Equal(got, []string{"only-here", "nested"}) {
		t.Fatalf("Hosts(%s) = %q", other, got)
	}
}

func TestHostsIncludeLoop(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "config"), []byte("Host loop\nInclude config\n"), 0o600)
	got, err := hostsIn("", home)
	if err != nil || !slices.Equal(got, []string{"loop"}) {
		t.Fatalf("a config including itself: %q, %v", got, err)
	}
}
