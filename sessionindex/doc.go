// Package sessionindex owns the full-text index of the agent's session
// files that the session browser searches: message text of every session,
// not only titles, ranked, one hit per session with a snippet and the entry
// it is in. It imports the standard library, sessionfiles (which finds and
// reads the files), internal/filelock, the pure-Go SQLite driver
// modernc.org/sqlite and golang.org/x/text, and never Fyne, the model or
// the window: the app runs Update on a goroutine of its own and Search off
// the UI goroutine, and plain tests cover it all.
//
// The API: Open(dir) (DefaultDir when dir is ""), Update(ctx, roots) or
// UpdateProgress, Search(ctx, query, limit) → []Hit, Note, Close. One
// Update runs at a time; Search may run on any goroutine meanwhile.
//
// The session files stay the truth. The index is a cache in one SQLite file
// (sessions-index.db in the folder given to Open, the user's cache folder in
// the app): a missing, corrupt, truncated or older-schema file is removed
// and built again from the files, and Note says so. Damage that only a
// search meets makes that search fail and the next Update rebuild. A busy
// or locked file, a transient error or a newer app's index is never
// removed: the index then lives in a temporary folder until Close. Opening,
// checking, creating and removing the file happen under a lock on
// sessions-index.lock beside it (lock*.go), so that tabs and app instances
// opening it at once wait their turn instead of removing each other's file.
//
// # Why SQLite FTS5 and not Bleve
//
// One file with a write-ahead log: searches read a consistent snapshot while
// Update writes, and a crash loses at most the last batch, which the next
// Update reads again. Dropping one session's rows is a DELETE over a rowid
// range (rowid = file id << 32 | row number), so incremental updates are
// cheap; bm25 ranking and prefix queries (with a prefix index of 2 and 3
// characters) are built in. The driver is a translation of SQLite's C to
// Go, so the app still builds without cgo for every platform it ships.
// Bleve would bring a larger tree of dependencies, an index of many segment
// files to keep consistent, and per-document deletes that need their own
// bookkeeping; we did not measure it.
//
// The FTS5 table is contentless (an empty content option, with
// contentless_delete): the index holds no copy of the text, which halves
// its size. Each entry's row keeps the offset and length of its line, and
// a search reads that line back from the session file for the snippet,
// after checking it is still the same entry (when not, the hit has no
// snippet until the next Update).
// Snippets are made in Go (snippet.go): SQLite's snippet() needs the
// content, and each call would evaluate the query again.
//
// # Tokenizer
//
// unicode61 with remove_diacritics 2: words are case-folded and Latin
// letters lose their accents; "parseConfig" is one word (found as
// parseConfig, or while typing as parsec…), "src/main.go" is the phrase src
// main go. Chinese and Japanese text has no spaces, so before indexing a
// zero-width space is put between neighbouring Han, Hiragana and Katakana
// characters: each is a word, and a query of several is a phrase, which
// finds them in a sentence. text.go tokenizes and folds as unicode61 does
// (a test compares the two through fts5vocab), for queries and snippets.
//
// What the user types is never FTS5 syntax: every word becomes a quoted
// phrase of its tokens, which hold only letters and digits, and the phrases
// are ANDed; the last word (or one ending in *) is a prefix. See parseQuery.
//
// # What is indexed
//
// Per entry, in four columns weighted for bm25:
//   - prompt: what the user wrote (prompts, the command of a bash run
//     started with !, session names), weighted highest;
//   - text: assistant replies, compaction and branch summaries, custom
//     messages;
//   - thinking: the assistant's thinking, at lower weight: people remember
//     what the agent considered, but it is long and repetitive;
//   - tool: each tool call's name and its string arguments (command, path,
//     pattern, the text of an edit), and the first 2 KiB of tool results and
//     bash output: enough to find an error message or the file a command
//     touched, while whole file reads and build logs, most of a session
//     file's bytes, stay out.
//
// Each field is capped (prompt and text at 256 KiB, thinking at 64 KiB,
// tool at 4 KiB per entry); a line longer than 64 KiB that holds a tool
// result is skipped without being decoded. Images are never decoded.
//
// # Ranking
//
// A session's score is its best entry's bm25, boosted for a recent entry
// (30% for one from now, halving every 30 days) and by the logarithm of how
// many of its entries match. A query that matches more than rankCap entries
// ranks only the newest rankCap of them (bm25 costs a few µs an entry); the
// older ones are still counted, and a session matched only there comes
// last.
//
// # Updates
//
// Session files are append-only in practice. A file that grew, and whose
// first and last indexed bytes are as they were, has only its new lines
// read, from the offset stored after the last whole line; any other change
// re-indexes it. A last line without LF (being written, or cut off) is left
// for the next Update. An Update stopped by its context keeps what it
// wrote, and the next one goes on from there.
//
// Figures on 500 MB of generated sessions, and how to measure them: see
// README.md in this folder.
package sessionindex
