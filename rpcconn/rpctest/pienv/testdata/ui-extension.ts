/**
 * A pi extension for end-to-end tests of the extension UI sub-protocol. In
 * RPC mode each ctx.ui call below becomes an extension_ui_request record on
 * the agent's stdout; the dialogs wait for an extension_ui_response.
 *
 *   /ask              select, confirm, input and editor in turn, then one
 *                     notify summarising the answers
 *   /decorate         setStatus, setWidget, setTitle, setEditorText
 *   /decorate clear   setStatus and setWidget with undefined (clears them)
 *   bash tool calls   confirm("Allow bash?", command); blocked unless confirmed
 */

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

// A cancelled dialog gives undefined; say so instead of printing "undefined".
function show(value: string | boolean | undefined): string {
	return value === undefined ? "cancelled" : JSON.stringify(value);
}

export default function (pi: ExtensionAPI) {
	pi.registerCommand("ask", {
		description: "Ask four questions (select, confirm, input, editor) and report the answers",
		handler: async (_args, ctx) => {
			const color = await ctx.ui.select("Pick a color", ["red", "green", "blue"]);
			const proceed = await ctx.ui.confirm("Proceed?", "Answer the remaining questions too?");
			const name = await ctx.ui.input("Your name", "type a name");
			const notes = await ctx.ui.editor("Notes", "line one\nline two");
			ctx.ui.notify(
				`select=${show(color)} confirm=${show(proceed)} input=${show(name)} editor=${show(notes)}`,
				"info",
			);
		},
	});

	pi.registerCommand("decorate", {
		description: "Set status, widget, title and editor text (\"/decorate clear\" clears)",
		handler: async (args, ctx) => {
			if (args.trim() === "clear") {
				ctx.ui.setStatus("knight", undefined);
				ctx.ui.setWidget("knight", undefined);
				return;
			}
			ctx.ui.setStatus("knight", "Decorated");
			ctx.ui.setWidget("knight", ["Widget line 1", "Widget line 2"]);
			ctx.ui.setTitle("KnightCode test title");
			ctx.ui.setEditorText("Text from /decorate");
		},
	});

	pi.on("tool_call", async (event, ctx) => {
		if (event.toolName !== "bash") return undefined;
		const command = String((event.input as { command?: unknown }).command ?? "");
		const allowed = await ctx.ui.confirm("Allow bash?", command);
		if (!allowed) return { block: true, reason: "Blocked by user" };
		return undefined;
	});
}
