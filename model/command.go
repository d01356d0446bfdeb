package model

import "knightcode.ai/desktop/rpcconn"

// Command is an extension command, prompt template or skill of the agent,
// invoked as /Name.
type Command struct {
	Name        string
	Description string
	// Source is "extension", "prompt" or "skill".
	Source string
	// Path is the file it comes from, if any, from either agent generation.
	Path string
}

func commands(cmds []rpcconn.Command) []Command {
	if cmds == nil {
		return nil
	}
	out := make([]Command, len(cmds))
	for i, c := range cmds {
		out[i] = Command{Name: c.Name, Description: c.Description, Source: c.Source, Path: c.FilePath()}
	}
	return out
}
