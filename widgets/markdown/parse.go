package markdown

import (
	"bytes"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

var (
	mdParserOnce sync.Once
	mdParser     parser.Parser
)

// gfmParser is goldmark with GitHub's extensions: tables, task lists,
// strikethrough and bare-URL autolinks. It is the UI goroutine's.
func gfmParser() parser.Parser {
	mdParserOnce.Do(func() {
		mdParser = newGFMParser()
	})
	return mdParser
}

// newGFMParser makes a parser of its own for work off the UI goroutine:
// goldmark does not promise that one parser may parse on two goroutines.
func newGFMParser() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()
}

// parsedBlock is one top-level block of a parse, with the byte offset of
// the line it starts on, relative to the parsed text.
type parsedBlock struct {
	node  ast.Node
	Start int
}

// mdParseBlocks parses src and lists its top-level blocks. refs reports link
// reference definitions, which (unlike everything else) can change how
// text elsewhere in the document renders.
func mdParseBlocks(src []byte) (blocks []parsedBlock, refs bool) {
	return mdParseBlocksWith(gfmParser(), src)
}

func mdParseBlocksWith(p parser.Parser, src []byte) (blocks []parsedBlock, refs bool) {
	pc := parser.NewContext()
	doc := p.Parse(text.NewReader(src), parser.WithContext(pc))
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		start := mdNodeStart(n)
		if start < 0 {
			start = 0
			if len(blocks) > 0 {
				start = blocks[len(blocks)-1].Start
			}
		}
		blocks = append(blocks, parsedBlock{node: n, Start: mdLineStart(src, start)})
	}
	return blocks, len(pc.References()) > 0
}

// mdNodeStart is a byte offset inside the first line of n, or -1.
func mdNodeStart(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return n.Lines().At(0).Start
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if p := mdNodeStart(c); p >= 0 {
			return p
		}
	}
	return -1
}

func mdLineStart(src []byte, pos int) int {
	pos = min(pos, len(src))
	return bytes.LastIndexByte(src[:pos], '\n') + 1
}

// stableBlocks is how many leading blocks of a document keep their
// rendering however the text continues, given each block's start line.
//
// A block is final once the block after it has opened on a complete line:
// Markdown is parsed line by line and a closed block never reopens. The
// text's last line may still be incomplete, and what it becomes can decide
// whether the block before it closed at all ("#" opens a heading, "#tag"
// continues the paragraph above), so a block opened on that line does not
// yet fix its predecessor. Blocks sharing a start came from one source
// block (a table split off a paragraph) and stand or fall together.
//
// It looks at blocks from the end only, so it costs the same however long
// the document is; start(i) is the start line of block i of n.
func stableBlocks(src string, n int, start func(int) int) int {
	// Whether a block opened on the last line is whether a newline follows
	// its start: a forward search, fast even through megabytes of a line.
	onLastLine := func(i int) bool { return strings.IndexByte(src[start(i):], '\n') < 0 }
	i := n - 1
	for i >= 0 && onLastLine(i) {
		i--
	}
	if i < 0 {
		return 0
	}
	for i > 0 && start(i-1) >= start(i) {
		i--
	}
	return i
}
