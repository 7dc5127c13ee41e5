// Package baseline implements lint baselines: a file that records the
// findings of one run so that later runs report only new findings, as
// vacuum's ignore files or Redocly's --generate-ignore-file do.
//
// A finding is identified by its [Key]: file, rule, code and JSON pointer.
// Where the ruleset names array items by an identifying member
// (context.identity), the pointer names them so, as in
// /tools/[name="get_weather"]/description, and a finding keeps its key when
// items are inserted above it; findings recorded by index still match.
// The line is left out so that a finding survives lines moving above it,
// and the message is left out so that rewording a message does not bring
// back every finding. A baseline is a multiset: it records how many
// findings each key had, and hides at most that many.
//
// New and Apply take a run's findings all at once; a Recorder and a
// Filter take them one at a time, as a run finds them, so that the run
// need not keep them.
//
// The file is JSON:
//
//	{
//	  "version": 1,
//	  "findings": [
//	    {"file": "api/a.yaml", "rule": "r", "code": "", "pointer": "/x", "count": 2, "message": "…"}
//	  ]
//	}
//
// File names are relative to the baseline file's folder and slash-separated,
// so that a baseline can be committed and used on any machine. "message" is
// the message of one occurrence, for people reading the file; it is not part
// of the key.
package baseline

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// version is the only baseline file version there is.
const version = 1

// MaxBytes bounds a baseline file: 64 MiB, some 300,000 findings with
// their messages, far more than a project records.
const MaxBytes = 64 << 20

// MaxFindings bounds the findings of a baseline file. A file within
// MaxBytes holds at most about 1.5 million of the smallest findings.
const MaxFindings = 1 << 20

// Baseline is a recorded set of findings.
type Baseline struct {
	records map[Key]*record
}

// record is what a baseline holds for one key.
type record struct {
	count   int
	message string // of the first occurrence, for people; not matched
}

// Key is what identifies a finding across runs: file, rule, code and JSON
// pointer — never the line, so that findings survive lines moving, and never
// the message text.
type Key struct {
	File, Rule, Code, Pointer string
}

func compareKeys(a, b Key) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Rule, b.Rule),
		cmp.Compare(a.Code, b.Code),
		cmp.Compare(a.Pointer, b.Pointer),
	)
}

// KeyOf returns d's key, with File made relative to dir (the baseline file's
// folder) and slash-separated when d.File is inside dir or relative;
// otherwise File as it is, slash-separated.
//
// The key's Pointer is d.Path when the ruleset names the array items on the
// way by an identifying member (context.identity), so that inserting an item
// above a recorded finding does not bring it back; otherwise d.Pointer.
func KeyOf(d engine.Diagnostic, dir string) Key {
	return Key{File: relFile(d.File, dir), Rule: d.RuleID, Code: d.Code, Pointer: cmp.Or(d.Path, d.Pointer)}
}

// indexKey returns the key d had before array items were named by their
// identifying member, or false when d's key names none: a baseline written
// then records findings by index, and they still match.
func indexKey(d engine.Diagnostic, k Key) (Key, bool) {
	if d.Path == "" || d.Path == d.Pointer {
		return k, false
	}
	k.Pointer = d.Pointer
	return k, true
}

// take counts one occurrence of d against the recorded counts left: under
// its key, else under its index key. It reports whether one was left.
func take(left map[Key]int, d engine.Diagnostic, k Key) bool {
	if left[k] > 0 {
		left[k]--
		return true
	}
	if ik, ok := indexKey(d, k); ok && left[ik] > 0 {
		left[ik]--
		return true
	}
	return false
}

// relFile makes file relative to dir as KeyOf describes. A relative file is
// relative to the working directory, as dir is when dir is relative; when
// one of them is absolute and the other not, the relative one is made
// absolute.
func relFile(file, dir string) string {
	if file == "" {
		return ""
	}
	if dir == "" {
		dir = "."
	}
	rel, err := filepath.Rel(dir, file)
	if err != nil {
		// One is absolute and the other not, or dir climbs out of where
		// file is known (dir "..", file "a"): compare absolute paths.
		af, err1 := filepath.Abs(file)
		ad, err2 := filepath.Abs(dir)
		if err1 != nil || err2 != nil {
			return filepath.ToSlash(file)
		}
		if rel, err = filepath.Rel(ad, af); err != nil {
			return filepath.ToSlash(file)
		}
	}
	if filepath.IsAbs(file) && (rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))) {
		return filepath.ToSlash(file) // outside dir: an absolute path stays as it is
	}
	return filepath.ToSlash(rel)
}

// recordable reports whether d is a finding that a baseline records and
// hides: rule errors and input errors are neither.
func recordable(d engine.Diagnostic) bool { return !d.RuleError && !d.InputError }

// documentOrder returns the indexes of the recordable findings of ds in
// document order (line, column, message; ties in the order of ds), which
// does not depend on the order of ds.
func documentOrder(ds []engine.Diagnostic) []int {
	idx := make([]int, 0, len(ds))
	for i, d := range ds {
		if recordable(d) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		a, b := ds[i], ds[j]
		return cmp.Or(
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column),
			cmp.Compare(a.Message, b.Message),
		)
	})
	return idx
}

// New records the findings of ds (rule errors and input errors are never
// recorded), relative to dir. The message kept for a key is that of its
// first occurrence in document order (by line, then column).
func New(ds []engine.Diagnostic, dir string) *Baseline {
	b := &Baseline{records: make(map[Key]*record)}
	for _, i := range documentOrder(ds) {
		k := KeyOf(ds[i], dir)
		if r := b.records[k]; r != nil {
			r.count++
		} else {
			b.records[k] = &record{count: 1, message: ds[i].Message}
		}
	}
	return b
}

// fileJSON and findingJSON are the file format; the field order is the
// order in which Write writes the members.
type fileJSON struct {
	Version  int           `json:"version"`
	Findings []findingJSON `json:"findings"`
}

type findingJSON struct {
	File    string `json:"file"`
	Rule    string `json:"rule"`
	Code    string `json:"code"`
	Pointer string `json:"pointer"`
	Count   int    `json:"count"`
	Message string `json:"message,omitempty"`
}

// sortedKeys returns the keys of b in the order of the file.
func (b *Baseline) sortedKeys() []Key {
	if b == nil {
		return nil
	}
	keys := make([]Key, 0, len(b.records))
	for k := range b.records {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKeys)
	return keys
}

// Write writes b as JSON: {"version": 1, "findings": [{"file":...,
// "rule":..., "code":..., "pointer":..., "count": N}]}, sorted by file,
// rule, code, pointer, with a trailing newline; deterministic bytes for the
// same findings. Each finding also has the message of its first occurrence
// as "message", for people (ignored when reading).
func (b *Baseline) Write(w io.Writer) error {
	f := fileJSON{Version: version, Findings: []findingJSON{}}
	for _, k := range b.sortedKeys() {
		r := b.records[k]
		f.Findings = append(f.Findings, findingJSON{
			File: k.File, Rule: k.Rule, Code: k.Code, Pointer: k.Pointer,
			Count: r.count, Message: r.message,
		})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil { // Encode ends with a newline
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// ReadFile reads and parses the baseline file at path (see Read). Only a
// regular file is read, after symbolic links: a named pipe, a device, a
// socket or a folder is refused without being opened for long or waited on,
// and a file larger than MaxBytes is refused before it is read. Every error
// names path.
func ReadFile(path string) (*Baseline, error) {
	data, err := loader.ReadFile(path, MaxBytes)
	if err != nil {
		var le *loader.Error
		if errors.As(err, &le) && errors.Is(err, loader.ErrLimit) {
			size := ""
			if st, serr := os.Stat(path); serr == nil {
				size = fmt.Sprintf(" is %d bytes,", st.Size())
			}
			return nil, &readError{name: path, msg: fmt.Sprintf("the baseline%s more than the limit of %d bytes (64 MiB)", size, MaxBytes), err: err}
		}
		return nil, err
	}
	return Read(path, data)
}

// Read parses a baseline file's bytes. name is used in errors. A malformed
// file gives an error naming the file and, where the problem is at a place
// in the file, its line:col ("name:line:col: message"): JSON syntax errors,
// members of the wrong type, unknown or duplicate members, an unknown
// version (the error says which versions are known), and findings that lack
// a member or record the same key as an earlier one.
func Read(name string, data []byte) (*Baseline, error) {
	p := &reader{name: name, data: data, maxFindings: MaxFindings}
	return p.read()
}

// readError is an error of Read: "name:line:col: msg", or "name: msg" when
// the place is unknown.
type readError struct {
	name      string
	line, col int
	msg       string
	err       error // the JSON error behind it, if any
}

func (e *readError) Error() string {
	name := e.name
	if name == "" {
		name = "<baseline>"
	}
	if e.line > 0 {
		return name + ":" + strconv.Itoa(e.line) + ":" + strconv.Itoa(e.col) + ": " + e.msg
	}
	return name + ": " + e.msg
}

func (e *readError) Unwrap() error { return e.err }

type reader struct {
	name        string
	data        []byte
	maxFindings int // more findings are an error at the first one too many
}

// errAt returns an error at byte offset off of the file.
func (p *reader) errAt(off int, cause error, format string, args ...any) error {
	line, col := position(p.data, off)
	return &readError{name: p.name, line: line, col: col, msg: fmt.Sprintf(format, args...), err: cause}
}

// member is one member of a JSON object: its name, and the offsets of the
// name and of the value in the file.
type member struct {
	name           string
	keyOff, valOff int
	raw            json.RawMessage
}

func (p *reader) read() (*Baseline, error) {
	// Syntax first, so that every later step reads well-formed JSON (and
	// may find where a value ends by counting brackets). The offsets of a
	// json.SyntaxError are just past the offending byte, or the end of the
	// input when it ends too soon.
	if !json.Valid(p.data) {
		var whole json.RawMessage
		err := json.Unmarshal(p.data, &whole)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off := int(se.Offset)
			if off > 0 && !(off >= len(p.data) && strings.Contains(se.Error(), "unexpected end")) {
				off--
			}
			return nil, p.errAt(off, err, "invalid JSON: %s", se.Error())
		}
		if err == nil {
			err = errors.New("not valid JSON")
		}
		return nil, &readError{name: p.name, msg: "invalid JSON: " + err.Error(), err: err}
	}
	start := skipSpace(p.data, 0)
	top, err := p.object(start, "the baseline", map[string]bool{"version": true, "findings": true})
	if err != nil {
		return nil, err
	}
	ver, ok := top["version"]
	if !ok {
		return nil, p.errAt(start, nil, "missing member \"version\" (known versions: %d)", version)
	}
	var v int
	if err := p.decode(ver, &v); err != nil {
		return nil, err
	}
	if v != version {
		return nil, p.errAt(ver.valOff, nil, "unknown baseline version %d (known versions: %d)", v, version)
	}
	fs, ok := top["findings"]
	if !ok {
		return nil, p.errAt(start, nil, "missing member \"findings\"")
	}
	elems, err := p.array(fs)
	if err != nil {
		return nil, err
	}
	b := &Baseline{records: make(map[Key]*record, len(elems))}
	first := make(map[Key]int, len(elems)) // where each key was recorded
	for i, off := range elems {
		ms, err := p.object(off, "a finding", map[string]bool{
			"file": true, "rule": true, "code": true, "pointer": true, "count": true, "message": true,
		})
		if err != nil {
			return nil, err
		}
		for _, req := range []string{"file", "rule", "pointer", "count"} {
			if _, ok := ms[req]; !ok {
				return nil, p.errAt(off, nil, "finding lacks member %q", req)
			}
		}
		var f findingJSON
		for _, dst := range []struct {
			name string
			v    any
		}{
			{"file", &f.File}, {"rule", &f.Rule}, {"code", &f.Code},
			{"pointer", &f.Pointer}, {"count", &f.Count}, {"message", &f.Message},
		} {
			if m, ok := ms[dst.name]; ok {
				if err := p.decode(m, dst.v); err != nil {
					return nil, err
				}
			}
		}
		if f.Rule == "" {
			return nil, p.errAt(ms["rule"].valOff, nil, "\"rule\" is empty")
		}
		if f.Pointer != "" && f.Pointer[0] != '/' {
			return nil, p.errAt(ms["pointer"].valOff, nil, "\"pointer\" is not a JSON pointer: it must be empty or start with \"/\"")
		}
		if f.Count < 1 {
			return nil, p.errAt(ms["count"].valOff, nil, "\"count\" is %d; it must be at least 1", f.Count)
		}
		k := Key{File: f.File, Rule: f.Rule, Code: f.Code, Pointer: f.Pointer}
		if j, dup := first[k]; dup {
			line, col := position(p.data, elems[j])
			return nil, p.errAt(off, nil, "finding has the same file, rule, code and pointer as the finding at %d:%d; give one finding with the total count", line, col)
		}
		first[k] = i
		b.records[k] = &record{count: f.Count, message: f.Message}
	}
	return b, nil
}

// object reads the JSON object at offset off, which what describes for
// errors, and returns its members by name. A value that is not an object,
// a member not in known, and a member given twice are errors. The data is
// well-formed JSON.
func (p *reader) object(off int, what string, known map[string]bool) (map[string]member, error) {
	if off >= len(p.data) || p.data[off] != '{' {
		return nil, p.errAt(off, nil, "%s must be a JSON object, not %s", what, describe(p.data, off))
	}
	ms := make(map[string]member)
	i := skipSpace(p.data, off+1)
	for i < len(p.data) && p.data[i] == '"' {
		keyOff := i
		keyEnd := valueEnd(p.data, keyOff)
		name, ok := plainString(p.data[keyOff:keyEnd])
		if !ok {
			if err := json.Unmarshal(p.data[keyOff:keyEnd], &name); err != nil {
				return nil, p.errAt(keyOff, err, "invalid JSON: %s", err)
			}
		}
		valOff := skipSeparators(p.data, keyEnd) // the colon
		valEnd := valueEnd(p.data, valOff)
		if !known[name] {
			return nil, p.errAt(keyOff, nil, "unknown member %q in %s (known members: %s)", name, what, names(known))
		}
		if prev, dup := ms[name]; dup {
			line, col := position(p.data, prev.keyOff)
			return nil, p.errAt(keyOff, nil, "member %q given twice in %s; first at %d:%d", name, what, line, col)
		}
		ms[name] = member{name: name, keyOff: keyOff, valOff: valOff, raw: p.data[valOff:valEnd]}
		i = skipSeparators(p.data, valEnd) // the comma, or up to the closing brace
	}
	return ms, nil
}

// array returns the offsets of the elements of the JSON array that is m's
// value; a value that is not an array is an error, and so is an element
// past the reader's maxFindings. The data is well-formed JSON.
func (p *reader) array(m member) ([]int, error) {
	off := m.valOff
	if off >= len(p.data) || p.data[off] != '[' {
		return nil, p.errAt(off, nil, "%q must be an array, not %s", m.name, describe(p.data, off))
	}
	var elems []int
	for e := skipSpace(p.data, off+1); e < len(p.data) && p.data[e] != ']'; {
		if len(elems) == p.maxFindings {
			return nil, p.errAt(e, nil, "more than %d findings in %q; a baseline records at most that many", p.maxFindings, m.name)
		}
		elems = append(elems, e)
		e = skipSeparators(p.data, valueEnd(p.data, e))
	}
	return elems, nil
}

// valueEnd returns the offset just past the JSON value that starts at off
// in well-formed JSON: past the closing quote of a string, the bracket
// that closes an object or an array (counted, without recursion), or the
// last byte of a number or literal.
func valueEnd(data []byte, off int) int {
	if off >= len(data) {
		return off
	}
	switch data[off] {
	case '"':
		for i := off + 1; i < len(data); i++ {
			switch data[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return len(data)
	case '{', '[':
		depth := 0
		for i := off; i < len(data); i++ {
			switch data[i] {
			case '"':
				i = valueEnd(data, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(data)
	}
	i := off
	for i < len(data) && !strings.ContainsRune(" \t\r\n,:]}", rune(data[i])) {
		i++
	}
	return i
}

// decode unmarshals m's value into v. A value of the wrong type is an error
// at the place of the value, saying what was expected.
func (p *reader) decode(m member, v any) error {
	if sp, ok := v.(*string); ok {
		if s, ok := plainString(m.raw); ok {
			*sp = s
			return nil
		}
	}
	err := json.Unmarshal(m.raw, v)
	if err == nil {
		// Unmarshal leaves v alone for null; a null is still the wrong type.
		if bytes.Equal(m.raw, []byte("null")) {
			return p.errAt(m.valOff, nil, "%q must be %s, not null", m.name, want(reflect.TypeOf(v).Elem()))
		}
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		// te.Offset is relative to m.raw, whose value starts at m.valOff.
		// For a scalar it is just past the value; the value's start is
		// the more useful place to point at.
		return p.errAt(m.valOff, err, "%q must be %s, not %s", m.name, want(te.Type), article(te.Value))
	}
	return p.errAt(m.valOff, err, "%q: %s", m.name, err)
}

// plainString returns the JSON string raw holds when it needs no decoding
// (no escapes, no control characters, valid UTF-8), as json.Unmarshal
// would; ok is false otherwise.
func plainString(raw []byte) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c < 0x20 || c == '\\' || c == '"' {
			return "", false
		}
	}
	if !utf8.Valid(body) {
		return "", false
	}
	return string(body), true
}

// want describes what a Go type takes in JSON.
func want(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	}
	return t.String()
}

// article puts an article before a json.UnmarshalTypeError's Value:
// "string" → "a string", "number 1.5" → "the number 1.5".
func article(value string) string {
	switch {
	case strings.HasPrefix(value, "number "):
		return "the " + value
	case value == "array", value == "object":
		return "an " + value
	case value == "bool":
		return "a boolean"
	}
	return "a " + value
}

// describe names the kind of JSON value at off, for errors.
func describe(data []byte, off int) string {
	if off >= len(data) {
		return "nothing"
	}
	switch data[off] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// names lists the keys of known, sorted.
func names(known map[string]bool) string {
	ns := make([]string, 0, len(known))
	for n := range known {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return strings.Join(ns, ", ")
}

// skipSpace returns the offset of the first byte at or after off that is
// not JSON white space.
func skipSpace(data []byte, off int) int {
	for off < len(data) {
		switch data[off] {
		case ' ', '\t', '\n', '\r':
			off++
		default:
			return off
		}
	}
	return off
}

// skipSeparators skips white space, commas and colons: json.Decoder's
// InputOffset is just past the previous token, and the next one starts
// after these.
func skipSeparators(data []byte, off int) int {
	for off < len(data) {
		switch data[off] {
		case ' ', '\t', '\n', '\r', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

// position returns the 1-based line and column of byte offset off of data.
// Lines end at "\r\n", a lone '\r' or '\n'; columns count characters, as
// the loader does for documents.
func position(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	line, col = 1, 1
	for i := 0; i < off; i++ {
		c := data[i]
		switch {
		case c == '\n' || c == '\r' && (i+1 >= len(data) || data[i+1] != '\n'):
			line++
			col = 1
		case utf8.RuneStart(c):
			col++
		}
	}
	return line, col
}

// Result is what applying a baseline did.
type Result struct {
	// Kept are the diagnostics that the baseline does not hide, in the
	// order of the diagnostics given to Apply.
	Kept []engine.Diagnostic
	// Hidden is how many diagnostics the baseline hid.
	Hidden int
	// Gone is how many recorded findings the run no longer has: the sum,
	// over the keys, of the recorded count less the occurrences found.
	Gone int
	// GoneKeys are the keys with recorded findings that the run no longer
	// has, each once, sorted by file, rule, code and pointer.
	GoneKeys []Key
}

// Apply hides the findings of ds that the baseline records, at most as many
// per key as recorded (a multiset: if the baseline records a key twice and
// the run has it three times, one is kept; those kept are the last in
// document order). Rule errors and input errors are always kept. Gone
// counts recorded findings that the run no longer has (sum of unused
// counts); GoneKeys lists their keys sorted. Order of Kept is the order of
// ds. dir is as for KeyOf. A nil baseline hides nothing.
func (b *Baseline) Apply(ds []engine.Diagnostic, dir string) Result {
	left := make(map[Key]int)
	if b != nil {
		for k, r := range b.records {
			left[k] = r.count
		}
	}
	hide := make([]bool, len(ds))
	var res Result
	for _, i := range documentOrder(ds) {
		if take(left, ds[i], KeyOf(ds[i], dir)) {
			hide[i] = true
			res.Hidden++
		}
	}
	res.Kept = make([]engine.Diagnostic, 0, len(ds)-res.Hidden)
	for i, d := range ds {
		if !hide[i] {
			res.Kept = append(res.Kept, d)
		}
	}
	for k, n := range left {
		if n > 0 {
			res.Gone = min(res.Gone, math.MaxInt-n) + n // saturate: counts come from the file
			res.GoneKeys = append(res.GoneKeys, k)
		}
	}
	slices.SortFunc(res.GoneKeys, compareKeys)
	return res
}

// Filter hides findings one at a time, as a run finds them: of each key,
// at most as many as the baseline records. Which of them is hidden when
// the run has more of a key than recorded follows the order Hide is asked,
// not document order as in Apply. A Filter is safe for concurrent use.
type Filter struct {
	dir     string
	mu      sync.Mutex
	left    map[Key]int // what each key may still hide
	hidden  int
	checked map[string]bool // the files checked, as keys name them
}

// Filter returns a filter of the findings of b, with files relative to dir
// as for KeyOf. A nil baseline hides nothing.
func (b *Baseline) Filter(dir string) *Filter {
	f := &Filter{dir: dir, left: map[Key]int{}, checked: map[string]bool{}}
	if b != nil {
		for k, r := range b.records {
			f.left[k] = r.count
		}
	}
	return f
}

// Hide reports whether the baseline hides d, and counts it against its
// key. Rule errors and input errors are never hidden.
func (f *Filter) Hide(d engine.Diagnostic) bool {
	if !recordable(d) {
		return false
	}
	k := KeyOf(d, f.dir)
	f.mu.Lock()
	defer f.mu.Unlock()
	if take(f.left, d, k) {
		f.hidden++
		return true
	}
	return false
}

// Checked tells the filter that file was checked in full: the findings
// the baseline records for it that the run did not have are gone. Only the
// recorded findings of checked files count as gone: those of a file the
// run did not check (not named, skipped, or unreadable) are not.
func (f *Filter) Checked(file string) {
	k := relFile(file, f.dir)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.checked[k] = true
}

// Result says what the filter did so far, as Apply does (without Kept),
// with Gone and GoneKeys counting only the files named to Checked.
func (f *Filter) Result() Result {
	f.mu.Lock()
	defer f.mu.Unlock()
	res := Result{Hidden: f.hidden}
	for k, n := range f.left {
		if n > 0 && f.checked[k.File] {
			res.Gone = min(res.Gone, math.MaxInt-n) + n // saturate: counts come from the file
			res.GoneKeys = append(res.GoneKeys, k)
		}
	}
	slices.SortFunc(res.GoneKeys, compareKeys)
	return res
}

// Recorder records findings one at a time, as a run finds them, into a
// new baseline: the baseline New makes of the same findings, whatever
// their order. A Recorder is safe for concurrent use.
type Recorder struct {
	dir     string
	mu      sync.Mutex
	records map[Key]*recording
	n       int
}

// recording is a record with the place of the message kept: that of the
// first occurrence in document order.
type recording struct {
	record
	line, column int
}

// NewRecorder returns a recorder of findings with files relative to dir,
// as for KeyOf.
func NewRecorder(dir string) *Recorder {
	return &Recorder{dir: dir, records: map[Key]*recording{}}
}

// Add records d, unless it is a rule error or an input error, which are
// never recorded.
func (r *Recorder) Add(d engine.Diagnostic) {
	if !recordable(d) {
		return
	}
	k := KeyOf(d, r.dir)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	rec := r.records[k]
	if rec == nil {
		r.records[k] = &recording{record: record{count: 1, message: d.Message}, line: d.Line, column: d.Column}
		return
	}
	rec.count++
	if cmp.Or(cmp.Compare(d.Line, rec.line), cmp.Compare(d.Column, rec.column), cmp.Compare(d.Message, rec.message)) < 0 {
		rec.message, rec.line, rec.column = d.Message, d.Line, d.Column
	}
}

// Len returns how many findings were recorded.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// Baseline returns the baseline of the findings recorded so far.
func (r *Recorder) Baseline() *Baseline {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := &Baseline{records: make(map[Key]*record, len(r.records))}
	for k, rec := range r.records {
		b.records[k] = &record{count: rec.count, message: rec.message}
	}
	return b
}
