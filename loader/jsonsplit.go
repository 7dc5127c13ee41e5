package loader

import (
	"bytes"
	"runtime"
	"sync/atomic"

	"github.com/celint/celint/internal/librarypaths"
)

// A large JSON input is read by two goroutines: while the parser reads it
// from the start, a second one reads, from about the middle, the elements
// of the array it is most likely in (a description's tools, say). When the
// first reaches the place where the second started, and finds there an
// element of an array, it takes the second's elements as that array's next
// ones and goes on after them. Otherwise (the guess was wrong, the second
// found an error, or a limit would be crossed) it reads on by itself, so
// that the tree, every position and every error are those of one reader.

// splitMin is the input size from which a JSON input is read by two
// goroutines, when Go may run two at once.
const splitMin = 1 << 20

// splitWindow is how far past the middle the start of the second reader
// is looked for.
const splitWindow = 64 << 10

// secondHalf is the second reader: its parser, and what it read.
type secondHalf struct {
	at   int // where the first element starts
	done chan struct{}
	stop atomic.Bool // the first reader no longer needs the result
	q    *jsonParser
	err  *Error // the second reader's error: its result is not used
}

// startSecondHalf starts the second reader on data, if one can start:
// nil when data holds no place to start from.
func startSecondHalf(b *builder, data []byte) *secondHalf {
	at := splitPoint(data, len(data)/2)
	if at < 0 {
		return nil
	}
	h := &secondHalf{at: at, done: make(chan struct{})}
	q := &jsonParser{builder: &builder{file: b.file, opts: b.opts}, data: data, i: at, half: h}
	// The elements' array, as far as the second reader knows it.
	q.stack = []jsonFrame{{node: &Node{Kind: Array}}}
	h.q = q
	go func() {
		defer close(h.done)
		defer func() {
			// A panic is the first reader's to meet, if it reads this
			// far: here it only refuses the result.
			if r := recover(); r != nil {
				h.err = errNotNeeded
			}
		}()
		line, start := lineAt(data, at)
		q.lt = lineTracker{data: data, off: start, line: line, col: 1}
		_, h.err = q.run()
	}()
	return h
}

// errNotNeeded ends a second reader whose result the first no longer
// needs.
var errNotNeeded = &Error{Msg: "not needed"}

// useSplit reports whether a JSON input of n bytes is read by two
// goroutines.
func (b *builder) useSplit(n int) bool {
	if librarypaths.On {
		return false
	}
	least := b.splitMin
	if least == 0 {
		least = splitMin
	}
	return n >= least && runtime.GOMAXPROCS(0) > 1
}

// splitPoint returns the offset, at or after from, of an element of the
// outermost array that starts within splitWindow bytes after the first
// line break ('\n' or '\r') at or after from; -1 when there is none. An
// element is a '{' after ',' and white space; the outermost is the one
// where the brackets and braces read from the line break (outside
// strings) are the fewest open. JSON strings hold no raw line break, so
// reading starts outside any string. The answer is a guess: the first
// reader checks it.
func splitPoint(data []byte, from int) int {
	nl := bytes.IndexAny(data[from:min(len(data), from+splitWindow)], "\r\n")
	if nl < 0 {
		return -1
	}
	i := from + nl + 1
	end := min(len(data), i+splitWindow)
	best, bestDepth := -1, 0
	depth := 0
	for ; i < end; i++ {
		switch data[i] {
		case '"':
			for i++; i < end && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			j := i + 1
			for j < end && isJSONSpace(data[j]) {
				j++
			}
			if j < end && data[j] == '{' && (best < 0 || depth < bestDepth) {
				best, bestDepth = j, depth
			}
		}
	}
	return best
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// lineAt returns the line of offset off (1-based) and the offset its line
// starts at.
func lineAt(data []byte, off int) (line, start int) {
	x := lineIndex{src: data, cr: bytes.IndexByte(data[:off], '\r') >= 0}
	line = x.breaks(0, off) + 1
	for start = off; start > 0 && !lineBreakAt(data, start-1); start-- {
	}
	return line, start
}

// splice takes the second reader's elements as the next ones of the
// array the first reader is in, at h.at: it returns the last of them, or
// nil when the first reader reads on by itself. p.i is then at the ']'
// that closes the array.
func (p *jsonParser) splice() *Node {
	h := p.second
	p.second = nil
	if len(p.stack) == 0 || p.stack[len(p.stack)-1].node.Kind != Array {
		h.stop.Store(true)
		return nil
	}
	<-h.done
	q := h.q
	arr := p.stack[len(p.stack)-1].node
	// The second reader checked the depth from the array's level, and
	// counted its values from 0: the limits are checked again as one
	// reader would have.
	if h.err != nil || len(q.kids) == 0 ||
		q.maxOpen+len(p.stack)-1 >= p.opts.Limits.Depth ||
		p.values+q.values > p.opts.Limits.Values {
		return nil
	}
	for _, k := range q.kids {
		k.Parent = arr
	}
	p.kids = append(p.kids, q.kids...)
	p.values += q.values
	p.rewritten = p.rewritten || q.rewritten
	p.i, p.lt = q.i, q.lt
	p.splices++
	return q.kids[len(q.kids)-1]
}
