// Command pi-install installs a pinned release of pi for the end-to-end
// tests, as package pienv would on first use, and prints the path of its
// executable on stdout (progress and errors on stderr):
//
//	go run ./rpcconn/rpctest/pienv/cmd/pi-install [VERSION]
//
// VERSION is 0.73.1 (the default) or 1.6.0, the release the app installs
// for its users (with npm's Node 22 where this machine's is older).
// scripts/install-pi.sh runs it.
package main

import (
	"fmt"
	"os"

	"knightcode.ai/desktop/rpcconn/rpctest/pienv"
)

func main() {
	if len(os.Args) > 2 {
		fmt.Fprintln(os.Stderr, "usage: pi-install [VERSION]")
		os.Exit(2)
	}
	if len(os.Args) == 2 {
		switch v := os.Args[1]; v {
		case pienv.Older.Version, pienv.Current.Version:
			os.Setenv(pienv.VersionEnv, v)
		default:
			fmt.Fprintf(os.Stderr, "pi-install: %s is not pinned here: %s or %s\n", v, pienv.Older.Version, pienv.Current.Version)
			os.Exit(2)
		}
	}
	// An explicit binary is for the tests; this installs.
	os.Unsetenv(pienv.BinaryEnv)
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pi-install:", err)
		os.Exit(1)
	}
	root, err := pienv.RepoRoot(wd)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pi-install:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "pi-install: %s into the repository's .cache (quick when it is there)\n", pienv.Selected())
	bin, err := pienv.Locate(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pi-install:", err)
		os.Exit(1)
	}
	fmt.Println(bin)
}
