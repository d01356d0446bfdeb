package app

import (
	"knightcode.ai/desktop/model"
	"knightcode.ai/desktop/widgets/palette"
)

// tabCommands are the things a person asks of the tab by name: the command
// palette (the app's actions and the agent's commands), and the actions on
// the session and its agent that the menu and palette run: rename, fork,
// clone, export, compact, modes, MCP servers, the system prompt, the
// notifications and extension errors.
type tabCommands struct {
	*tabHost
	palette *palette.CommandPalette
	// agentCommands are the agent's commands, for the palette and "/".
	agentCommands []model.PaletteItem
	// mcp is the MCP panel last opened.
	mcp *mcpPanel
	// extErrors are what extensions reported as errors, for their log.
	extErrors []model.Notice

	// Wired by the tab.
	// appActions lists every action of the app for the palette.
	appActions func() []appAction
	// restart starts the tab's agent again.
	restart func()
	// openExport opens an exported file.
	openExport func(path string)
	// toEditor puts text in the prompt editor, to finish and send.
	toEditor func(text string)
	// commandsLoaded hears the agent's commands, for "/" completion.
	commandsLoaded func(items []model.PaletteItem)
	// agentIdentity names the agent program and version, for what is
	// remembered about it (refused.go).
	agentIdentity func() string
}

func newTabCommands(host *tabHost) *tabCommands {
	return &tabCommands{tabHost: host, palette: palette.NewCommandPalette()}
}
