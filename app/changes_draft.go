package app

import (
	"strings"

	"knightcode.ai/desktop/model"
)

// draftPrompt asks the tab's agent for a commit message: it reads the
// staged changes itself, with its own tools.
const draftPrompt = "Draft a commit message for the changes staged in this git repository (`git diff --cached` shows them). " +
	"Answer with the message only: a subject line of at most 72 characters, then, if it helps, a blank line and a short body. Do not commit."

// askDraft is the commit box's "Ask the agent": the tab's agent gets
// draftPrompt, and its answer fills the message box when the run ends.
func (p *changesPane) askDraft() {
	switch {
	case p.controller == nil:
		p.message("No agent", "The tab's agent is not running: it cannot draft the message.")
		return
	case p.drawn.Running:
		p.message("The agent is busy", "Ask again once the agent has finished: a draft now would go in as a message in the middle of its run.")
		return
	case len(p.state.staged) == 0:
		p.message("Nothing staged", "Stage the changes to commit first: the agent drafts the message for what is staged.")
		return
	}
	p.drafting = true
	p.draftOver = p.commitMessage.Text
	p.drawCommit()
	p.controller.Send(draftPrompt, nil, false, nil)
}

// settled is told the agent's run ended: a draft asked for is fetched.
func (p *changesPane) settled(stopped bool) {
	if !p.drafting {
		return
	}
	p.drafting = false
	p.drawCommit()
	if stopped || p.controller == nil {
		return
	}
	model.Ask(p.controller, model.CallTimeout, p.controller.LastAnswer, func(text string, err error) {
		if err != nil {
			p.message("No draft", sentence(err.Error()))
			return
		}
		// Never over what the user typed meanwhile.
		if msg := commitDraft(text); msg != "" && p.commitMessage.Text == p.draftOver {
			p.commitMessage.SetText(msg)
		}
	})
}

// commitDraft takes a commit message out of a reply: a fence around it or
// quotes are dropped.
func commitDraft(reply string) string {
	lines := strings.Split(strings.TrimSpace(reply), "\n")
	if len(lines) > 1 && strings.HasPrefix(lines[0], "```") {
		lines = lines[1:]
		if last := len(lines) - 1; last >= 0 && strings.HasPrefix(strings.TrimSpace(lines[last]), "```") {
			lines = lines[:last]
		}
	}
	msg := strings.TrimSpace(strings.Join(lines, "\n"))
	if len(msg) >= 2 && (msg[0] == '"' && msg[len(msg)-1] == '"' || msg[0] == '\'' && msg[len(msg)-1] == '\'') {
		msg = strings.TrimSpace(msg[1 : len(msg)-1])
	}
	return msg
}
