package cel

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"mime"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/celint/celint/internal/celtree"
	"github.com/celint/celint/internal/jsonpointer"
	"github.com/celint/celint/internal/librarypaths"
	"github.com/celint/celint/internal/schemafast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/yosida95/uritemplate/v3"
)

// This file holds the functions of library version 3: JSON Schema
// validation with options (dialect, external references), the external
// references of a schema, RFC 6570 URI templates, media types and canonical
// base64.

// schemaDialects maps the dialect names of the schema options to drafts.
var schemaDialects = map[string]*jsonschema.Draft{
	"2020-12":  jsonschema.Draft2020,
	"2019-09":  jsonschema.Draft2019,
	"draft-07": jsonschema.Draft7,
	"draft-06": jsonschema.Draft6,
	"draft-04": jsonschema.Draft4,
}

// schemaOptions are the parsed options map of the version-3 schema
// functions.
type schemaOptions struct {
	dialect        string // a key of schemaDialects
	ignoreExternal bool   // externalRefs: "ignore"
}

// dialectCodes numbers the dialects for schemaOptions.code.
var dialectCodes = map[string]uint8{"2020-12": 0, "2019-09": 1, "draft-07": 2, "draft-06": 3, "draft-04": 4}

// code is the options as a small number, for the identity index's keys:
// the dialect's (see dialectCodes) times two, plus one to ignore external
// references.
func (o schemaOptions) code() uint8 {
	c := dialectCodes[o.dialect] << 1
	if o.ignoreExternal {
		c |= 1
	}
	return c
}

// key is the options' part of a compiled-schema cache key.
func (o schemaOptions) key() string {
	if o.ignoreExternal {
		return o.dialect + "/ignore"
	}
	return o.dialect + "/refuse"
}

// parseSchemaOptions reads {"dialect": ..., "externalRefs": ...}. The two
// options are looked up by name, not found by iterating the map (a map
// literal's iterator walks a Go map by reflection, at every call), and a
// map with other members is then iterated for the first of them in
// name order, so that the error does not depend on map order.
func parseSchemaOptions(v ref.Val) (schemaOptions, error) {
	o := schemaOptions{dialect: "2020-12"}
	m, ok := v.(traits.Mapper)
	if !ok {
		return o, fmt.Errorf("schema options must be a map, got %s", v.Type().TypeName())
	}
	known := 0
	if d, found := m.Find(types.String("dialect")); found {
		known++
		val, _ := d.(types.String)
		if _, ok := schemaDialects[string(val)]; !ok {
			return o, fmt.Errorf("schema option dialect: got %s, want one of \"2020-12\", \"2019-09\", \"draft-07\", \"draft-06\", \"draft-04\"", Quote(d.Value()))
		}
		o.dialect = string(val)
	}
	if e, found := m.Find(types.String("externalRefs")); found {
		known++
		val, _ := e.(types.String)
		switch val {
		case "refuse":
			o.ignoreExternal = false
		case "ignore":
			o.ignoreExternal = true
		default:
			return o, fmt.Errorf("schema option externalRefs: got %s, want \"refuse\" or \"ignore\"", Quote(e.Value()))
		}
	}
	if n, ok := m.Size().(types.Int); ok && int(n) == known {
		return o, nil
	}
	var other []string
	for it := m.Iterator(); it.HasNext() == types.True; {
		k := it.Next()
		name, ok := k.(types.String)
		if !ok {
			return o, fmt.Errorf("schema option names are strings, got %s", k.Type().TypeName())
		}
		if name != "dialect" && name != "externalRefs" {
			other = append(other, string(name))
		}
	}
	slices.Sort(other)
	if len(other) > 0 {
		return o, fmt.Errorf("unknown schema option %q: the options are \"dialect\" and \"externalRefs\"", other[0])
	}
	return o, nil
}

// compiledSchemaWith compiles (or fetches from the cache) a schema value
// under options.
func (l *library) compiledSchemaWith(schema ref.Val, o schemaOptions) (*Schema, error) {
	c := &l.caches.schemas
	// A document's own map is found by its identity, without converting
	// or encoding it again: most rules ask about the same schema several
	// times.
	var id identityKey
	ident, keep := identity(schema)
	if ident != nil {
		id = identityKey{ident, o.code()}
		c.mu.Lock()
		e := c.byIdentity[id]
		c.mu.Unlock()
		if e != nil {
			return e.schema, e.err
		}
	}
	doc, err := schemaValue(schema, ident)
	if err != nil {
		return nil, &SchemaCompileError{Msg: err.Error()}
	}
	// A document's plain schema (see rawschema.go) is not compiled: it is
	// kept by its identity, with no canonical key to encode (and no
	// reference to take out).
	if ident != nil {
		if raw := rawSchema(doc, schemaDialects[o.dialect]); raw != nil {
			e := schema3Entry{schema: raw}
			c.mu.Lock()
			c.misses++
			c.rememberLocked(id, &identityEntry{keep, e, true})
			// A plain schema has no reference at all: schemaExternalRefs,
			// which rules ask next, finds it here (see plainByIdentity)
			// and need not walk it.
			c.plainOpts = o
			c.mu.Unlock()
			return e.schema, nil
		}
	}
	doc = copyOf(doc)
	canon, err := json.Marshal(doc)
	if err != nil {
		return nil, &SchemaCompileError{Msg: err.Error()}
	}
	key := o.key() + "\x00" + string(canon)
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok {
		c.remember(id, keep, e)
		return e.schema, e.err
	}
	if o.ignoreExternal {
		doc = withoutExternalRefs(doc)
	}
	e.schema, e.err = compileSchemaDraft(doc, schemaDialects[o.dialect])
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]schema3Entry{}
	}
	maxEntries := cmp.Or(c.maxEntries, schema3CacheEntries)
	for k := range c.entries { // evict arbitrary entries to make room
		if len(c.entries) < maxEntries && c.bytes+len(key) <= schema3CacheBytes {
			break
		}
		c.bytes -= len(k)
		delete(c.entries, k)
	}
	if _, dup := c.entries[key]; !dup {
		c.bytes += len(key)
	}
	c.misses++
	c.entries[key] = e
	c.rememberLocked(id, &identityEntry{keep: keep, schema3Entry: e})
	return e.schema, e.err
}

// schemaValue is a schema argument as the schema functions read it: a
// document's schema in place, as its Tree (ident is its identity), so
// that the document keeps no native copy of it; any other value as its
// native value.
func schemaValue(schema ref.Val, ident any) (any, error) {
	if t, ok := ident.(celtree.Tree); ok {
		return t, nil
	}
	return ToNative(schema)
}

// identity returns the key under which what is computed from a document
// value is kept, and what that key must keep alive: for a view of a
// document object (an Immutable TreeValue), its Tree, which the key holds;
// for another Immutable value, its map's address, and the map, so that
// the address names no other map while the entry lasts. nil for any other
// value.
func identity(v ref.Val) (key, keep any) {
	im, ok := v.(celtree.Immutable)
	if !ok {
		return nil, nil
	}
	if tv, ok := v.(celtree.TreeValue); ok {
		if t := tv.Tree(); t.JSONType() == celtree.TreeObject && reflect.TypeOf(t).Comparable() {
			return t, nil
		}
	}
	if m, ok := im.ImmutableValue().(map[string]any); ok && m != nil {
		return reflect.ValueOf(m).UnsafePointer(), m
	}
	return nil, nil
}

// identityKey is a document value, by its identity (see identity), under
// options (schemaOptions.code): a small key, as the index holds an entry
// for each of a description's thousands of schemas.
type identityKey struct {
	m    any
	opts uint8
}

// identityEntry is what is kept for a document value, and what keeps its
// identity valid.
type identityEntry struct {
	keep any
	schema3Entry
	plain bool // the value is a plain schema itself (see rawschema.go): it has no reference
}

// schemaIdentities bounds the identity index: past it, the index starts
// again (the canonical cache still holds every schema).
const schemaIdentities = 16384

func (c *schema3Cache) remember(id identityKey, keep any, e schema3Entry) {
	if id.m == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rememberLocked(id, &identityEntry{keep: keep, schema3Entry: e})
}

func (c *schema3Cache) rememberLocked(id identityKey, e *identityEntry) {
	if id.m == nil {
		return
	}
	if c.byIdentity == nil || len(c.byIdentity) >= schemaIdentities {
		c.byIdentity = map[identityKey]*identityEntry{}
	}
	c.byIdentity[id] = e
	c.own(id.m)
}

// own records the document of a value the index keeps by identity (see
// caches.ForgetOwner). The value was just read: finding its document now
// costs little.
func (c *schema3Cache) own(id any) {
	t, ok := id.(celtree.Tree)
	if !ok {
		return
	}
	var owner any = unowned{}
	if o, ok := t.(celtree.Owned); ok {
		owner = o.Owner()
	}
	if _, ok := c.owners[owner]; !ok {
		if c.owners == nil {
			c.owners = map[any]struct{}{}
		}
		c.owners[owner] = struct{}{}
	}
}

// unowned stands for the document of trees that are not Owned.
type unowned struct{}

// forgetLocked drops what the identity indexes keep for the trees in
// reports.
func (c *schema3Cache) forgetLocked(in func(celtree.Tree) bool) {
	for id := range c.byIdentity {
		if t, ok := id.m.(celtree.Tree); ok && in(t) {
			delete(c.byIdentity, id)
		}
	}
	for id := range c.extRefs {
		if t, ok := id.(celtree.Tree); ok && in(t) {
			delete(c.extRefs, id)
		}
	}
}

// The version-3 schema cache holds at most this many schemas, of at most
// this many bytes of canonical JSON in all: enough that a document's every
// distinct schema is compiled once per run (a 5,000-tool description has
// 10,000), with memory bounded whatever the documents.
const (
	schema3CacheEntries = 65536
	schema3CacheBytes   = 64 << 20
)

// schema3Cache caches the schemas the library's functions compile, by
// options and canonical JSON.
type schema3Cache struct {
	mu         sync.Mutex
	entries    map[string]schema3Entry
	byIdentity map[identityKey]*identityEntry // document values already seen, by identity
	// owners are the documents (Owned.Owner) of the trees byIdentity and
	// extRefs may hold: all of them, and perhaps some they no longer hold.
	owners    map[any]struct{}
	extRefs   map[any]extRefsEntry // schemaExternalRefs of document values, by identity, but for plain schemas
	plainOpts schemaOptions        // the options a plain schema was last remembered under
	bytes     int                  // the keys' total length
	misses    int                  // schemas compiled (for tests)
	// maxEntries, when not 0, replaces schema3CacheEntries (for tests)
	maxEntries int
}

type schema3Entry struct {
	schema *Schema
	err    error
}

// compileSchemaDraft compiles doc with draft as the default dialect,
// refusing reference cycles that never descend into the value. Every schema
// celint compiles, a rule's fragment or a document's, goes through it.
//
// The library validates every schema it compiles against its metaschema,
// which is most of compiling a small schema. A 2020-12 schema that the fast
// path finds valid against the metaschema (see metaValid) is compiled
// without that second validation; any other schema, and any schema whose
// compilation then fails, is compiled as usual, so that what is reported
// is the library's own answer. Such a schema of the plain subset (see
// rawschema.go) is not even compiled until a value is not surely valid.
func compileSchemaDraft(doc any, draft *jsonschema.Draft) (*Schema, error) {
	if librarypaths.On {
		return compileSchemaAt(doc, draft, schemaLocation)
	}
	if raw := rawSchema(doc, draft); raw != nil {
		return raw, nil
	}
	if draft == jsonschema.Draft2020 && schemafast.MetaValid(doc) {
		if s, err := compileSchemaAt(doc, draft, trustedLocation); err == nil {
			return s, nil
		}
	}
	return compileSchemaAt(doc, draft, schemaLocation)
}

// compileSchemaAt compiles doc as the resource at location.
func compileSchemaAt(doc any, draft *jsonschema.Draft, location string) (*Schema, error) {
	c := newSchemaCompiler()
	c.DefaultDraft(draft)
	if err := c.AddResource(location, doc); err != nil {
		return nil, &SchemaCompileError{Msg: oneLine(err.Error())}
	}
	s, err := c.Compile(location)
	if err != nil {
		return nil, compileError(doc, err)
	}
	clampBounds(c, location, doc)
	// Without references the schema is a tree: no cycle, and no more
	// subschemas than the value has nodes.
	refs, nodes := schemaShape(doc)
	if refs {
		if err := refCycle(s); err != nil {
			return nil, err
		}
	}
	if (refs || nodes >= MaxSchemaExpansion) && schemaExpansion(s, MaxSchemaExpansion) > MaxSchemaExpansion {
		return nil, &SchemaCompileError{Msg: fmt.Sprintf("the schema expands to more than %d subschemas once its references are followed; it would take too long to validate", MaxSchemaExpansion)}
	}
	if librarypaths.On {
		return &Schema{s: s}, nil // no fast path: the library validates every value
	}
	return &Schema{s: s, fast: schemafast.New(s)}, nil
}

// boundKeywords are the keywords whose value is a count that the library
// keeps as an int.
var boundKeywords = []string{"minLength", "maxLength", "minItems", "maxItems",
	"minProperties", "maxProperties", "minContains", "maxContains"}

// clampBounds corrects the count bounds of the compiled schemas of doc
// that are beyond the int range: the library converts such a bound to int
// with Int64, which keeps its low bits (1e308 becomes 0, 1e19 a negative
// number). Such a bound is set to math.MaxInt instead, which no length
// reaches: a maximum that nothing exceeds, a minimum that nothing meets,
// as the bound itself. Each object of doc with such a bound is looked up as
// a compiled schema by its location; an object that is data (inside const,
// say) and not a subschema is compiled on its own there, and nothing
// validates with it.
func clampBounds(c *jsonschema.Compiler, location string, doc any) {
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		switch x := v.(type) {
		case map[string]any:
			var beyond []string
			for _, k := range boundKeywords {
				if b, ok := x[k]; ok && boundBeyondInt(b) {
					beyond = append(beyond, k)
				}
			}
			if len(beyond) > 0 {
				frag := (&url.URL{Fragment: ptr}).EscapedFragment()
				if s, err := c.Compile(location + "#" + frag); err == nil {
					for _, k := range beyond {
						clampBound(s, k)
					}
				}
			}
			for k, e := range x {
				walk(e, jsonpointer.Append(ptr, k))
			}
		case []any:
			for i, e := range x {
				walk(e, jsonpointer.Append(ptr, strconv.Itoa(i)))
			}
		}
	}
	walk(doc, "")
}

// boundBeyondInt reports whether v is an integer greater than math.MaxInt,
// read as the library reads a number.
func boundBeyondInt(v any) bool {
	switch x := v.(type) {
	case int, int8, int16, int32, int64, uint8, uint16, uint32:
		return false
	case float64:
		if x < 1<<62 {
			return false
		}
	case uint, uint64, float32, json.Number:
	default:
		return false
	}
	n, ok := new(big.Rat).SetString(fmt.Sprint(v))
	return ok && n.IsInt() && n.Num().Cmp(big.NewInt(math.MaxInt)) > 0
}

// clampBound sets the keyword's field of s to math.MaxInt.
func clampBound(s *jsonschema.Schema, keyword string) {
	p := map[string]**int{
		"minLength": &s.MinLength, "maxLength": &s.MaxLength,
		"minItems": &s.MinItems, "maxItems": &s.MaxItems,
		"minProperties": &s.MinProperties, "maxProperties": &s.MaxProperties,
		"minContains": &s.MinContains, "maxContains": &s.MaxContains,
	}[keyword]
	if p != nil && *p != nil {
		n := math.MaxInt
		*p = &n
	}
}

// schemaShape reports whether doc has a reference keyword anywhere ($ref,
// $dynamicRef, $recursiveRef; also inside data such as const, which only
// makes the answer cautious), and how many values it has.
func schemaShape(doc any) (refs bool, nodes int) {
	var walk func(v any)
	walk = func(v any) {
		nodes++
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				switch k {
				case "$ref", "$dynamicRef", "$recursiveRef":
					refs = true
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(doc)
	return refs, nodes
}

// compileProblem is "does not compile: <why>" for a compile error.
func compileProblem(err error) string {
	return "does not compile: " + strings.TrimPrefix(err.Error(), "invalid schema: ")
}

func (l *library) schemaErrors3Binding(args ...ref.Val) ref.Val {
	if len(args) != 3 {
		return types.NewErr("schemaErrors takes a value, a schema and options")
	}
	o, err := parseSchemaOptions(args[2])
	if err != nil {
		return types.WrapErr(err)
	}
	sch, err := l.compiledSchemaWith(args[1], o)
	if err != nil {
		return types.DefaultTypeAdapter.NativeToValue([]any{map[string]any{
			"pointer": "", "keyword": "", "message": "schema " + compileProblem(err),
		}})
	}
	inst, err := instance(args[0])
	if err != nil {
		return types.NewErr("value cannot be validated: %v", err)
	}
	vs, err := sch.Validate(inst)
	if err != nil {
		return types.WrapErr(err)
	}
	if len(vs) == 0 {
		return l.emptyList // most values are valid: no list made for each
	}
	out := make([]any, 0, len(vs))
	for _, v := range vs {
		out = append(out, map[string]any{"pointer": v.Pointer, "keyword": v.Keyword, "message": v.Message})
	}
	return types.DefaultTypeAdapter.NativeToValue(out)
}

func (l *library) matchesSchema3Binding(args ...ref.Val) ref.Val {
	if len(args) != 3 {
		return types.NewErr("matchesSchema takes a value, a schema and options")
	}
	o, err := parseSchemaOptions(args[2])
	if err != nil {
		return types.WrapErr(err)
	}
	sch, err := l.compiledSchemaWith(args[1], o)
	if err != nil {
		return types.False
	}
	inst, err := instance(args[0])
	if err != nil {
		return types.NewErr("value cannot be validated: %v", err)
	}
	return types.Bool(sch.validate(inst) == nil)
}

func (l *library) schemaError3Binding(schema, opts ref.Val) ref.Val {
	o, err := parseSchemaOptions(opts)
	if err != nil {
		return types.WrapErr(err)
	}
	if _, err := l.compiledSchemaWith(schema, o); err != nil {
		return types.String(compileProblem(err))
	}
	return types.String("")
}

func (l *library) schemaExternalRefsBinding(schema ref.Val) ref.Val {
	// A document's schema map is asked about by several rules: its answer
	// is kept by the map's identity, as compiled schemas are.
	c := &l.caches.schemas
	id, keep := identity(schema)
	if id != nil {
		c.mu.Lock()
		e, ok := c.extRefs[id]
		plain := !ok && c.plainByIdentity(id)
		c.mu.Unlock()
		if ok {
			return e.ptrs
		}
		if plain {
			return noExternalRefs
		}
	}
	doc, err := schemaValue(schema, id)
	if err != nil {
		return types.NewErr("schemaExternalRefs: %v", err)
	}
	ptrs := []string{}
	for _, s := range externalRefSites(copyOf(doc)) {
		ptrs = append(ptrs, jsonpointer.Join(s...))
	}
	out := types.NewStringList(types.DefaultTypeAdapter, ptrs)
	if id != nil {
		c.mu.Lock()
		c.rememberExtRefsLocked(id, keep, out)
		c.mu.Unlock()
	}
	return out
}

// plainByIdentity reports whether the document value of identity id is
// known to be a plain schema (see rawschema.go), which has no reference:
// one remembered under the options of the plain schemas seen last. (A
// schema whose references were taken out before it was compiled may be
// plain once compiled, but not itself.) Keeping that answer in extRefs as
// well took a second entry for each of a description's thousands of
// schemas.
func (c *schema3Cache) plainByIdentity(id any) bool {
	e := c.byIdentity[identityKey{id, c.plainOpts.code()}]
	return e != nil && e.plain
}

// noExternalRefs is schemaExternalRefs' answer for a schema without any.
var noExternalRefs = types.NewStringList(types.DefaultTypeAdapter, []string{})

// rememberExtRefsLocked keeps schemaExternalRefs' answer for the document
// value of identity id (see identity), keeping keep alive.
func (c *schema3Cache) rememberExtRefsLocked(id, keep any, ptrs ref.Val) {
	if c.extRefs == nil || len(c.extRefs) >= schemaIdentities {
		c.extRefs = map[any]extRefsEntry{}
	}
	c.extRefs[id] = extRefsEntry{keep, ptrs}
	c.own(id)
}

// extRefsEntry is schemaExternalRefs' answer for a document map, which it
// keeps alive.
type extRefsEntry struct {
	keep any
	ptrs ref.Val
}

// schemaBase is the base URI of a schema object within a parent whose
// base is base: its $id (or draft-04 id) resolved against base, else base.
func schemaBase(obj map[string]any, base string) string {
	if id, ok := obj["$id"].(string); ok {
		return resolveURL(base, id)
	}
	if id, ok := obj["id"].(string); ok && !strings.HasPrefix(id, "#") {
		return resolveURL(base, id) // draft-04
	}
	return base
}

// walkSubschemas calls fn for every subschema object of v (v included),
// with its pointer and its base URI (after its own $id), following only
// keywords whose values are subschemas.
func walkSubschemas(v any, ptr []string, base string, fn func(obj map[string]any, ptr []string, base string)) {
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	base = schemaBase(obj, base)
	fn(obj, ptr, base)
	at := func(toks ...string) []string { return append(ptr[:len(ptr):len(ptr)], toks...) }
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		x := obj[k]
		switch {
		case schemaMapKeywords[k]:
			m, _ := x.(map[string]any)
			names := make([]string, 0, len(m))
			for n := range m {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				walkSubschemas(m[n], at(k, n), base, fn)
			}
		case schemaArrayKeywords[k]:
			if arr, ok := x.([]any); ok {
				for i, y := range arr {
					walkSubschemas(y, at(k, strconv.Itoa(i)), base, fn)
				}
				continue
			}
			walkSubschemas(x, at(k), base, fn)
		case schemaKeywords[k]:
			walkSubschemas(x, at(k), base, fn)
		}
	}
}

// externalRefSites returns the pointers (as tokens) of the "$ref",
// "$dynamicRef" and "$recursiveRef" values of doc whose target document is
// neither doc itself nor a resource doc declares with $id, in walk order.
func externalRefSites(doc any) [][]string {
	stripFragment := func(u string) string {
		if i := strings.IndexByte(u, '#'); i >= 0 {
			return u[:i]
		}
		return u
	}
	own := map[string]bool{schemaLocation: true}
	walkSubschemas(doc, nil, schemaLocation, func(_ map[string]any, _ []string, base string) {
		own[stripFragment(base)] = true
	})
	var out [][]string
	walkSubschemas(doc, nil, schemaLocation, func(obj map[string]any, ptr []string, base string) {
		for _, k := range []string{"$dynamicRef", "$recursiveRef", "$ref"} {
			s, ok := obj[k].(string)
			if !ok {
				continue
			}
			if !own[stripFragment(resolveURL(base, s))] {
				out = append(out, append(ptr[:len(ptr):len(ptr)], k))
			}
		}
	})
	return out
}

// withoutExternalRefs returns a copy of doc without its external reference
// members, so that each is taken as satisfied.
func withoutExternalRefs(doc any) any {
	sites := externalRefSites(doc)
	if len(sites) == 0 {
		return doc
	}
	cp := deepCopy(doc)
	for _, toks := range sites {
		var cur any = cp
		for _, t := range toks[:len(toks)-1] {
			switch c := cur.(type) {
			case map[string]any:
				cur = c[t]
			case []any:
				i, _ := strconv.Atoi(t)
				cur = c[i]
			}
		}
		if m, ok := cur.(map[string]any); ok {
			delete(m, toks[len(toks)-1])
		}
	}
	return cp
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, x := range t {
			a[i] = deepCopy(x)
		}
		return a
	}
	return v
}

// templateCacheSize bounds the URI templates one library instance keeps.
const templateCacheSize = 256

// templateCache caches parsed URI templates (or their parse errors).
type templateCache struct {
	mu      sync.Mutex
	entries map[string]templateEntry
}

type templateEntry struct {
	t   *uritemplate.Template
	err error
}

// uriTemplate parses (or fetches from the cache) an RFC 6570 template.
func (l *library) uriTemplate(s string) (t *uritemplate.Template, err error) {
	c := &l.caches.templates
	c.mu.Lock()
	e, ok := c.entries[s]
	c.mu.Unlock()
	if ok {
		return e.t, e.err
	}
	func() {
		defer func() { // the parser is third-party: a panic is an invalid template
			if r := recover(); r != nil {
				e = templateEntry{err: fmt.Errorf("invalid URI template: %v", r)}
			}
		}()
		e.t, e.err = uritemplate.New(s)
	}()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]templateEntry{}
	}
	if len(c.entries) >= templateCacheSize {
		for k := range c.entries {
			delete(c.entries, k)
			break
		}
	}
	c.entries[s] = e
	return e.t, e.err
}

func (l *library) isURITemplateBinding(v ref.Val) ref.Val {
	s, ok := v.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	_, err := l.uriTemplate(string(s))
	return types.Bool(err == nil)
}

func (l *library) uriTemplateVariablesBinding(v ref.Val) ref.Val {
	s, ok := v.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	names := []string{}
	if t, err := l.uriTemplate(string(s)); err == nil {
		seen := map[string]bool{}
		for _, n := range t.Varnames() {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	return types.NewStringList(types.DefaultTypeAdapter, names)
}

func (l *library) uriTemplateMatchesBinding(tv, uv ref.Val) ref.Val {
	ts, ok := tv.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(tv)
	}
	us, ok := uv.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(uv)
	}
	t, err := l.uriTemplate(string(ts))
	if err != nil {
		return types.False
	}
	matched := false
	func() {
		defer func() {
			if r := recover(); r != nil {
				matched = false
			}
		}()
		matched = t.Match(string(us)) != nil
	}()
	return types.Bool(matched)
}

// mediaType parses a media type: type/subtype with optional parameters.
func mediaType(s string) (string, bool) {
	mt, _, err := mime.ParseMediaType(s)
	if err != nil {
		return "", false
	}
	typ, sub, ok := strings.Cut(mt, "/")
	if !ok || typ == "" || sub == "" || strings.Contains(sub, "/") {
		return "", false
	}
	return mt, true
}

func isMediaType(s string) bool {
	_, ok := mediaType(s)
	return ok
}

func mediaTypeEssence(s string) string {
	mt, _ := mediaType(s)
	return mt
}

func isCanonicalBase64(s string) bool {
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	return err == nil && base64.StdEncoding.EncodeToString(b) == s
}
