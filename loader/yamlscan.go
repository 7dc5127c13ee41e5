package loader

import (
	"fmt"
	"math"
)

// The YAML pre-scan runs before yaml/v4, which builds a whole document's
// node tree (about 200 bytes a node) before the loader can count anything:
// a 16 MiB flow sequence [0,0,…] took 1.8 GB before it was refused. The
// pre-scan reads the tokens of the stream with the scanners of span.go
// (plain, quoted and block scalars, comments, properties) and keeps what
// yaml/v4's scanner keeps to find structure: the stack of open flow
// collections and the columns of the open block collections. From them it
// counts, in each document, the values the loader would count (every node
// but the scalar keys of mappings) and the nesting depth, and refuses the
// document at the value or container that crosses a limit, with the
// message and position of the loader's own check.
//
// The counts are lower bounds: a construct the pre-scan does not follow
// (for example the single-pair mapping of "[? a : b]") is counted less, or
// not at all, never more, so a document the pre-scan refuses really crosses
// a limit and an accepted one is still counted exactly by the conversion.
// Every yaml/v4 node needs at least one token, and every token but a key is
// counted, so what yaml/v4 may build for a document the pre-scan lets
// through stays within a small multiple of the values limit.

// yblock is an open block collection: its indentation (0-based column) and
// whether it is a sequence, a mapping or an indentless sequence (a
// mapping's value written at the mapping's own column).
type yblock struct {
	col  int
	kind byte // 's', 'm' or 'i'
}

// ypending is an indicator whose node is still to come: "-", ":" (block
// mapping value), "?" (explicit key), or in flow context ":" (kind 'f').
type ypending struct {
	kind byte
	col  int // the column a node on a later line must be indented past
	line int32
	pos  Pos
}

type yscan struct {
	*builder
	sc     *spanCache
	src    []byte
	lt     lineTracker
	block  []yblock
	flow   []byte // '[' or '{' of each open flow collection
	pend   ypending
	props  bool // properties were read and their node is still to come
	propAt Pos  // where the first of those properties starts
	isKey  bool // the next node is an explicit key
	values int
	flowAt Pos // where the outermost open flow collection starts
	// flowCol is the column of the outermost open flow collection as a key
	flowCol int
	begun   bool // a document has begun (content or "---")

	// For tests: the values of the first document and its deepest nesting.
	docs, first, maxDepth int

	progress func(int) // see prescanYAML
	reported int       // the offset progress was last called with
}

// prescanYAML checks the values and depth limits of every document of the
// stream data before yaml/v4 reads it. Where it cannot follow the text (an
// unterminated quoted scalar, say) it stops and leaves the error to yaml/v4.
//
// progress, when not nil, is called now and then with an offset before
// which every value has been counted and found within the limits.
func prescanYAML(b *builder, data []byte, progress func(int)) *Error {
	s := &yscan{builder: b, sc: &spanCache{src: data, yaml: true}, src: data,
		lt: lineTracker{data: data, line: 1, col: 1}, progress: progress}
	_, err := s.run()
	return err
}

// progressStep is how many bytes the pre-scan reads between two calls of
// its progress function.
const progressStep = 32 << 10

// count counts a value at pos. The limits bound the first document only:
// the later ones of a stream that may hold several are not loaded, and,
// as in the conversion, only their syntax is checked.
func (s *yscan) count(pos Pos) *Error {
	s.values++
	if s.values > s.opts.Limits.Values && s.docs == 0 {
		return limitError(s.file, pos, "values",
			fmt.Sprintf("the document has more than %d values", s.opts.Limits.Values))
	}
	return nil
}

func (s *yscan) depth() int { return len(s.block) + len(s.flow) }

func (s *yscan) checkDepth(pos Pos) *Error {
	if s.docs == 0 {
		s.maxDepth = max(s.maxDepth, s.depth())
	}
	if s.depth() > s.opts.Limits.Depth && s.opts.Limits.Depth < yamlMaxDepth && s.docs == 0 {
		return s.depthError(pos)
	}
	return nil
}

// pushBlock opens a block collection at pos, counting it (the value
// first, then its depth, as the conversion checks them).
func (s *yscan) pushBlock(col int, kind byte, pos Pos) *Error {
	s.block = append(s.block, yblock{col, kind})
	if err := s.count(pos); err != nil {
		return err
	}
	return s.checkDepth(pos)
}

// resolve decides, at the token at pos on a later line or the same one,
// whether the pending indicator got its node; if not, its node is an empty
// scalar, counted (except for an empty explicit key).
func (s *yscan) resolve(pos Pos, valueAtKeyCol bool, end bool) *Error {
	p := s.pend
	if p.kind == 0 {
		return nil
	}
	s.pend = ypending{}
	node := !end && (pos.Line == p.line || int(pos.Col)-1 > p.col || p.kind == ':' && valueAtKeyCol && int(pos.Col)-1 == p.col)
	if node {
		s.isKey = p.kind == '?'
		return nil
	}
	at := p.pos
	if s.props {
		at = s.propAt // yaml/v4 places a node at its properties
	}
	s.props = false
	if p.kind == '?' {
		return nil
	}
	return s.count(at)
}

// endDoc finishes a document: a pending indicator gets an empty node, and
// the counts start again for the next document.
func (s *yscan) endDoc() *Error {
	if err := s.resolve(Pos{}, false, true); err != nil {
		return err
	}
	if s.docs == 0 {
		s.first = s.values
	}
	s.docs++
	s.block, s.flow, s.props, s.isKey, s.values = s.block[:0], s.flow[:0], false, false, 0
	return nil
}

// skipSpace skips blanks, line breaks and comments from i.
func (s *yscan) skipSpace(i int) (int, bool) {
	return s.sc.skipSep(i)
}

// isKeyAt reports whether the node that ends at e, in a flow collection,
// is a mapping key.
func (s *yscan) isKeyAt(e int) bool {
	key, _ := s.keyAfter(e, true)
	return key
}

// keyAfter reports whether the node that ends at e is a mapping key: in
// block context ": " follows on the same line; in flow context ':' follows.
func (s *yscan) keyAfter(e int, flow bool) (bool, int) {
	src := s.src
	k := e
	if flow {
		k, _ = s.skipSpace(e)
		return k < len(src) && src[k] == ':', k + 1
	}
	for k < len(src) && isBlank(src[k]) {
		k++
	}
	return k < len(src) && src[k] == ':' && isBlankz(src, k+1), k + 1
}

// blockKey handles a key at col (pos) in block context: it opens a mapping
// unless one is open at that column, placed at at (the key's position, or
// that of the properties before it), and its value is pending; an empty
// value is placed at empty, just past the ':' (as yaml/v4 places it).
func (s *yscan) blockKey(col int, pos, at, empty Pos) *Error {
	if n := len(s.block); n > 0 && s.block[n-1].kind == 'i' && s.block[n-1].col == col {
		s.block = s.block[:n-1]
	}
	if n := len(s.block); n == 0 || s.block[n-1].col < col {
		if err := s.pushBlock(col, 'm', at); err != nil {
			return err
		}
	}
	s.pend = ypending{kind: ':', col: s.block[len(s.block)-1].col, line: pos.Line, pos: empty}
	return nil
}

// node counts a scalar, alias or flow collection that is a value,
// or handles it as a key; e is just past it. It starts at pos, or at at
// with its properties.
func (s *yscan) node(e int, col int, pos, at Pos, counted bool) (int, *Error) {
	flow := len(s.flow) > 0
	isKey := s.isKey
	s.isKey, s.props = false, false
	if key, next := s.keyAfter(e, flow); key {
		if flow {
			if s.flow[len(s.flow)-1] == '[' && !isKey {
				// A single-pair mapping in a flow sequence.
				if err := s.count(at); err != nil {
					return 0, err
				}
			}
			s.pend = ypending{kind: 'f'}
			return next, nil
		}
		if counted {
			return next, nil // a flow collection as a key: the mapping is refused later
		}
		return next, s.blockKey(col, pos, at, s.lt.pos(next))
	}
	if isKey || counted {
		return e, nil
	}
	return e, s.count(at)
}

func (s *yscan) run() (int, *Error) {
	src := s.src
	i := 0
	startOfLine := true
	for {
		j, crossed := s.skipSpace(i)
		if crossed {
			startOfLine = true
		}
		i = j
		if s.progress != nil && i-s.reported >= progressStep {
			s.reported = i
			s.progress(i)
		}
		if i >= len(src) {
			if !s.begun {
				return i, nil
			}
			return i, s.endDoc()
		}
		pos := s.lt.pos(i)
		col := int(pos.Col) - 1
		c := src[i]
		if len(s.flow) == 0 {
			// Block context.
			if col == 0 && isDocMarker(src, i) {
				if s.begun {
					if err := s.endDoc(); err != nil {
						return i, err
					}
					if src[i] == '-' && s.rejects(MultipleDocuments) {
						return i, nil // a second document: yaml/v4 reports it
					}
				}
				s.begun = src[i] == '-'
				i += 3
				continue
			}
			if col == 0 && c == '%' {
				for i < len(src) && breakLen(src, i) == 0 {
					i++
				}
				continue
			}
			if startOfLine {
				n := len(s.block)
				for n > 0 && s.block[n-1].col > col {
					n--
				}
				s.block = s.block[:n]
			}
			startOfLine, s.begun = false, true
			dash := c == '-' && isBlankz(src, i+1)
			// yaml/v4 takes a block sequence, or a block scalar, at the
			// column of a key as that key's value.
			valueAtKeyCol := dash || c == '|' || c == '>'
			// A node that starts with properties starts where they do, on
			// their line: that decides whether it is the pending
			// indicator's node, and the column of a key.
			at := pos
			if s.props && s.propAt.Line == pos.Line {
				at = s.propAt
			}
			kcol := int(at.Col) - 1 // the column of the node, as a key
			if c != '&' && c != '!' {
				if err := s.resolve(at, valueAtKeyCol, false); err != nil {
					return i, err
				}
			}
			// Where yaml/v4 places the node: at its properties, on this
			// line or an earlier one.
			npos := pos
			if s.props {
				npos = s.propAt
			}
			switch {
			case dash:
				n := len(s.block)
				s.isKey, s.props = false, false
				switch {
				case n == 0 || s.block[n-1].col < col:
					if err := s.pushBlock(col, 's', npos); err != nil {
						return i, err
					}
				case s.block[n-1].col == col && s.block[n-1].kind == 'm':
					if err := s.pushBlock(col, 'i', npos); err != nil {
						return i, err
					}
				}
				s.pend = ypending{kind: '-', col: col, line: pos.Line, pos: Pos{pos.Line, pos.Col + 1}}
				i++
			case (c == '?' || c == ':') && isBlankz(src, i+1):
				s.isKey, s.props = false, false
				if c == '?' {
					if n := len(s.block); n == 0 || s.block[n-1].col < kcol {
						if err := s.pushBlock(kcol, 'm', npos); err != nil {
							return i, err
						}
					}
					s.pend = ypending{kind: '?', col: kcol, line: pos.Line, pos: pos}
				} else if err := s.blockKey(kcol, pos, npos, Pos{pos.Line, pos.Col + 1}); err != nil {
					return i, err
				}
				i++
			case c == '&' || c == '!':
				if !s.props {
					s.propAt = pos
				}
				i = s.skipProp(i)
				s.props = true
			case c == '|' || c == '>':
				parent := -1
				if n := len(s.block); n > 0 {
					parent = s.block[n-1].col
				}
				e := s.sc.scanBlockScalar(i, parent)
				if e < 0 {
					return i, nil
				}
				s.isKey, s.props = false, false
				if err := s.count(npos); err != nil {
					return i, err
				}
				i = max(e, i+1)
			case c == '[' || c == '{':
				s.flowAt, s.flowCol = npos, kcol
				if err := s.openFlow(c, npos); err != nil {
					return i, err
				}
				i++
			default:
				e, ok := s.scalarEnd(i, col, false)
				if !ok {
					return i, nil
				}
				if e <= i {
					i = nextChar(src, i)
					continue
				}
				var err *Error
				if i, err = s.node(e, kcol, pos, npos, false); err != nil {
					return i, err
				}
			}
			continue
		}
		// Flow context.
		startOfLine = false
		npos := pos
		if s.props {
			npos = s.propAt
		}
		switch c {
		case '[', '{':
			s.pend = ypending{}
			if err := s.openFlow(c, npos); err != nil {
				return i, err
			}
			i++
		case ']', '}', ',':
			if err := s.emptyFlow(pos); err != nil {
				return i, err
			}
			i++
			if c == ',' {
				continue
			}
			s.flow = s.flow[:len(s.flow)-1]
			if len(s.flow) == 0 {
				// Back in block context: the collection may be a key.
				var err *Error
				if i, err = s.node(i, s.flowCol, s.flowAt, s.flowAt, true); err != nil {
					return i, err
				}
			}
		case ':':
			if err := s.emptyFlow(pos); err != nil {
				return i, err
			}
			s.pend = ypending{kind: 'f'}
			i++
		case '?':
			if isBlankz(src, i+1) || i+1 < len(src) && isFlowIndicator(src[i+1]) {
				s.isKey = true
				i++
				continue
			}
			fallthrough
		default:
			if c == '&' || c == '!' {
				if !s.props {
					s.propAt = pos
				}
				i = s.skipProp(i)
				s.props = true
				continue
			}
			value := s.pend.kind == 'f'
			s.pend = ypending{}
			e, ok := s.scalarEnd(i, col, true)
			if !ok {
				return i, nil
			}
			if e <= i {
				i = nextChar(src, i)
				continue
			}
			if !value && !s.isKey && s.flow[len(s.flow)-1] == '{' && !s.isKeyAt(e) {
				// A key without ':' in a flow mapping: its empty value
				// is placed at the ',' or '}' that ends the entry, as
				// yaml/v4 places it.
				s.props = false
				s.pend = ypending{kind: 'f'}
				i = e
				continue
			}
			var err *Error
			if i, err = s.node(e, col, pos, npos, false); err != nil {
				return i, err
			}
		}
	}
}

// emptyFlow ends a flow entry at pos: a pending ':' or properties without
// a node are an empty value, placed at pos (as yaml/v4 places it).
func (s *yscan) emptyFlow(pos Pos) *Error {
	empty := s.pend.kind == 'f' || s.props
	if s.props {
		pos = s.propAt
	}
	s.pend, s.props, s.isKey = ypending{}, false, false
	if empty {
		return s.count(pos)
	}
	return nil
}

func (s *yscan) openFlow(c byte, pos Pos) *Error {
	s.isKey, s.props = false, false
	s.flow = append(s.flow, c)
	if err := s.count(pos); err != nil {
		return err
	}
	return s.checkDepth(pos)
}

// skipProp skips one anchor or tag at i.
func (s *yscan) skipProp(i int) int {
	src := s.src
	j := i + 1
	if src[i] == '!' && j < len(src) && src[j] == '<' {
		for j < len(src) && src[j] != '>' && breakLen(src, j) == 0 {
			j++
		}
		return min(j+1, len(src))
	}
	if src[i] == '!' {
		// A flow indicator ends a tag, as yaml/v4 reads it: in
		// "[!a,b]" the tag is "!a".
		for j < len(src) && isTagChar(src[j]) {
			j++
		}
		return j
	}
	return anchorEnd(src, j)
}

// scalarEnd returns the end of the scalar or alias at i; ok is false when
// the text cannot be followed (an unterminated quoted scalar).
func (s *yscan) scalarEnd(i, col int, flow bool) (int, bool) {
	src := s.src
	switch src[i] {
	case '\'':
		e := skipSingleQuoted(src, i)
		return e, e >= 0
	case '"':
		e := skipDoubleQuoted(src, i)
		return e, e >= 0
	case '*':
		return anchorEnd(src, i+1), true
	}
	if !plainStart(src, i, flow) {
		return i, true
	}
	indent := 0
	if !flow {
		if n := len(s.block); n > 0 {
			indent = s.block[n-1].col + 1
		}
	}
	return s.sc.scanPlain(i, col, indent, flow), true
}

// prescanCounts runs the pre-scan without limits and returns the values it
// counts in the first document and that document's deepest nesting (for
// tests).
func prescanCounts(data []byte) (values, depth int) {
	b := &builder{opts: Options{Limits: Limits{Values: math.MaxInt, Depth: math.MaxInt}}}
	s := &yscan{builder: b, sc: &spanCache{src: data, yaml: true}, src: data,
		lt: lineTracker{data: data, line: 1, col: 1}}
	s.run()
	if s.docs == 0 {
		s.first = s.values
	}
	return s.first, s.maxDepth
}
