// Package llmserver owns a scripted, OpenAI-compatible chat-completions server
// for end-to-end tests against a real agent: it listens on 127.0.0.1 only,
// decides each reply from markers in the last user message (see Markers),
// streams it as the OpenAI SSE chunks the agent parses, and keeps a log of
// every completion request so tests can check what the agent sent.
//
// No real model is involved, so replies are deterministic and tests run
// offline.
package llmserver
