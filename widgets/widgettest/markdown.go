package widgettest

// MarkdownDocument exercises every construct MarkdownView draws.
const MarkdownDocument = "# Release notes\n" +
	"\n" +
	"KnightCode **1.4** adds *streaming* tables, ~~removes~~ replaces the old `--fast` flag, " +
	"and links to [the docs](https://example.com/docs) or https://knightcode.ai directly. " +
	"A very long word: supercalifragilisticexpialidocious_and_then_some_more_characters_to_force_a_break.  \n" +
	"Hard break above; entities &amp; escapes \\*stay\\* literal.\n" +
	"\n" +
	"## What changed\n" +
	"\n" +
	"- Faster start-up\n" +
	"- Nested lists:\n" +
	"  - second level with `code`\n" +
	"    - third level\n" +
	"- Task lists:\n" +
	"\n" +
	"1. First step\n" +
	"2. Second step\n" +
	"10. Tenth step\n" +
	"\n" +
	"- [x] done item\n" +
	"- [ ] open item\n" +
	"\n" +
	"> Quoted advice: *measure* before you optimise.\n" +
	"> Second line of the quote.\n" +
	"\n" +
	"---\n" +
	"\n" +
	"```go\n" +
	"func main() {\n" +
	"\tfmt.Println(\"hello, world\") // a comment long enough that it has to wrap somewhere on a narrow view\n" +
	"}\n" +
	"```\n" +
	"\n" +
	"    indented code\n" +
	"\n" +
	"| Name | Size | Notes |\n" +
	"|:-----|-----:|:-----:|\n" +
	"| alpha | 1 KB | first |\n" +
	"| beta | 22 KB | **bold** cell |\n" +
	"\n" +
	"![diagram of the pipeline](https://example.com/d.png) and <span>inline html</span>.\n" +
	"\n" +
	"<div class=\"note\">\n" +
	"raw html block\n" +
	"</div>\n" +
	"\n" +
	"### Small heading\n" +
	"\n" +
	"Last paragraph.\n"
