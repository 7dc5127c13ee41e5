// Package loader parses JSON and YAML documents into a located tree.
//
// Every node of the tree records where its value (and, for object members,
// its key) starts in the source as a 1-based line and column, and can be
// addressed by an RFC 6901 JSON Pointer. Besides the tree, a Document gives
// the data as JSON text with the byte offset of every node (a JSON input
// itself when it reads back as the tree verbatim, else a compact normalised
// rendering, laid out when the document is read and written when first
// asked for), so that results of byte-offset based JSON queries (gjson) can
// be mapped back to nodes, pointers and source positions.
//
// Parsing enforces the serialization restrictions selected in Options (YAML
// aliases, merge keys, custom tags, duplicate keys, non-string keys,
// non-finite numbers, empty and multi-document streams) and size limits
// (input bytes, nesting depth, number of values, scalar length). Every
// failure is an *Error with the file name and, whenever it is known, the
// line and column.
//
// The data model is JSON's: null, boolean, number (int64 when integral and
// exactly representable, float64 otherwise), string, array and object.
package loader

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Feature names a serialization construct that options can reject.
type Feature uint32

// The serialization constructs that Options.Reject can name.
const (
	// Aliases are YAML aliases (*a) of anchored nodes.
	Aliases Feature = 1 << iota
	// MergeKeys are YAML "<<" keys. When allowed they are ordinary string
	// keys named "<<"; merge semantics are never applied.
	MergeKeys
	// CustomTags are explicit YAML tags other than the standard !!str, !!int,
	// !!float, !!bool, !!null, !!map and !!seq. When allowed the tag is
	// ignored.
	CustomTags
	// DuplicateKeys are repeated member names in one JSON object or YAML
	// mapping (after scalar resolution).
	DuplicateKeys
	// NonStringKeys are YAML keys that resolve to anything but a string.
	// When allowed, a scalar key becomes its source text; collection keys
	// are always rejected.
	NonStringKeys
	// NonFiniteNumbers are YAML .inf, -.inf and .nan in their spellings.
	// When allowed the value becomes its source text as a string.
	NonFiniteNumbers
	// EmptyStream is a YAML stream (or file) without any document. When
	// allowed the document is a single null.
	EmptyStream
	// MultipleDocuments is a YAML stream with more than one document. When
	// allowed the first document is loaded and the others are only checked
	// for syntax errors.
	MultipleDocuments
)

// AllFeatures is the set of every Feature.
const AllFeatures Feature = Aliases | MergeKeys | CustomTags | DuplicateKeys |
	NonStringKeys | NonFiniteNumbers | EmptyStream | MultipleDocuments

var featureNames = []struct {
	f    Feature
	name string
}{
	{Aliases, "aliases"},
	{MergeKeys, "mergeKeys"},
	{CustomTags, "customTags"},
	{DuplicateKeys, "duplicateKeys"},
	{NonStringKeys, "nonStringKeys"},
	{NonFiniteNumbers, "nonFiniteNumbers"},
	{EmptyStream, "emptyStream"},
	{MultipleDocuments, "multipleDocuments"},
}

// String returns the names of the features in f joined by "|", for example
// "aliases|duplicateKeys"; "none" for the empty set.
func (f Feature) String() string {
	if f == 0 {
		return "none"
	}
	var parts []string
	for _, fn := range featureNames {
		if f&fn.f != 0 {
			parts = append(parts, fn.name)
			f &^= fn.f
		}
	}
	if f != 0 {
		parts = append(parts, "0x"+strconv.FormatUint(uint64(f), 16))
	}
	return strings.Join(parts, "|")
}

// ParseFeature returns the feature with the given name ("aliases",
// "mergeKeys", "customTags", "duplicateKeys", "nonStringKeys",
// "nonFiniteNumbers", "emptyStream", "multipleDocuments"). Several names
// joined by "|" give their union, so ParseFeature(f.String()) == f.
func ParseFeature(name string) (Feature, error) {
	var f Feature
	for _, part := range strings.Split(name, "|") {
		part = strings.TrimSpace(part)
		found := false
		for _, fn := range featureNames {
			if fn.name == part {
				f |= fn.f
				found = true
				break
			}
		}
		if !found {
			names := make([]string, len(featureNames))
			for i, fn := range featureNames {
				names[i] = fn.name
			}
			return 0, fmt.Errorf("unknown loader feature %q (want one of %s)", part, strings.Join(names, ", "))
		}
	}
	return f, nil
}

// Limits bounds the resources one document may use.
type Limits struct {
	Bytes       int64 // max input size in bytes
	Depth       int   // max nesting depth (the root container is depth 1; scalars add none)
	Values      int   // max number of values, counting alias expansions
	ScalarBytes int   // max bytes of one scalar (string or number text, member names included)
}

// MaxDepth is the hard ceiling on Limits.Depth: no ruleset and no caller
// can raise the nesting depth past it. Every recursive walk over a
// document's values (the loader's, CEL's equality and conversions, JSON
// Schema validation) survives this depth with room to spare; a deeper limit
// would only let a document crash the process with a stack overflow.
const MaxDepth = 10_000

// MaxBytes is the hard ceiling on Limits.Bytes, and MaxJSONBytes on the
// size of a document's JSON (Document.JSON, which a YAML document's
// aliases can make larger than its source): a node's offsets and
// positions are 32-bit numbers (see Node).
const (
	MaxBytes     = 1 << 30
	MaxJSONBytes = 1<<31 - 1<<20
)

// DefaultLimits returns the default limits: 64 MiB, depth 256, 2,000,000
// values and 8 MiB per scalar.
func DefaultLimits() Limits {
	return Limits{Bytes: 64 << 20, Depth: 256, Values: 2_000_000, ScalarBytes: 8 << 20}
}

// withDefaults replaces zero (or negative) fields by their defaults.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.Bytes <= 0 {
		l.Bytes = d.Bytes
	}
	l.Bytes = min(l.Bytes, MaxBytes)
	if l.Depth <= 0 {
		l.Depth = d.Depth
	}
	l.Depth = min(l.Depth, MaxDepth)
	if l.Values <= 0 {
		l.Values = d.Values
	}
	if l.ScalarBytes <= 0 {
		l.ScalarBytes = d.ScalarBytes
	}
	return l
}

// Options controls parsing.
type Options struct {
	Reject Feature // constructs that are errors
	Limits Limits  // zero fields mean the default for that field
	// Scalars is the YAML schema plain scalars are resolved by: the core
	// schema (the default) or the JSON schema.
	Scalars ScalarSchema
	// Format is "json" or "yaml" to read the input as that format whatever
	// its name; "" chooses by name and content (see Parse).
	Format string
}

// ScalarSchema is a YAML 1.2 schema for resolving plain scalars.
type ScalarSchema uint8

// The schemas. Under the core schema, ~, Null, True, FALSE, 0x1F, 0o17,
// +1, .5 and .inf are nulls, booleans and numbers; under the JSON schema,
// only null, true, false and JSON's own number syntax are, and every other
// plain scalar is a string (so `True`, `~` and `0x1F` are strings). An
// empty plain value (`key:`) is null in both, and the spellings of infinity
// and NaN (.inf, -.Inf, .nan) are non-finite numbers in both, so that a
// reader that rejects NonFiniteNumbers refuses them whichever it names.
const (
	CoreScalars ScalarSchema = iota
	JSONScalars
)

// ParseScalarSchema reads a schema's name: core or json.
func ParseScalarSchema(name string) (ScalarSchema, error) {
	switch name {
	case "core":
		return CoreScalars, nil
	case "json":
		return JSONScalars, nil
	}
	return 0, fmt.Errorf("unknown scalar schema %q: expected core or json", name)
}

// DefaultOptions rejects every Feature except MergeKeys (a "<<" key is then
// an ordinary key) and uses DefaultLimits.
func DefaultOptions() Options {
	return Options{Reject: AllFeatures &^ MergeKeys, Limits: DefaultLimits()}
}

func limitError(file string, pos Pos, limit, msg string) *Error {
	return &Error{File: file, Pos: pos, Limit: limit, Msg: msg, Err: ErrLimit}
}

func bytesLimitError(file string, size, limit int64) *Error {
	return limitError(file, Pos{}, "bytes",
		fmt.Sprintf("input is %d bytes, more than the limit of %d bytes", size, limit))
}

// Parse parses data as a JSON or YAML document. The format follows the
// extension of name (.json; .yaml or .yml); for any other name it is JSON
// when the first non-whitespace byte is '{' or '[', YAML otherwise. The
// error, when not nil, is always an *Error.
//
// The document keeps data (Document.Source; a JSON input's strings and
// Document.JSON, and a YAML input's scalars written on one line without
// escapes, share its bytes), which must not be modified afterwards.
//
// A JSON input of 1 MiB or more is read by two goroutines when
// GOMAXPROCS allows (see jsonsplit.go); the document, its positions and
// its errors are those of one reader, and no goroutine reads data after
// Parse returns.
func Parse(name string, data []byte, opts Options) (*Document, error) {
	doc, err := parse(name, data, opts)
	if err != nil {
		return nil, err
	}
	doc.BOM = bytes.HasPrefix(data, utf8BOM)
	return doc, nil
}

// newDocument is the document of root, rendered, with counted values and
// the deepest nesting checked while it was read; an error when its JSON
// would be longer than MaxJSONBytes.
func newDocument(name, format string, root *Node, src []byte, counted, depth int) (*Document, *Error) {
	doc := &Document{Name: name, Format: format, Root: root, Source: src}
	size, count, ok := layout(root, MaxJSONBytes)
	if !ok {
		return nil, jsonSizeError(name)
	}
	doc.Values, doc.rendered, doc.jsonSize = count, true, size
	doc.counted, doc.depth = counted, depth
	return doc, nil
}

// jsonSizeError says that a document's JSON would be too long.
func jsonSizeError(name string) *Error {
	return limitError(name, Pos{}, "bytes",
		fmt.Sprintf("the document, written as JSON, would be longer than %d bytes (its aliases repeat too much)", MaxJSONBytes))
}

// verbatim reports whether the document's JSON is its input.
func (d *Document) verbatim() bool {
	return d.Format == "json" && !d.rendered && d.Root != nil && len(d.json) > 0 && &d.json[0] == &d.Source[0] && len(d.json) == len(d.Source)
}

// verbatimDocument is the document of a JSON input read verbatim (see
// parseJSON): the input is its JSON, and its nodes' offsets are already
// set. Nothing was replaced, so every counted value is a node.
func verbatimDocument(name string, root *Node, src []byte, counted int) *Document {
	return &Document{Name: name, Format: "json", Root: root, Source: src, json: src, Values: counted, counted: counted}
}

// formatOf is the format data is read as: "json" or "yaml" (see Parse).
func formatOf(name string, data []byte, opts Options) string {
	if opts.Format == "json" || opts.Format != "yaml" && isJSON(name, data) {
		return "json"
	}
	return "yaml"
}

func parse(name string, data []byte, opts Options) (*Document, *Error) {
	opts.Limits = opts.Limits.withDefaults()
	if int64(len(data)) > opts.Limits.Bytes {
		return nil, bytesLimitError(name, int64(len(data)), opts.Limits.Bytes)
	}
	// A UTF-8 byte order mark before the document is left out: positions
	// are those of the document after it, the first line's columns
	// counted without it.
	data = bytes.TrimPrefix(data, utf8BOM)
	if err := checkEncoding(name, data); err != nil {
		return nil, err
	}
	b := &builder{file: name, opts: opts}
	var (
		root   *Node
		err    *Error
		format string
	)
	format = formatOf(name, data, opts)
	if format == "json" {
		var verbatim bool
		root, verbatim, err = parseJSON(b, data)
		if err == nil && verbatim {
			return verbatimDocument(name, root, data, b.values), nil
		}
	} else {
		root, err = parseYAML(b, data)
	}
	if err != nil {
		return nil, err
	}
	return newDocument(name, format, root, data, b.values, b.depth)
}

// ParseFile reads and parses the file at path (see Parse). The size limit is
// checked with Stat before the file is read.
func ParseFile(path string, opts Options) (*Document, error) {
	data, err := ReadFile(path, opts.Limits.withDefaults().Bytes)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, opts)
}

// ReadFile reads at most limit bytes of the file at path: only a regular
// file (after symbolic links) is read, a larger one is refused before it is
// read, and a file that grows is never read past limit+1 bytes. A named
// pipe, a device or a socket is refused without waiting on it (the error
// wraps ErrNotRegular). The error is an *Error naming the file.
func ReadFile(path string, limit int64) ([]byte, error) {
	return readFile(path, limit)
}

func unwrapPathError(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// isJSON chooses the format from the extension, else by sniffing.
func isJSON(name string, data []byte) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		return true
	case ".yaml", ".yml":
		return false
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	return len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[')
}
