package loader

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/celint/celint/internal/librarypaths"
	"go.yaml.in/yaml/v4"
)

// The YAML front end decodes with go.yaml.in/yaml/v4 into its Node tree (which
// keeps aliases unexpanded and tags as written) and converts that tree.
//
// Scalar resolution follows the YAML 1.2 core schema, a superset of the JSON
// schema (or the JSON schema itself, with Options.Scalars): for plain
// (unquoted, untagged) scalars
//
//	"", ~, null, Null, NULL                      null
//	true, True, TRUE, false, False, FALSE        boolean
//	[-+]?[0-9]+, 0o[0-7]+, 0x[0-9a-fA-F]+        integer (int64; outside the range is an error)
//	[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?   float (int64 when integral and |v| <= 2^53)
//	[-+]?\.(inf|Inf|INF), \.(nan|NaN|NAN)       non-finite (see NonFiniteNumbers)
//
// and everything else is a string: in particular timestamps such as
// 2026-08-25, and the yaml/v4 extensions 0b101, 1_000 and +0x1F (which
// yaml/v4 alone would read as integers). Decimal integers with leading
// zeros are decimal (017 is 17), as in YAML 1.2. Quoted and block scalars
// are strings. An explicit standard tag (!!str 12, !!int "12") decides the
// type; a value that does not fit its tag is an error. yaml/v4 does not
// report the non-specific tag "!", so `! 12` resolves like `12`.

type yamlConv struct {
	*builder
	data   []byte
	active map[*yaml.Node]bool // anchored nodes being converted, to catch recursive aliases
	// release drops each yaml/v4 node once it is converted, so that the
	// collector can take back yaml/v4's tree while celint's is built: when
	// there is no alias (no '*' in the input), nothing refers to a node
	// again.
	release bool
}

// yamlMaxDepth is yaml/v4's own nesting limit (flow levels and indents).
const yamlMaxDepth = 10000

func parseYAML(b *builder, data []byte) (*Node, *Error) {
	return parseYAMLWith(b, data, len(data) >= concurrentPrescan, !librarypaths.On)
}

// parseYAMLWith is parseYAML, with the pre-scan beside yaml/v4 when
// concurrent is true, and trying the block-YAML fast path first when fast
// is true (see yamlfast.go).
func parseYAMLWith(b *builder, data []byte, concurrent, fast bool) (*Node, *Error) {
	if err := checkYAMLChars(b.file, data); err != nil {
		return nil, err
	}
	data, verr := yamlVersion(b.file, data)
	if verr != nil {
		return nil, verr
	}
	if fast {
		if root, ok := parseBlockYAML(b, data); ok {
			return root, nil
		}
		b.values, b.depth = 0, 0
	}
	c := &yamlConv{builder: b, data: data, active: map[*yaml.Node]bool{}, release: bytes.IndexByte(data, '*') < 0}
	var in io.Reader = bytes.NewReader(data)
	var g *prescanGate
	if !concurrent {
		if err := prescanYAML(b, data, nil); err != nil {
			return nil, err
		}
	} else {
		g = newPrescanGate(b, data)
		in = g
	}
	doc, err := c.decodeStream(in)
	if g != nil {
		if perr := g.wait(); perr != nil {
			return nil, perr // the pre-scan's verdict comes first, as when it runs first
		}
	}
	if err != nil {
		return nil, err
	}
	return c.root(doc)
}

// root converts the document yaml/v4 decoded (nil for an empty stream).
func (c *yamlConv) root(doc *yaml.Node) (*Node, *Error) {
	if doc == nil {
		return c.newNode(Null, Pos{1, 1})
	}
	if len(doc.Content) == 0 {
		return c.newNode(Null, Pos{int32(doc.Line), int32(doc.Column)})
	}
	root := doc.Content[0]
	if !c.rejects(Aliases) && bytes.IndexByte(c.data, '*') >= 0 {
		if err := c.checkExpansion(root); err != nil {
			return nil, err
		}
	}
	return c.convert(root, 0)
}

// decodeStream decodes the stream's document with yaml/v4, checking that
// it is the only one; nil for an empty stream, when it may be empty.
func (c *yamlConv) decodeStream(in io.Reader) (*yaml.Node, *Error) {
	dec := yaml.NewDecoder(in)
	var doc yaml.Node
	if err := decodeYAML(dec, &doc); err != nil {
		if err == io.EOF {
			if c.rejects(EmptyStream) {
				return nil, c.errorf(Pos{1, 1}, "the YAML stream contains no document")
			}
			return nil, nil
		}
		return nil, c.yamlError(err)
	}
	for {
		var next yaml.Node
		err := decodeYAML(dec, &next)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, c.yamlError(err)
		}
		if c.rejects(MultipleDocuments) {
			return nil, c.errorf(Pos{int32(next.Line), int32(next.Column)}, "a second YAML document starts here; only one document is allowed")
		}
	}
	return &doc, nil
}

// concurrentPrescan is the input size from which the pre-scan runs beside
// yaml/v4 rather than before it.
const concurrentPrescan = 256 << 10

// A prescanGate runs the pre-scan on another core while yaml/v4 reads the
// same input through it, and lets yaml/v4 read only what the pre-scan has
// already found within the limits. yaml/v4 therefore never holds more
// than a document the pre-scan accepts, as if the pre-scan ran first,
// and the pre-scan's time (a tenth of yaml/v4's) is not added to it.
type prescanGate struct {
	data []byte
	pos  int // what the reader has returned

	mu   sync.Mutex
	cond sync.Cond
	upto int    // what the pre-scan has accepted
	done bool   // the pre-scan has ended
	err  *Error // and why it refused the input, if it did
}

func newPrescanGate(b *builder, data []byte) *prescanGate {
	g := &prescanGate{data: data}
	g.cond.L = &g.mu
	go func() {
		var err *Error
		defer func() {
			if r := recover(); r != nil {
				err = b.errorf(Pos{}, "internal error: the YAML pre-scan failed: %v", r)
			}
			g.mu.Lock()
			g.done, g.err = true, err
			if err == nil {
				g.upto = len(data)
			}
			g.mu.Unlock()
			g.cond.Broadcast()
		}()
		err = prescanYAML(b, data, func(i int) {
			g.mu.Lock()
			g.upto = i
			g.mu.Unlock()
			g.cond.Broadcast()
		})
	}()
	return g
}

// errRefused stops yaml/v4 when the pre-scan refuses the input; the
// pre-scan's own error is the one reported.
var errRefused = errors.New("the input was refused before it was parsed")

// Read implements io.Reader for yaml/v4.
func (g *prescanGate) Read(p []byte) (int, error) {
	g.mu.Lock()
	for g.upto <= g.pos && !g.done {
		g.cond.Wait()
	}
	upto, err := g.upto, g.err
	g.mu.Unlock()
	if err != nil {
		return 0, errRefused
	}
	if g.pos >= upto {
		return 0, io.EOF
	}
	n := copy(p, g.data[g.pos:upto])
	g.pos += n
	return n, nil
}

// wait waits for the pre-scan to end and returns its verdict.
func (g *prescanGate) wait() *Error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for !g.done {
		g.cond.Wait()
	}
	return g.err
}

// checkExpansion counts the values of the document with every alias
// expanded, without expanding anything, so that an alias bomb is refused
// before the tree is built. The error is placed at the outermost alias whose
// expansion crosses the values limit.
func (c *yamlConv) checkExpansion(root *yaml.Node) *Error {
	limit := c.opts.Limits.Values
	sizes := map[*yaml.Node]int{}
	hasAlias, cyclic := false, false
	var size func(y *yaml.Node) int
	size = func(y *yaml.Node) int {
		if n, ok := sizes[y]; ok {
			if n < 0 {
				cyclic = true
				return 0
			}
			return n
		}
		n := 0
		switch y.Kind {
		case yaml.AliasNode:
			hasAlias = true
			if y.Alias != nil {
				n = size(y.Alias)
			}
			return n
		case yaml.MappingNode:
			sizes[y] = -1
			n = 1
			for i := 1; i < len(y.Content); i += 2 {
				n = min(n+size(y.Content[i]), limit+1)
			}
		case yaml.SequenceNode:
			sizes[y] = -1
			n = 1
			for _, e := range y.Content {
				n = min(n+size(e), limit+1)
			}
		default:
			n = 1
		}
		sizes[y] = n
		return n
	}
	total := size(root)
	if !hasAlias || cyclic || total <= limit {
		return nil // the conversion reports cycles and plain large documents
	}
	// Walk down to the value that crosses the limit, remembering the
	// outermost alias on the way.
	var at *yaml.Node
	before := 0
	y := root
	for {
		if y.Kind == yaml.AliasNode {
			if at == nil {
				at = y
			}
			y = y.Alias
			continue
		}
		before++ // y itself
		if before > limit {
			break
		}
		var kids []*yaml.Node
		switch y.Kind {
		case yaml.MappingNode:
			for i := 1; i < len(y.Content); i += 2 {
				kids = append(kids, y.Content[i])
			}
		case yaml.SequenceNode:
			kids = y.Content
		}
		var next *yaml.Node
		for _, k := range kids {
			t := k
			if t.Kind == yaml.AliasNode {
				t = t.Alias
			}
			if before+sizes[t] > limit {
				next = k
				break
			}
			before += sizes[t]
		}
		if next == nil {
			break
		}
		y = next
	}
	if at == nil {
		at = y
	}
	// A container nested too deep before that place is met first, as the
	// conversion and the pre-scan meet it, reading in document order.
	if d := c.firstTooDeep(root, 0); d != nil && posLess(ypos(d), ypos(at)) {
		return c.depthError(ypos(d))
	}
	return limitError(c.file, ypos(at), "values",
		fmt.Sprintf("the document has more than %d values once its aliases are expanded", limit))
}

// firstTooDeep returns the first collection, in document order, that is
// nested deeper than the depth limit, not following aliases; y's parent
// collection is at nesting depth depth. It is nil when there is none.
func (c *yamlConv) firstTooDeep(y *yaml.Node, depth int) *yaml.Node {
	if y.Kind != yaml.MappingNode && y.Kind != yaml.SequenceNode {
		return nil
	}
	if depth+1 > c.opts.Limits.Depth {
		return y
	}
	for _, k := range y.Content {
		if d := c.firstTooDeep(k, depth+1); d != nil {
			return d
		}
	}
	return nil
}

// decodeYAML decodes one document, turning a panic inside yaml/v4 into an
// error.
func decodeYAML(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: the YAML parser failed: %v", r)
		}
	}()
	return dec.Decode(n)
}

var yamlErrLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError converts a yaml/v4 error ("yaml: line 3: ...") into an *Error.
// yaml/v4 knows no columns, so Pos.Col is 0.
func (c *yamlConv) yamlError(err error) *Error {
	msg := err.Error()
	var pos Pos
	if m := yamlErrLineRE.FindStringSubmatch(msg); m != nil {
		// The line is below math.MaxInt32 (the input is at most MaxBytes),
		// so that the increment below cannot wrap; any other is ignored.
		if l, err := strconv.ParseInt(m[1], 10, 32); err == nil && l < math.MaxInt32 {
			pos.Line = int32(l)
		}
		msg = m[2]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	switch {
	case strings.HasPrefix(msg, "unknown anchor '"):
		name := strings.TrimSuffix(strings.TrimPrefix(msg, "unknown anchor '"), "' referenced")
		if i := bytes.Index(c.data, []byte("*"+name)); i >= 0 {
			pos = posAt(c.data, i)
		}
	case strings.HasPrefix(msg, "the YAML parser failed"):
	case pos.Line == 0:
		pos.Line = 1
	}
	if strings.HasPrefix(msg, "exceeded max depth of") {
		if c.opts.Limits.Depth < yamlMaxDepth {
			return c.depthError(pos)
		}
		return limitError(c.file, pos, "depth",
			fmt.Sprintf("nesting depth exceeds %d, the most the YAML parser supports", yamlMaxDepth))
	}
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = strings.Join(te.Errors, "; ")
	}
	if pos.Line > 0 && pos.Col == 0 {
		var hint string
		pos, hint = yamlFault(c.data, pos.Line, msg)
		if hint != "" {
			msg += ": " + hint
		}
	}
	return &Error{File: c.file, Pos: pos, Msg: "invalid YAML: " + msg}
}

// yamlFault finds, for a yaml/v4 syntax error reported on line (1-based)
// with message msg, the line:col of the fault in data, and says what was
// expected there. yaml/v4 gives only a line, and for some errors the line
// where it gave up rather than that of the cause: an unclosed bracket or
// quote is found by scanning back from there. Without a better place, the
// column is that of the line's first character that is not a space.
func yamlFault(data []byte, line int32, msg string) (Pos, string) {
	// The line's offset and text; a line break is "\n", "\r\n" or "\r".
	start, n := 0, int32(1)
	for start < len(data) && n < line {
		switch data[start] {
		case '\n':
			n++
		case '\r':
			if start+1 >= len(data) || data[start+1] != '\n' {
				n++
			}
		}
		start++
	}
	end := start
	for end < len(data) && data[end] != '\n' && data[end] != '\r' {
		end++
	}
	text := data[start:end]
	first := len(text) - len(bytes.TrimLeft(text, " "))
	at := func(off int) Pos { return posAt(data, off) }
	here := at(start + first)
	switch {
	case msg == "mapping values are not allowed in this context":
		// The ':' after a value that is already a plain scalar: the
		// second ': ' of the line outside quotes.
		seen := 0
		for _, off := range mappingColons(text) {
			seen++
			if seen == 2 {
				return at(start + off), "a plain value cannot hold ': '; quote the value, or start a nested mapping on a new line"
			}
		}
		return here, "a plain value cannot hold ': '; quote the value, or start a nested mapping on a new line"
	case msg == "did not find expected ',' or ']'" || msg == "did not find expected ',' or '}'":
		open, close := byte('['), byte(']')
		what := "flow sequence"
		if strings.HasSuffix(msg, "'}'") {
			open, close, what = '{', '}', "flow mapping"
		}
		if off := unclosed(data[:end], open, close); off >= 0 {
			return at(off), fmt.Sprintf("the %s opened here is not closed with '%c', or an item lacks a ',' before it", what, close)
		}
		return here, fmt.Sprintf("expected ',' between the items or '%c' to end the %s", close, what)
	case msg == "did not find expected key":
		return here, "expected a key at the indentation of the mapping it is in; check the indentation of this line"
	case msg == "did not find expected '-' indicator":
		return here, "expected a '-' item at the indentation of the list above; check the indentation of this line"
	case msg == "could not find expected ':'":
		return here, "expected ':' after the key"
	case msg == "did not find expected node content":
		return here, "expected a value"
	case strings.HasPrefix(msg, "found a tab character"):
		if i := bytes.IndexByte(text, '\t'); i >= 0 {
			return at(start + i), "indent with spaces, not tabs"
		}
		return here, "indent with spaces, not tabs"
	case msg == "found unexpected end of stream" || strings.HasPrefix(msg, "found unexpected end of stream"):
		if off := unclosedQuote(data); off >= 0 {
			return at(off), "the quoted string that starts here is not closed"
		}
		return here, ""
	case msg == "found character that cannot start any token":
		if i := bytes.IndexAny(text[first:], "@`"); i >= 0 {
			return at(start + first + i), "'@' and '`' cannot start a plain value; quote it"
		}
		return here, "quote the value"
	}
	return here, ""
}

// mappingColons returns the offsets in line of the ':' that end a key
// (followed by a space or the end of the line), outside quotes.
func mappingColons(line []byte) []int {
	var out []int
	var quote byte
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'':
			if i == 0 || line[i-1] == ' ' || line[i-1] == '[' || line[i-1] == '{' || line[i-1] == ',' {
				quote = ch
			}
		case ch == '#' && (i == 0 || line[i-1] == ' '):
			return out
		case ch == ':' && (i+1 == len(line) || line[i+1] == ' '):
			out = append(out, i)
		}
	}
	return out
}

// unclosed returns the offset of the last open bracket in data that no
// close bracket matches, outside quotes and comments, or -1.
func unclosed(data []byte, open, close byte) int {
	var stack []int
	var quote byte
	for i := 0; i < len(data); i++ {
		ch := data[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else if ch == '\\' && quote == '"' {
				i++
			}
		case ch == '"' || ch == '\'':
			quote = ch
		case ch == '#' && (i == 0 || data[i-1] == ' ' || data[i-1] == '\n'):
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case ch == open:
			stack = append(stack, i)
		case ch == close && len(stack) > 0:
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) == 0 {
		return -1
	}
	return stack[len(stack)-1]
}

// unclosedQuote returns the offset of the quote that opens a quoted
// scalar not closed before the end of data, or -1. Quotes are taken as
// opening only where a value or key starts (after a space, '[', '{', ',',
// ':' or at the start of a line), as in "don't" a quote opens nothing.
func unclosedQuote(data []byte) int {
	var quote byte
	open := -1
	for i := 0; i < len(data); i++ {
		ch := data[i]
		switch {
		case quote != 0:
			if ch == '\\' && quote == '"' {
				i++
			} else if ch == quote {
				if quote == '\'' && i+1 < len(data) && data[i+1] == '\'' {
					i++
					continue
				}
				quote = 0
			}
		case ch == '#' && (i == 0 || data[i-1] == ' ' || data[i-1] == '\n'):
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case (ch == '"' || ch == '\'') && (i == 0 || strings.IndexByte(" \n[{,:-", data[i-1]) >= 0):
			quote, open = ch, i
		}
	}
	if quote == 0 {
		return -1
	}
	return open
}

// yamlOnlyBreaks are the characters yaml/v4 counts as line breaks (as YAML
// 1.1 did) and YAML 1.2 does not, with their names and YAML escapes. They
// are refused: read as breaks, they would end comments and shift line
// numbers away from what an editor and the code frames show.
var yamlOnlyBreaks = map[rune][2]string{
	0x85:   {"next line", `\N`},
	0x2028: {"line separator", `\L`},
	0x2029: {"paragraph separator", `\P`},
}

// checkYAMLChars finds the first character YAML does not allow in a stream
// (yaml/v4 reports these without a position), and the line breaks of YAML
// 1.1 that YAML 1.2 does not count (see yamlOnlyBreaks).
func checkYAMLChars(file string, data []byte) *Error {
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7F {
				return &Error{File: file, Pos: posAt(data, i), Msg: fmt.Sprintf("control character U+%04X is not allowed in YAML", c)}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if name, ok := yamlOnlyBreaks[r]; ok {
			return &Error{File: file, Pos: posAt(data, i), Msg: fmt.Sprintf(
				"character U+%04X (%s) is not allowed in YAML: YAML 1.2 reads it as an ordinary character but the YAML parser as a line break; write it as %s in a double-quoted string",
				r, name[0], name[1])}
		}
		if r >= 0x80 && r <= 0x9F || r == 0xFFFE || r == 0xFFFF {
			return &Error{File: file, Pos: posAt(data, i), Msg: fmt.Sprintf("character U+%04X is not allowed in YAML", r)}
		}
		i += size
	}
	return nil
}

// scalarStyle maps yaml/v4's scalar style to ours.
func scalarStyle(s yaml.Style) Style {
	switch {
	case s&yaml.DoubleQuotedStyle != 0:
		return DoubleQuoted
	case s&yaml.SingleQuotedStyle != 0:
		return SingleQuoted
	case s&yaml.LiteralStyle != 0:
		return Literal
	case s&yaml.FoldedStyle != 0:
		return Folded
	}
	return Plain
}

func ypos(y *yaml.Node) Pos { return Pos{Line: int32(y.Line), Col: int32(y.Column)} }

// convert converts y, whose parent container is at nesting depth depth.
func (c *yamlConv) convert(y *yaml.Node, depth int) (*Node, *Error) {
	switch y.Kind {
	case yaml.AliasNode:
		if err := c.checkAlias(y); err != nil {
			return nil, err
		}
		return c.convert(y.Alias, depth)
	case yaml.MappingNode:
		return c.mapping(y, depth)
	case yaml.SequenceNode:
		return c.sequence(y, depth)
	case yaml.ScalarNode:
		kind, val, nonFinite, err := c.scalar(y)
		if err != nil {
			return nil, err
		}
		if nonFinite {
			if c.rejects(NonFiniteNumbers) {
				return nil, c.errorf(ypos(y), "non-finite number %s is not allowed (JSON numbers are finite); quote it for a string", y.Value)
			}
			kind, val = String, y.Value
		}
		n, err := c.newNode(kind, ypos(y))
		if err != nil {
			return nil, err
		}
		n.setScalar(val)
		n.Style = scalarStyle(y.Style)
		return n, nil
	case yaml.DocumentNode:
		if len(y.Content) == 0 {
			return c.newNode(Null, ypos(y))
		}
		return c.convert(y.Content[0], depth)
	}
	return nil, c.errorf(ypos(y), "unsupported YAML node")
}

func (c *yamlConv) checkAlias(y *yaml.Node) *Error {
	if c.rejects(Aliases) {
		return c.errorf(ypos(y), "alias *%s is not allowed; repeat the value instead of referring to an anchor", y.Value)
	}
	if y.Alias == nil {
		return c.errorf(ypos(y), "unknown anchor %q", y.Value)
	}
	if c.active[y.Alias] {
		return c.errorf(ypos(y), "alias *%s refers to a node that contains it; recursive structures are not allowed", y.Value)
	}
	return nil
}

// collection checks the tag of a mapping or sequence and creates its node.
func (c *yamlConv) collection(y *yaml.Node, kind Kind, std string, depth int) (*Node, *Error) {
	tag, err := c.explicitTag(y)
	if err != nil {
		return nil, err
	}
	if tag != "" && tag != std {
		return nil, c.errorf(ypos(y), "tag %s cannot be applied to a %s", tag, map[Kind]string{Object: "mapping", Array: "sequence"}[kind])
	}
	n, err := c.newNode(kind, ypos(y))
	if err != nil {
		return nil, err
	}
	if y.Style&yaml.FlowStyle != 0 {
		n.Style = Flow
	}
	if depth+1 > c.opts.Limits.Depth {
		return nil, c.depthError(n.Pos)
	}
	c.depth = max(c.depth, depth+1)
	if y.Anchor != "" {
		c.active[y] = true
	}
	return n, nil
}

func (c *yamlConv) mapping(y *yaml.Node, depth int) (*Node, *Error) {
	n, err := c.collection(y, Object, "!!map", depth)
	if err != nil {
		return nil, err
	}
	defer delete(c.active, y)
	kids := make([]*Node, 0, len(y.Content)/2)
	var index map[string]int
	for i := 0; i+1 < len(y.Content); i += 2 {
		key, keyPos, err := c.key(y.Content[i])
		if err != nil {
			return nil, err
		}
		at, err := c.memberSlot(kids, index, key, keyPos)
		if err != nil {
			return nil, err
		}
		child, err := c.convert(y.Content[i+1], depth+1)
		if err != nil {
			return nil, err
		}
		child.Parent, child.key, child.KeyPos = n, c.keyRef(key), keyPos
		if c.release {
			y.Content[i], y.Content[i+1] = nil, nil
		}
		if at >= 0 {
			kids[at] = child
		} else {
			kids = append(kids, child)
			index = noteMember(kids, index)
		}
	}
	finishObject(n, kids, index)
	return n, nil
}

func (c *yamlConv) sequence(y *yaml.Node, depth int) (*Node, *Error) {
	n, err := c.collection(y, Array, "!!seq", depth)
	if err != nil {
		return nil, err
	}
	defer delete(c.active, y)
	kids := make([]*Node, 0, len(y.Content))
	for i, e := range y.Content {
		child, err := c.convert(e, depth+1)
		if err != nil {
			return nil, err
		}
		child.Parent = n
		if c.release {
			y.Content[i] = nil
		}
		kids = append(kids, child)
	}
	finishArray(n, kids)
	return n, nil
}

// key resolves a mapping key to its member name.
func (c *yamlConv) key(k *yaml.Node) (string, Pos, *Error) {
	pos := ypos(k)
	if k.Kind == yaml.AliasNode {
		if err := c.checkAlias(k); err != nil {
			return "", pos, err
		}
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode {
		return "", pos, c.errorf(pos, "a %s cannot be a mapping key; keys must be strings", map[yaml.Kind]string{yaml.MappingNode: "mapping", yaml.SequenceNode: "sequence"}[k.Kind])
	}
	if k.Tag == "!!merge" && k.Style&yaml.TaggedStyle == 0 {
		if c.rejects(MergeKeys) {
			return "", pos, c.errorf(pos, "merge key << is not allowed (merge semantics are never applied; quote it for an ordinary \"<<\" key)")
		}
		return "<<", pos, nil
	}
	kind, val, nonFinite, err := c.scalar(k)
	if err != nil {
		return "", pos, err
	}
	if kind == String && !nonFinite {
		return val.(string), pos, nil
	}
	if c.rejects(NonStringKeys) {
		what := "a " + kind.String()
		if kind == Null {
			what = "null"
		}
		return "", pos, c.errorf(pos, "mapping key %s resolves to %s, not a string; quote it", quoteShort(k.Value), what)
	}
	return k.Value, pos, nil
}

// explicitTag returns the standard tag written on y, "" when there is none
// or it is a custom tag that is allowed (and so ignored).
func (c *yamlConv) explicitTag(y *yaml.Node) (string, *Error) {
	if y.Style&yaml.TaggedStyle == 0 {
		return "", nil
	}
	switch y.Tag {
	case "!!str", "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq":
		return y.Tag, nil
	}
	if c.rejects(CustomTags) {
		return "", c.errorf(ypos(y), "tag %s is not allowed; only the standard tags !!str, !!int, !!float, !!bool, !!null, !!map and !!seq are", y.Tag)
	}
	return "", nil
}

// scalar resolves a scalar node. nonFinite reports an infinity or NaN (then
// kind is Number and val is nil).
func (c *yamlConv) scalar(y *yaml.Node) (kind Kind, val any, nonFinite bool, err *Error) {
	s := y.Value
	if len(s) > c.opts.Limits.ScalarBytes {
		return 0, nil, false, c.scalarError(ypos(y), "the scalar", len(s))
	}
	tag, err := c.explicitTag(y)
	if err != nil {
		return 0, nil, false, err
	}
	quoted := y.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
	if tag == "" {
		if quoted {
			return String, s, false, nil
		}
		return c.resolvePlain(y)
	}
	bad := func() (Kind, any, bool, *Error) {
		return 0, nil, false, c.errorf(ypos(y), "%s cannot be read as %s", quoteShort(s), tag)
	}
	switch tag {
	case "!!str":
		return String, s, false, nil
	case "!!null":
		if isCoreNull(s) {
			return Null, nil, false, nil
		}
		return bad()
	case "!!bool":
		if b, ok := coreBool(s); ok {
			return Bool, b, false, nil
		}
		return bad()
	case "!!int":
		if isCoreInt(s) {
			return c.resolvePlain(y)
		}
		return bad()
	case "!!float":
		if isNonFinite(s) {
			return Number, nil, true, nil
		}
		if isCoreFloat(s) {
			// Decimal integers too: !!float 12 is the number 12.
			v, err := c.floatLiteral(ypos(y), s)
			if err != nil {
				return 0, nil, false, err
			}
			return Number, v, false, nil
		}
		if isCoreInt(s) {
			// 0x and 0o integers.
			k, v, nf, err := c.resolvePlain(y)
			if err == nil {
				if i, ok := v.(int64); ok {
					f := float64(i)
					if f >= 1<<63 || int64(f) != i {
						return 0, nil, false, c.inexactError(ypos(y), s, f)
					}
					v = normFloat(f)
				}
			}
			return k, v, nf, err
		}
		return bad()
	}
	return 0, nil, false, c.errorf(ypos(y), "tag %s cannot be applied to a scalar", tag)
}

// resolvePlain resolves a plain scalar by the core schema.
func (c *yamlConv) resolvePlain(y *yaml.Node) (Kind, any, bool, *Error) {
	return c.builder.resolvePlain(y.Value, ypos(y))
}

// resolvePlain resolves the plain scalar s, written at pos, by the core
// schema: its kind and value, and whether it is an infinity or NaN (then
// the kind is Number and the value nil).
func (b *builder) resolvePlain(s string, pos Pos) (Kind, any, bool, *Error) {
	if b.opts.Scalars == JSONScalars && !isJSONScalar(s) && !isNonFinite(s) {
		return String, s, false, nil
	}
	if isCoreNull(s) {
		return Null, nil, false, nil
	}
	if v, ok := coreBool(s); ok {
		return Bool, v, false, nil
	}
	if isNonFinite(s) {
		return Number, nil, true, nil
	}
	if isCoreInt(s) {
		var v int64
		var err error
		switch {
		case strings.HasPrefix(s, "0x"):
			v, err = strconv.ParseInt(s[2:], 16, 64)
		case strings.HasPrefix(s, "0o"):
			v, err = strconv.ParseInt(s[2:], 8, 64)
		default:
			v, err = strconv.ParseInt(s, 10, 64)
		}
		if err != nil {
			return 0, nil, false, b.errorf(pos, "integer %s is outside the 64-bit range", shorten(s))
		}
		return Number, v, false, nil
	}
	if isCoreFloat(s) {
		v, err := b.floatLiteral(pos, s)
		if err != nil {
			return 0, nil, false, err
		}
		return Number, v, false, nil
	}
	return String, s, false, nil
}

// isJSONScalar reports whether the JSON schema resolves the plain scalar s
// to anything but a string: null, true, false, an integer
// -?(0|[1-9][0-9]*) or a float -?(0|[1-9][0-9]*)(\.[0-9]*)?([eE][-+]?[0-9]+)?,
// or the empty value, which is null. Such a scalar resolves alike in the
// core schema. The spellings of infinity and NaN (.inf, .nan) resolve as
// under the core schema whichever schema is named, so that Options that
// reject NonFiniteNumbers refuse them under both.
func isJSONScalar(s string) bool {
	switch s {
	case "", "null", "true", "false":
		return true
	}
	i := 0
	if s[0] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		j := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == j {
			return false
		}
	}
	return i == len(s)
}

func isCoreNull(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

func coreBool(s string) (bool, bool) {
	switch s {
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	return false, false
}

func isNonFinite(s string) bool {
	switch s {
	case ".nan", ".NaN", ".NAN",
		".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return true
	}
	return false
}

// isCoreInt matches [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+.
func isCoreInt(s string) bool {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'x') {
		for _, c := range []byte(s[2:]) {
			ok := c >= '0' && c <= '7'
			if s[1] == 'x' {
				ok = isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
			}
			if !ok {
				return false
			}
		}
		return true
	}
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// isCoreFloat matches [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?.
func isCoreFloat(s string) bool {
	i := 0
	digits := func() int {
		j := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		return i - j
	}
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// OtherReading returns the type that YAML readers other than those using
// the JSON schema give the plain scalar s, which the JSON schema reads as
// a string: "null", "bool", "int" or "float" under the YAML 1.2 core
// schema (~, True, 0x1F, +1, .5), "timestamp" under YAML 1.1 (2026-08-25,
// 2026-08-25T10:00:00Z); "" when they read a string too, or when the JSON
// schema reads s as a null, a boolean or a number itself.
func OtherReading(s string) string {
	switch {
	case isJSONScalar(s):
		return ""
	case isCoreNull(s):
		return "null"
	case isNonFinite(s):
		return "float"
	case isCoreInt(s):
		return "int"
	case isCoreFloat(s):
		return "float"
	case isTimestamp(s):
		return "timestamp"
	}
	if _, ok := coreBool(s); ok {
		return "bool"
	}
	return ""
}

// isTimestamp matches YAML 1.1's timestamps: a date YYYY-MM-DD, or a date
// and a time (after 'T', 't' or spaces) with optional fraction and zone.
var timestampRE = regexp.MustCompile(`^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(([Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(\.[0-9]*)?([ \t]*(Z|[-+][0-9]{1,2}(:[0-9]{2})?))?)?$`)

func isTimestamp(s string) bool {
	return len(s) >= 8 && s[4] == '-' && timestampRE.MatchString(s)
}
