// Command fake-knightcode is the scripted fake KnightCode agent as a program
// of its own, for demos and window tests: run the desktop client with it as
// the agent. Its flags and prompt markers are documented in package rpctest.
package main

import "knightcode.ai/desktop/rpcconn/rpctest"

func main() { rpctest.Main() }
