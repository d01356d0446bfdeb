// Command knightcode-desktop is a native desktop window for the KnightCode
// coding agent: knightcode-desktop [--agent PATH] [--cwd DIR] [-- AGENT ARGS…]
package main

import (
	"os"

	"knightcode.ai/desktop/app"
)

func main() {
	os.Exit(app.Run(os.Args[1:]))
}
