package rpctest

// handlers is every command the 0.9.2 agent knows (33 of them). Responses
// echo the command's id; anything else is "Unknown command".
var handlers = map[string]handler{
	// prompting (commands_prompt.go)
	"prompt":      {fn: (*agent).cmdPrompt},
	"steer":       {fn: (*agent).cmdSteer},
	"follow_up":   {fn: (*agent).cmdFollowUp},
	"abort":       {fn: (*agent).cmdAbort},
	"clear_queue": {fn: (*agent).cmdClearQueue, newer: true},

	// state, models, thinking, modes (commands_state.go)
	"get_state":                     {fn: (*agent).cmdGetState},
	"get_messages":                  {fn: (*agent).cmdGetMessages},
	"set_model":                     {fn: (*agent).cmdSetModel},
	"cycle_model":                   {fn: (*agent).cmdCycleModel},
	"get_available_models":          {fn: (*agent).cmdGetAvailableModels},
	"set_thinking_level":            {fn: (*agent).cmdSetThinkingLevel},
	"cycle_thinking_level":          {fn: (*agent).cmdCycleThinkingLevel},
	"get_available_thinking_levels": {fn: (*agent).cmdGetAvailableThinkingLevels, newer: true},
	"set_steering_mode":             {fn: (*agent).cmdSetSteeringMode},
	"set_follow_up_mode":            {fn: (*agent).cmdSetFollowUpMode},
	"set_auto_compaction":           {fn: (*agent).cmdSetAutoCompaction},
	"set_auto_retry":                {fn: (*agent).cmdSetAutoRetry},
	"abort_retry":                   {fn: (*agent).cmdAbortRetry},

	// compaction (compaction.go)
	"compact": {fn: (*agent).cmdCompact},

	// bash (commands_bash.go)
	"bash":       {fn: (*agent).cmdBash},
	"abort_bash": {fn: (*agent).cmdAbortBash},

	// session (commands_session.go, commands_tree.go)
	"new_session":             {fn: (*agent).cmdNewSession, async: true},
	"switch_session":          {fn: (*agent).cmdSwitchSession, async: true},
	"fork":                    {fn: (*agent).cmdFork, async: true},
	"clone":                   {fn: (*agent).cmdClone, async: true},
	"get_fork_messages":       {fn: (*agent).cmdGetForkMessages},
	"get_entries":             {fn: (*agent).cmdGetEntries, newer: true},
	"get_tree":                {fn: (*agent).cmdGetTree, newer: true},
	"get_last_assistant_text": {fn: (*agent).cmdGetLastAssistantText},
	"set_session_name":        {fn: (*agent).cmdSetSessionName},
	"get_session_stats":       {fn: (*agent).cmdGetSessionStats},
	"export_html":             {fn: (*agent).cmdExportHTML},
	"get_commands":            {fn: (*agent).cmdGetCommands},
}
