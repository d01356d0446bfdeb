// Package agentfiles owns a folder's own agent files: the prompt
// templates, extensions, skills, system prompt files, settings and MCP
// servers a project keeps for its agent (pi's .pi/, the KnightCode
// reference's .knightcode/agent/), found and told in words, and whether an
// agent can be asked to trust them (pi 1.6's --approve). Newer pi ignores
// them in RPC mode unless it is started with --approve, silently: the
// window asks the user once per folder.
//
// It imports the standard library only; listing a folder is a function the
// caller gives (os.ReadDir here, the host's over SSH), so it never does
// I/O of its own choosing.
package agentfiles
