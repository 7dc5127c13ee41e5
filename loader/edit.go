package loader

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/celint/celint/internal/jsonpointer"
)

// EditOp is what an Edit does: the operations of JSON Patch (RFC 6902)
// that change a document in place.
type EditOp uint8

// The edit operations.
const (
	// Replace makes the value at Pointer Value.
	Replace EditOp = iota + 1
	// Remove takes out the member or item at Pointer.
	Remove
	// Add puts Value at Pointer: a new member of an object, or an item
	// inserted in an array before the index, or appended ("-").
	Add
	// Move takes the value at From out and adds it at Pointer. A member
	// moved to a new name in the same object is renamed where it stands.
	Move
)

// String is the operation's JSON Patch name: "replace", "remove", "add".
func (o EditOp) String() string {
	switch o {
	case Replace:
		return "replace"
	case Remove:
		return "remove"
	case Add:
		return "add"
	case Move:
		return "move"
	}
	return "?"
}

// MarshalText writes the operation's JSON Patch name.
func (o EditOp) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an operation's JSON Patch name, so that the fixes
// of a JSON report read back.
func (o *EditOp) UnmarshalText(text []byte) error {
	for _, op := range []EditOp{Replace, Remove, Add, Move} {
		if string(text) == op.String() {
			*o = op
			return nil
		}
	}
	return fmt.Errorf("%q is not one of the edit operations replace, remove, add, move", text)
}

// Edit is one change of a document's value, at an RFC 6901 pointer. In
// JSON it is a JSON Patch operation: op, path and value.
type Edit struct {
	Op      EditOp `json:"op"`
	From    string `json:"from,omitempty"` // for Move: where the value is taken from
	Pointer string `json:"path"`
	Value   any    `json:"value,omitempty"` // a JSON-compatible value; for Replace and Add
}

// MarshalJSON writes the edit as a JSON Patch operation: a replace or an
// add has its value even when it is null; a remove or a move has none.
func (e Edit) MarshalJSON() ([]byte, error) {
	type op struct {
		Op      EditOp `json:"op"`
		From    string `json:"from,omitempty"`
		Pointer string `json:"path"`
	}
	type withValue struct {
		op
		Value any `json:"value"`
	}
	o := op{e.Op, e.From, e.Pointer}
	if e.Op == Replace || e.Op == Add {
		return json.Marshal(withValue{o, e.Value})
	}
	return json.Marshal(o)
}

// ErrEdit is the cause of the error Edits returns for an edit it cannot
// make: a pointer that names nothing, or a change it cannot write in place.
var ErrEdit = errors.New("the edit cannot be made")

// Edits applies edits, in order, to the document data (named name, read
// with opts), each to the document the ones before it made, and returns
// the new source. Only the bytes of what an edit changes are rewritten:
// the rest, comments, key order, indentation, quoting and blank lines of
// YAML included, stays as it was. A new or replaced value is written in
// JSON syntax, which YAML reads alike (flow style, double-quoted strings),
// indented as its neighbours are in a JSON document written on several
// lines.
//
// Every edit is checked: the new source must parse with opts, and its
// value must be the JSON Patch result of the edit on the old value. An
// edit that would give anything else is refused, with an error wrapping
// ErrEdit, and nothing is returned.
func Edits(name string, data []byte, opts Options, edits []Edit) ([]byte, error) {
	doc, err := Parse(name, data, opts)
	if err != nil {
		return nil, err
	}
	for i, e := range edits {
		if e.Op < Replace || e.Op > Move {
			return nil, fmt.Errorf("edit %d: %w: unknown operation %d", i+1, ErrEdit, e.Op)
		}
		want, err := patched(doc.Root.Value(), e)
		if err != nil {
			return nil, fmt.Errorf("edit %d at %q: %w", i+1, e.Pointer, err)
		}
		out, err := edit(doc, e, opts)
		if err != nil {
			return nil, fmt.Errorf("edit %d at %q: %w", i+1, e.Pointer, err)
		}
		next, err := Parse(name, out, opts)
		if err != nil || !sameJSON(next.Root.Value(), want) {
			return nil, fmt.Errorf("edit %d at %q: %w: it cannot be written in place in this document", i+1, e.Pointer, ErrEdit)
		}
		doc = next
	}
	return doc.Source, nil
}

// sameJSON reports whether two JSON-compatible values are equal, numbers
// by value.
func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return false
	}
	var va, vb any
	if json.Unmarshal(ja, &va) != nil || json.Unmarshal(jb, &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

// patched is the JSON Patch result of e on v, which it does not change.
func patched(v any, e Edit) (any, error) {
	if e.Op == Move {
		moved, err := moveParts(v, e)
		if err != nil {
			return nil, err
		}
		if v, err = patched(v, moved[0]); err != nil {
			return nil, err
		}
		return patched(v, moved[1])
	}
	toks, err := jsonpointer.Parse(e.Pointer)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEdit, err)
	}
	if len(toks) == 0 {
		if e.Op != Replace {
			return nil, fmt.Errorf("%w: only replace applies to the whole document", ErrEdit)
		}
		return e.Value, nil
	}
	var set func(v any, toks []string) (any, error)
	set = func(v any, toks []string) (any, error) {
		last := len(toks) == 1
		switch c := v.(type) {
		case map[string]any:
			out := make(map[string]any, len(c)+1)
			for k, x := range c {
				out[k] = x
			}
			cur, ok := c[toks[0]]
			switch {
			case !last && !ok:
				return nil, fmt.Errorf("%w: no member %q", ErrEdit, toks[0])
			case !last:
				x, err := set(cur, toks[1:])
				out[toks[0]] = x
				return out, err
			case e.Op == Add && ok, e.Op != Add && !ok:
				return nil, fmt.Errorf("%w: member %q %s", ErrEdit, toks[0], map[bool]string{true: "is there already", false: "is not there"}[ok])
			case e.Op == Remove:
				delete(out, toks[0])
			default:
				out[toks[0]] = e.Value
			}
			return out, nil
		case []any:
			i := len(c)
			if toks[0] != "-" || !last || e.Op != Add {
				n, err := strconv.Atoi(toks[0])
				if err != nil || n < 0 || n > len(c) || (n == len(c) && !(last && e.Op == Add)) {
					return nil, fmt.Errorf("%w: no item %q", ErrEdit, toks[0])
				}
				i = n
			}
			out := append([]any(nil), c...)
			switch {
			case !last:
				x, err := set(c[i], toks[1:])
				out[i] = x
				return out, err
			case e.Op == Remove:
				return append(out[:i], out[i+1:]...), nil
			case e.Op == Replace:
				out[i] = e.Value
				return out, nil
			}
			return append(out[:i], append([]any{e.Value}, out[i:]...)...), nil
		}
		return nil, fmt.Errorf("%w: %q is inside a scalar", ErrEdit, toks[0])
	}
	return set(v, toks)
}

// moveParts is a Move as the Remove and the Add it is made of, the value
// read from v.
func moveParts(v any, e Edit) ([2]Edit, error) {
	if e.From == e.Pointer {
		return [2]Edit{}, fmt.Errorf("%w: a value is moved onto itself", ErrEdit)
	}
	if strings.HasPrefix(e.Pointer, e.From+"/") {
		return [2]Edit{}, fmt.Errorf("%w: a value cannot move into itself", ErrEdit)
	}
	val, err := valueAt(v, e.From)
	if err != nil {
		return [2]Edit{}, err
	}
	return [2]Edit{{Op: Remove, Pointer: e.From}, {Op: Add, Pointer: e.Pointer, Value: val}}, nil
}

// valueAt is the value at ptr in v.
func valueAt(v any, ptr string) (any, error) {
	toks, err := jsonpointer.Parse(ptr)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEdit, err)
	}
	for _, t := range toks {
		switch c := v.(type) {
		case map[string]any:
			x, ok := c[t]
			if !ok {
				return nil, fmt.Errorf("%w: no member %q to move", ErrEdit, t)
			}
			v = x
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("%w: no item %q to move", ErrEdit, t)
			}
			v = c[i]
		default:
			return nil, fmt.Errorf("%w: %q is inside a scalar", ErrEdit, t)
		}
	}
	return v, nil
}

// edit writes e into doc's source.
func edit(doc *Document, e Edit, opts Options) ([]byte, error) {
	if e.Op == Move {
		return moveNode(doc, e, opts)
	}
	toks, err := jsonpointer.Parse(e.Pointer)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEdit, err)
	}
	if e.Op == Replace {
		n, ok := doc.Lookup(e.Pointer)
		if !ok {
			return nil, fmt.Errorf("%w: the pointer names no value", ErrEdit)
		}
		return replaceNode(doc, n, e.Value)
	}
	if len(toks) == 0 {
		return nil, fmt.Errorf("%w: only replace applies to the whole document", ErrEdit)
	}
	parent, ok := doc.Lookup(jsonpointer.Join(toks[:len(toks)-1]...))
	if !ok || (parent.Kind != Object && parent.Kind != Array) {
		return nil, fmt.Errorf("%w: the pointer's parent is no object or array", ErrEdit)
	}
	last := toks[len(toks)-1]
	if e.Op == Remove {
		n, ok := doc.Lookup(e.Pointer)
		if !ok {
			return nil, fmt.Errorf("%w: the pointer names no value", ErrEdit)
		}
		if parent.Len() == 1 {
			// The last one: the collection becomes empty, which a block
			// collection cannot be written as.
			empty := any(map[string]any{})
			if parent.Kind == Array {
				empty = []any{}
			}
			return replaceNode(doc, parent, empty)
		}
		return removeNode(doc, parent, n)
	}
	return addNode(doc, parent, last, e.Value)
}

// moveNode writes a Move: a member that moves to a new name in its own
// object has its key rewritten where it stands (its value, comments and
// place untouched); any other move is a remove then an add.
func moveNode(doc *Document, e Edit, opts Options) ([]byte, error) {
	from, err := jsonpointer.Parse(e.From)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEdit, err)
	}
	to, err := jsonpointer.Parse(e.Pointer)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEdit, err)
	}
	if len(from) > 0 && len(to) == len(from) && jsonpointer.Join(from[:len(from)-1]...) == jsonpointer.Join(to[:len(to)-1]...) {
		n, ok := doc.Lookup(e.From)
		if ok && n.Parent != nil && n.Parent.Kind == Object && n.Parent.Member(to[len(to)-1]) == nil {
			if out, err := renameKey(doc, n, to[len(to)-1]); err == nil {
				return out, nil
			}
		}
	}
	parts, err := moveParts(doc.Root.Value(), e)
	if err != nil {
		return nil, err
	}
	out, err := edit(doc, parts[0], opts)
	if err != nil {
		return nil, err
	}
	mid, err := Parse(doc.Name, out, opts)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEdit, err)
	}
	return edit(mid, parts[1], opts)
}

// renameKey rewrites the key of member n as name.
func renameKey(doc *Document, n *Node, name string) ([]byte, error) {
	src := doc.Source
	start := doc.Offset(n.KeyPos)
	if start < 0 || start >= len(src) {
		return nil, fmt.Errorf("%w: the key's place in the source is unknown", ErrEdit)
	}
	end := start
	switch q := src[start]; q {
	case '"', '\'':
		end++
		for end < len(src) && src[end] != q {
			if q == '"' && src[end] == '\\' {
				end++
			} else if q == '\'' && src[end] == '\'' && end+1 < len(src) && src[end+1] == '\'' {
				end++ // '' inside single quotes
			}
			end++
		}
		if end >= len(src) {
			return nil, fmt.Errorf("%w: the key is not closed", ErrEdit)
		}
		end++
	default:
		for end < len(src) && src[end] != '\n' && !(src[end] == ':' && (end+1 == len(src) || src[end+1] == ' ' || src[end+1] == '\t' || src[end+1] == '\n' || src[end+1] == '\r')) {
			end++
		}
		for end > start && (src[end-1] == ' ' || src[end-1] == '\t') {
			end--
		}
	}
	return splice(src, start, end, keyText(doc, name)), nil
}

// span is the byte range of n's value in doc.Source.
func span(doc *Document, n *Node) (int, int, error) {
	start, end := doc.Offset(n.Pos), doc.Offset(doc.End(n))
	if start < 0 || end < start {
		return 0, 0, fmt.Errorf("%w: the value's place in the source is unknown", ErrEdit)
	}
	return start, end, nil
}

// splice returns src with src[start:end] replaced by text.
func splice(src []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(src)-(end-start)+len(text))
	out = append(out, src[:start]...)
	out = append(out, text...)
	return append(out, src[end:]...)
}

func replaceNode(doc *Document, n *Node, v any) ([]byte, error) {
	start, end, err := span(doc, n)
	if err != nil {
		return nil, err
	}
	if text, ok := wrapped(doc, n, v, start, end); ok {
		return splice(doc.Source, start, end, text), nil
	}
	if block(doc, n) && (n.Kind == Object || n.Kind == Array) && blankBefore(doc.Source, lineStart(doc.Source, start)+len(lineIndent(doc.Source, start))) {
		// A block collection is replaced by one written in block style,
		// its lines starting where the old one's first did.
		col := strings.Repeat(" ", start-lineStart(doc.Source, start))
		if text, ok := yamlBlock(v, col); ok {
			return splice(doc.Source, start, end, text), nil
		}
	}
	if str, ok := v.(string); ok && doc.Format == "yaml" && n.Kind == String {
		// A string keeps its quoting: single quotes stay single, double
		// stay double, plain stays plain where it can.
		switch {
		case n.Style == SingleQuoted && !strings.ContainsAny(str, "\n\r\t\\"):
			return splice(doc.Source, start, end, "'"+strings.ReplaceAll(str, "'", "''")+"'"), nil
		case n.Style == DoubleQuoted:
			b, _ := json.Marshal(str)
			return splice(doc.Source, start, end, string(b)), nil
		}
	}
	// A value written on one line is replaced by one on one line.
	oneLine := !bytes.Contains(doc.Source[start:end], []byte("\n"))
	text, err := renderValue(doc, v, lineIndent(doc.Source, start), oneLine)
	if err != nil {
		return nil, err
	}
	if start == end && start > 0 && doc.Source[start-1] == ':' {
		text = " " + text // a YAML null written as nothing
	}
	return splice(doc.Source, start, end, text), nil
}

// wrapped writes a collection n (at start:end) replaced by a list holding
// it alone, keeping its text: in brackets, or, for a YAML block
// collection, as the one item of a block sequence, its lines indented two
// more spaces. ok is false when v is not such a list.
func wrapped(doc *Document, n *Node, v any, start, end int) (string, bool) {
	l, ok := v.([]any)
	if !ok || len(l) != 1 || (n.Kind != Object && n.Kind != Array) || !sameJSON(l[0], n.Value()) {
		return "", false
	}
	text := string(doc.Source[start:end])
	if !block(doc, n) {
		return "[" + text + "]", true
	}
	if !blankBefore(doc.Source, start) {
		return "", false // a block collection that does not start its line
	}
	lines := strings.Split(text, "\n")
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			lines[i] = "  " + lines[i]
		}
	}
	return "- " + strings.Join(lines, "\n"), true
}

// yamlUnit is the indentation of a level of a YAML block collection
// written anew.
const yamlUnit = "  "

// yamlBlock writes v, a non-empty object or array, as a YAML block
// collection whose first line starts where the text goes and whose other
// lines start with indent. Members are in key order; scalars are plain
// where they read back as the same string, else written in JSON. ok is
// false for any other value.
func yamlBlock(v any, indent string) (string, bool) {
	switch c := v.(type) {
	case map[string]any:
		if len(c) == 0 {
			return "", false
		}
		keys := make([]string, 0, len(c))
		for k := range c {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var b strings.Builder
		for i, k := range keys {
			if i > 0 {
				b.WriteString("\n" + indent)
			}
			b.WriteString(yamlKey(k) + ":")
			if l, ok := c[k].([]any); ok {
				if flow, ok := flowScalars(l); ok {
					b.WriteString(" " + flow)
					continue
				}
			}
			if sub, ok := yamlBlock(c[k], indent+yamlUnit); ok {
				b.WriteString("\n" + indent + yamlUnit + sub)
				continue
			}
			b.WriteString(" " + yamlScalar(c[k]))
		}
		return b.String(), true
	case []any:
		if len(c) == 0 {
			return "", false
		}
		if flow, ok := flowScalars(c); ok {
			return flow, true
		}
		var b strings.Builder
		for i, x := range c {
			if i > 0 {
				b.WriteString("\n" + indent)
			}
			b.WriteString("- ")
			if sub, ok := yamlBlock(x, indent+"  "); ok {
				b.WriteString(sub)
				continue
			}
			b.WriteString(yamlScalar(x))
		}
		return b.String(), true
	}
	return "", false
}

// flowScalars writes a short list of scalars on one line, [a, "b c"], as
// YAML writers commonly do; ok is false for a long list, or one holding
// a collection.
func flowScalars(l []any) (string, bool) {
	parts := make([]string, len(l))
	n := 0
	for i, x := range l {
		switch x.(type) {
		case map[string]any, []any:
			return "", false
		}
		parts[i] = yamlScalar(x)
		n += len(parts[i]) + 2
	}
	if n > 72 {
		return "", false
	}
	return "[" + strings.Join(parts, ", ") + "]", true
}

// plainString reports whether s written as a YAML plain scalar reads back
// as the string s, in YAML 1.2 and in YAML 1.1 alike (no yes, on, …).
func plainString(s string) bool {
	if plainKey(s) {
		return true
	}
	if s == "" || strings.ContainsAny(s, "\n\r\t,[]{}#&*!|>'\"%@`") || strings.TrimSpace(s) != s ||
		strings.Contains(s, ": ") || strings.HasSuffix(s, ":") || strings.ContainsAny(s[:1], "-?:") {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n", "~":
		return false
	}
	var v any
	if err := yaml.Unmarshal([]byte(s), &v); err != nil {
		return false
	}
	got, ok := v.(string)
	return ok && got == s && !looksNumeric(s)
}

// looksNumeric reports whether a YAML 1.1 reader could take s for a number
// (1_000, 0x1F, 1:30, .5): only digits, dots and the characters of
// numbers, with a digit.
func looksNumeric(s string) bool {
	digit := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case strings.ContainsRune("+-._:xXoObBeE", r), r >= 'a' && r <= 'f', r >= 'A' && r <= 'F':
		default:
			return false
		}
	}
	return digit && strings.Count(s, ".") <= 1
}

// yamlKey writes a member name for a YAML block mapping.
func yamlKey(name string) string {
	if plainKey(name) {
		return name
	}
	b, _ := json.Marshal(name)
	return string(b)
}

// yamlScalar writes a scalar, or an empty collection, for a YAML block
// collection: a string plain when it reads back as itself, anything else
// in JSON.
func yamlScalar(v any) string {
	if s, ok := v.(string); ok && plainString(s) {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return spaced(string(b))
}

// renderValue writes v as JSON: compact (on one line, when oneLine), or,
// in a JSON document written on several lines, indented as the document
// is, its lines after the first starting with indent.
func renderValue(doc *Document, v any, indent string, oneLine bool) (string, error) {
	if str, ok := v.(string); ok && doc.Format == "yaml" && plainString(str) {
		return str, nil // a YAML plain scalar that reads back as the string
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	unit := indentUnit(doc)
	if oneLine {
		unit = ""
	}
	if unit != "" {
		enc.SetIndent(indent, unit)
	}
	if err := enc.Encode(v); err != nil {
		return "", fmt.Errorf("%w: the value is not JSON: %v", ErrEdit, err)
	}
	s := strings.TrimSuffix(b.String(), "\n")
	if unit == "" {
		// Compact JSON still puts a space after ':' and ',' to read as
		// flow YAML does.
		var c bytes.Buffer
		if err := json.Compact(&c, []byte(s)); err == nil {
			s = spaced(c.String())
		}
	}
	return s, nil
}

// spaced puts a space after each ':' and ',' of compact JSON that is not
// inside a string.
func spaced(s string) string {
	var b strings.Builder
	in, esc := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		b.WriteByte(c)
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case !in && (c == ':' || c == ','):
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// indentUnit is the indentation of a JSON document written on several
// lines ("  ", "\t", ...); "" for YAML or a JSON document on one line.
func indentUnit(doc *Document) string {
	if doc.Format != "json" {
		return ""
	}
	src := doc.Source
	i := bytes.IndexByte(src, '\n')
	if i < 0 {
		return ""
	}
	line := src[i+1:]
	n := 0
	for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
		n++
	}
	if n == 0 {
		return ""
	}
	return string(line[:n])
}

// lineIndent is the white space that starts the line holding offset.
func lineIndent(src []byte, off int) string {
	ls := lineStart(src, off)
	n := ls
	for n < len(src) && (src[n] == ' ' || src[n] == '\t') {
		n++
	}
	return string(src[ls:n])
}

func lineStart(src []byte, off int) int {
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

// lineEnd is the offset of the line break ending the line holding off, or
// len(src).
func lineEnd(src []byte, off int) int {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(src)
}

// blankBefore reports whether only white space precedes off on its line.
func blankBefore(src []byte, off int) bool {
	return len(bytes.TrimLeft(src[lineStart(src, off):off], " \t")) == 0
}

// blankLine reports whether the line starting at off is empty or spaces.
func blankLine(src []byte, off int) bool {
	return len(bytes.TrimSpace(src[off:lineEnd(src, off)])) == 0
}

// itemStart is where a member (its key) or an item (its "- " in a block
// sequence) starts.
func itemStart(doc *Document, n *Node) int {
	if n.Parent.Kind == Object {
		return doc.Offset(n.KeyPos)
	}
	start := doc.Offset(n.Pos)
	if n.Parent.Style != Flow && doc.Format == "yaml" {
		// back over "- " to the dash
		i := start - 1
		for i >= 0 && (doc.Source[i] == ' ' || doc.Source[i] == '\t') {
			i--
		}
		if i >= 0 && doc.Source[i] == '-' {
			return i
		}
	}
	return start
}

// block reports whether collection c is a YAML block collection.
func block(doc *Document, c *Node) bool {
	return doc.Format == "yaml" && c.Style != Flow
}

func removeNode(doc *Document, parent, n *Node) ([]byte, error) {
	src := doc.Source
	start := itemStart(doc, n)
	_, end, err := span(doc, n)
	if err != nil || start < 0 {
		return nil, fmt.Errorf("%w: the value's place in the source is unknown", ErrEdit)
	}
	if block(doc, parent) {
		// Whole lines: from the member's line to the end of its last.
		if !blankBefore(src, start) {
			return nil, fmt.Errorf("%w: the member does not start its line", ErrEdit)
		}
		ls, le := lineStart(src, start), lineEnd(src, end)
		if le < len(src) {
			le++ // its line break
		}
		if ls > 0 && blankLine(src, lineStart(src, ls-1)) && le < len(src) && blankLine(src, le) {
			le = min(lineEnd(src, le)+1, len(src)) // the member stood alone between blank lines: keep one
		}
		return splice(src, ls, le, ""), nil
	}
	// JSON or a flow collection: the item and one comma beside it.
	kids := parent.Children()
	i := 0
	for i < len(kids) && kids[i] != n {
		i++
	}
	if i < len(kids)-1 {
		next := itemStart(doc, kids[i+1])
		if blankBefore(src, start) && blankBefore(src, next) {
			// one per line: take the item's lines
			return splice(src, lineStart(src, start), lineStart(src, next), ""), nil
		}
		return splice(src, start, next, ""), nil
	}
	// The last item: from the end of the one before it.
	_, prevEnd, err := span(doc, kids[i-1])
	if err != nil {
		return nil, err
	}
	if blankBefore(src, start) {
		return splice(src, prevEnd, lineEnd(src, end), ""), nil
	}
	return splice(src, prevEnd, end, ""), nil
}

// keyText writes a member name: plain in YAML when it reads back as the
// same string, else JSON-quoted.
func keyText(doc *Document, name string) string {
	if doc.Format == "yaml" && plainKey(name) {
		return name
	}
	b, _ := json.Marshal(name)
	return string(b)
}

// plainKey reports whether a YAML plain scalar of name is that string:
// letters, digits and a few punctuation marks, starting with a letter, and
// no word YAML resolves to another type.
func plainKey(name string) bool {
	if name == "" {
		return false
	}
	switch strings.ToLower(name) {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n":
		return false
	}
	for i, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_':
		case i > 0 && (r >= '0' && r <= '9' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return true
}

func addNode(doc *Document, parent *Node, last string, v any) ([]byte, error) {
	src := doc.Source
	kids := parent.Children()
	at := len(kids) // where the new item goes
	if parent.Kind == Array && last != "-" {
		i, err := strconv.Atoi(last)
		if err != nil || i < 0 || i > len(kids) {
			return nil, fmt.Errorf("%w: no item %q", ErrEdit, last)
		}
		at = i
	}
	prefix := ""
	if parent.Kind == Object {
		prefix = keyText(doc, last) + ": "
	}
	if len(kids) == 0 {
		// An empty collection is written {} or []: write it anew.
		start, end, err := span(doc, parent)
		if err != nil {
			return nil, err
		}
		text, err := renderValue(doc, v, lineIndent(src, start), false)
		if err != nil {
			return nil, err
		}
		if parent.Kind == Object {
			k, _ := json.Marshal(last)
			return splice(src, start, end, "{"+string(k)+": "+text+"}"), nil
		}
		return splice(src, start, end, "["+text+"]"), nil
	}
	if block(doc, parent) {
		ref := kids[min(at, len(kids)-1)]
		start := itemStart(doc, ref)
		if start < 0 || !blankBefore(src, start) {
			return nil, fmt.Errorf("%w: the collection's items do not start their lines", ErrEdit)
		}
		indent := string(src[lineStart(src, start):start])
		text, err := renderValue(doc, v, indent, false)
		if err != nil {
			return nil, err
		}
		line := indent + prefix + text
		if parent.Kind == Array {
			line = indent + "- " + text
			if b, ok := yamlBlock(v, indent+"  "); ok {
				line = indent + "- " + b
			}
		} else if b, ok := yamlBlock(v, indent+yamlUnit); ok && strings.HasPrefix(b, "[") {
			line = indent + prefix + b
		} else if ok {
			line = indent + strings.TrimSuffix(prefix, " ") + "\n" + indent + yamlUnit + b
		}
		if at < len(kids) {
			ls := lineStart(src, start)
			return splice(src, ls, ls, line+"\n"), nil
		}
		_, end, err := span(doc, kids[len(kids)-1])
		if err != nil {
			return nil, err
		}
		le := lineEnd(src, end)
		return splice(src, le, le, "\n"+line), nil
	}
	// JSON or flow: beside a neighbour, with the separator the collection
	// uses.
	if at < len(kids) {
		start := itemStart(doc, kids[at])
		text, err := renderValue(doc, v, lineIndent(src, start), false)
		if err != nil {
			return nil, err
		}
		sep := ", "
		if at+1 < len(kids) || at > 0 {
			sep = separator(doc, kids)
		} else if blankBefore(src, start) {
			sep = ",\n" + lineIndent(src, start)
		}
		return splice(src, start, start, prefixJSON(doc, parent, last)+text+sep), nil
	}
	lastKid := kids[len(kids)-1]
	start := itemStart(doc, lastKid)
	_, end, err := span(doc, lastKid)
	if err != nil {
		return nil, err
	}
	text, err := renderValue(doc, v, lineIndent(src, start), false)
	if err != nil {
		return nil, err
	}
	sep := ", "
	if len(kids) > 1 {
		sep = separator(doc, kids)
	} else if blankBefore(src, start) {
		sep = ",\n" + lineIndent(src, start)
	}
	return splice(src, end, end, sep+prefixJSON(doc, parent, last)+text), nil
}

// prefixJSON is the "name": before a new member of a JSON or flow object.
func prefixJSON(doc *Document, parent *Node, name string) string {
	if parent.Kind != Object {
		return ""
	}
	return keyText(doc, name) + ": "
}

// separator is what stands between the first two items of a collection:
// its comma and the white space after it.
func separator(doc *Document, kids []*Node) string {
	_, end, err := span(doc, kids[0])
	next := itemStart(doc, kids[1])
	if err != nil || next < end {
		return ", "
	}
	return string(doc.Source[end:next])
}
