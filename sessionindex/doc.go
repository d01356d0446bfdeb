// Package sessionindex owns the full-text index of the agent's session
// files that the session browser searches: message text of every session,
// not only titles, ranked, with a snippet and the entry each hit is in. It
// imports the standard library, sessionfiles (which finds and reads the
// files) and the pure-Go SQLite driver modernc.org/sqlite, and nothing of
// Fyne: the app runs Update on a goroutine of its own and Search off the
// UI goroutine, and plain tests cover it all.
//
// The session files stay the truth. The index is a cache in one SQLite file
// (sessions-index.db in the folder given to Open, the user's cache folder in
// the app): a missing, corrupt, truncated or older-schema file is removed
// and built again from the files, and Index.Note says so.
//
// # Why SQLite FTS5 and not Bleve
//
// One file with a write-ahead log: searches read a consistent snapshot while
// Update writes, and a crash loses at most the last batch, which the next
// Update reads again. Dropping or replacing one session's rows is a DELETE
// over a rowid range (rowid = file id << 32 | row number), so incremental
// updates are cheap; bm25 ranking, snippets and prefix queries are built in.
// The driver is a translation of SQLite's C to Go, so the app still builds
// without cgo for every platform it ships. Bleve would bring a larger tree
// of dependencies, an index of many segment files to keep consistent, and
// per-document deletes that need their own bookkeeping; we did not measure
// it.
//
// # Tokenizer
//
// unicode61 with remove_diacritics 2: words are case- and accent-folded,
// "parseConfig" is one word (found as parseConfig, or while typing as
// parsec…), "src/main.go" is the phrase src main go. Chinese and Japanese
// text has no spaces, so before indexing (and in queries) a zero-width space
// is put between neighbouring Han, Hiragana and Katakana characters: each is
// a word, and a query of several is a phrase, which finds them in a
// sentence. Snippets are given back without those spaces. The trigram
// tokenizer (substring search everywhere) was measured on the same 500 MB
// set: see the figures in bench_test.go; it is kept as an option of the
// benchmark, not of the app.
//
// # What is indexed
//
// Per entry, in three columns weighted for bm25:
//   - text: user prompts, assistant replies, the command of a bash run the
//     user started with !, compaction and branch summaries, custom messages,
//     session names;
//   - thinking: the assistant's thinking, at lower weight: people remember
//     what the agent considered, but it is long and repetitive;
//   - tool: each tool call's name and its string arguments (command, path,
//     pattern, the text of an edit), and the first 2 KiB of tool results and
//     bash output: enough to find an error message or the file a command
//     touched, while whole file reads and build logs, most of a session
//     file's bytes, stay out.
//
// Each field is capped (text at 256 KiB, thinking at 64 KiB, tool at 4 KiB
// per entry); a line longer than 64 KiB that holds a tool result is skipped
// without being decoded. Images are never decoded.
//
// Session files are append-only in practice. A file that grew, and whose
// first and last indexed bytes are as they were, has only its new lines
// read; any other change re-indexes it. A last line without LF (being
// written, or cut off) is left for the next Update.
package sessionindex
