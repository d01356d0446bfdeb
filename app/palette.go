package app

import (
	"strings"

	"knightcode.ai/desktop/model"
)

type appAction struct {
	item model.PaletteItem
	run  func()
}

// actionPalette lists the app's actions and the agent's commands.
func (c *tabCommands) actionPalette() {
	items := c.appActions()
	run := map[string]func(){}
	for _, a := range items {
		run[a.item.ID] = a.run
	}
	list := make([]model.PaletteItem, 0, len(items)+len(c.agentCommands))
	for _, a := range items {
		list = append(list, a.item)
	}
	list = append(list, c.agentCommands...)
	c.palette.SetItems(list)
	prefs := c.app.Preferences()
	c.palette.SetRecent(recentActions(prefs))
	c.palette.OnRun = func(it model.PaletteItem) {
		noteRecentAction(prefs, it.ID)
		if f := run[it.ID]; f != nil {
			f()
			return
		}
		// An agent command: into the editor, to add arguments and send.
		c.toEditor(it.Title + " ")
	}
	c.palette.Show(c.win.Canvas())
}

// loadCommands fetches the agent's commands for the palette and the "/"
// completion.
func (c *tabCommands) loadCommands() {
	if c.controller == nil {
		return
	}
	model.Ask(c.controller, model.CallTimeout, c.controller.Commands, func(cmds []model.Command, err error) {
		if err != nil {
			return // the palette and "/" offer the app's own commands only
		}
		items := make([]model.PaletteItem, len(cmds))
		for i, c := range cmds {
			detail := c.Description
			if p := c.Path; p != "" {
				detail = strings.TrimSpace(detail + " · " + p)
			}
			items[i] = model.PaletteItem{ID: "cmd:" + c.Name, Title: "/" + c.Name, Detail: detail, Source: c.Source}
		}
		c.agentCommands = items
		c.commandsLoaded(items)
		c.markRefused()
	})
}
