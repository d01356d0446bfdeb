// Command agentbundle installs the agent the app installs for itself
// (agentsetup.Current, pi with npm's Node) into a folder, with its own Node
// whatever this machine has, for a package that carries it:
//
//	go run ./packaging/agentbundle DIR
//
// scripts/package.sh puts DIR into the Linux tarball as
// lib/knightcode-desktop/agent, where the app looks beside itself. It is
// idempotent: a folder that holds the release is only checked.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"knightcode.ai/desktop/agentsetup"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: agentbundle DIR")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	lastTenth := int64(-1)
	res, err := agentsetup.Install(ctx, agentsetup.Options{Dir: os.Args[1], BundleNode: true, Progress: func(p agentsetup.Progress) {
		if p.Line != "" {
			fmt.Fprintln(os.Stderr, "agentbundle:", p.Line)
		} else if p.Total > 0 && p.Done*10/p.Total != lastTenth {
			lastTenth = p.Done * 10 / p.Total
			fmt.Fprintf(os.Stderr, "agentbundle: %d MB of about %d MB\n", p.Done>>20, p.Total>>20)
		}
	}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentbundle:", err)
		os.Exit(1)
	}
	fmt.Println(res.Launcher)
}
