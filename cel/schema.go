package cel

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/cel-go/common/types/ref"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/celint/celint/internal/celtree"
	"github.com/celint/celint/internal/jsonpointer"
	"github.com/celint/celint/internal/schemafast"
)

// schemaLocation is the URL under which a schema value is compiled. Nothing
// is ever fetched from it.
const schemaLocation = "celint:///schema.json"

// trustedLocation is where a schema already found valid against its
// metaschema is compiled: the library does not validate a resource under
// json-schema.org against the metaschema again (see compileSchemaDraft).
// Such a schema refers to nothing outside itself (see metaValid), so its
// location shows only in the locations of its parts.
const trustedLocation = "https://json-schema.org/celint/schema.json"

// refusingLoader is the schema compiler's URL loader: it refuses every URL,
// so a $ref to anything outside the schema value is an error and no file or
// network access ever happens. (The JSON Schema meta-schemas are built into
// the jsonschema package and do not go through the loader.)
type refusingLoader struct{}

func (refusingLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("refusing to load %q: schemas may only refer to themselves (no file or network access)", url)
}

// compiledSchema compiles (or fetches from the cache) the schema value as
// the version-1 and -2 functions do: draft 2020-12 unless it says
// otherwise, its errors prefixed "invalid schema: ". It shares the cache of
// the version-3 functions.
func (l *library) compiledSchema(schema ref.Val) (*jsonschema.Schema, error) {
	sch, err := l.compiledSchemaWith(schema, schemaOptions{dialect: "2020-12"})
	if err != nil {
		return nil, fmt.Errorf("invalid schema: %w", err)
	}
	lib, _, err := sch.compiled()
	if err != nil {
		return nil, fmt.Errorf("invalid schema: %w", err)
	}
	return lib, nil
}

// Schema is a compiled JSON Schema (draft 2020-12 unless it says otherwise)
// whose references never leave it: compiling or validating never reads a
// file or the network. Formats are asserted. It is safe for concurrent use.
type Schema struct {
	// raw, when not nil, is a schema of the plain subset (see
	// rawschema.go), which the library compiles only when it is needed:
	// a native value, or a document's Tree.
	raw      any
	uses     atomic.Int64 // validations of a raw schema, up to rawUses
	once     sync.Once
	s        *jsonschema.Schema
	fast     *schemafast.Schema // nil when the schema uses a keyword it does not know
	err      error              // compiling raw failed, which plainSchema rules out
	messages SchemaMessages

	workOnce sync.Once
	graph    *workGraph // see Work
}

// compiled is the library's compiled schema and its fast path, compiled
// now if the schema was raw.
func (s *Schema) compiled() (*jsonschema.Schema, *schemafast.Schema, error) {
	if s.raw == nil {
		return s.s, s.fast, nil
	}
	s.once.Do(func() {
		c, err := compileSchemaAt(copyOf(s.raw), jsonschema.Draft2020, trustedLocation)
		if err != nil {
			s.err = fmt.Errorf("internal error: a schema of the plain subset does not compile: %v", err)
			return
		}
		s.s, s.fast = c.s, c.fast
	})
	return s.s, s.fast, s.err
}

// library returns the compiled schema the library validates v with, or
// nil when a fast path (the raw schema's, or else the compiled one's) is
// sure that v is valid.
//
// A raw schema is read as it is while it serves few values; one that
// serves many (a rule's schema fragment, asked about every node the rule
// selects) is then compiled once, and its compiled fast path, which reads
// no Go map, serves the rest.
func (s *Schema) library(v any) (*jsonschema.Schema, error) {
	if s.raw != nil {
		if s.uses.Load() < rawUses && s.uses.Add(1) <= rawUses {
			if ok, sure := schemafast.RawValid(s.raw, v); ok && sure {
				return nil, nil
			}
			lib, _, err := s.compiled()
			return lib, err
		}
		lib, fast, err := s.compiled()
		if err != nil {
			return nil, err
		}
		if fast != nil {
			if ok, sure := fast.Valid(v); ok && sure {
				return nil, nil
			}
		}
		return lib, nil
	}
	if s.fast != nil {
		if ok, sure := s.fast.Valid(v); ok && sure {
			return nil, nil
		}
	}
	return s.s, nil
}

// rawUses is how many values a raw schema validates before it is
// compiled (see Schema.library).
const rawUses = 64

// SchemaViolation is one finding of a validation failure.
//
// Findings about object members are placed at the member, as Ajv places
// them: a required member that is missing (required, dependentRequired,
// dependencies), a member that is not allowed (additionalProperties: false,
// or an additionalProperties or unevaluatedProperties schema that is
// false), and a member whose name fails propertyNames are each one
// violation whose Pointer is the object's pointer plus the member's name,
// even when that member does not exist. Every other failure is reported by
// its most specific causes (the leaves of the validation), each at the
// value that fails.
type SchemaViolation struct {
	// Pointer is the JSON Pointer of the failing value (or of the member
	// concerned), relative to the validated value.
	Pointer string
	// Message is the default message, or the SchemaMessages template for
	// Keyword filled in.
	Message string
	// Keyword is the name of the failing keyword: "required",
	// "additionalProperties", "type", "minLength", ...; "false" for a false
	// schema that is not the value of additionalProperties or
	// unevaluatedProperties.
	Keyword string
	// KeywordLocation is the JSON Pointer of the failing keyword within the
	// schema, through any "$ref" (e.g. "/properties/a/$ref/type").
	KeywordLocation string
	// Member is the name of the member a finding about a member is
	// placed at (see above), "" for other findings: Pointer is then the
	// object's pointer plus Member.
	Member string
}

// SchemaMessages maps a keyword name (as in SchemaViolation.Keyword) to the
// template of its message. In a template, {member} is the member name (for
// required, dependentRequired, dependencies, additionalProperties,
// unevaluatedProperties and propertyNames; empty otherwise), {keyword} is
// the keyword name and {message} is the default message; any other text,
// braces included, is kept as it is. An empty template, or a keyword that is
// not in the map, keeps the default message.
type SchemaMessages map[string]string

// SchemaOptions are the options of CompileSchemaWith.
type SchemaOptions struct {
	// Messages replaces the default messages of some keywords.
	Messages SchemaMessages
}

// SchemaCompileError is why a schema does not compile. Pointer, when not
// empty, is the JSON Pointer of the offending value within the schema (a
// keyword's value, a "$ref" that does not resolve, an unknown "$schema").
type SchemaCompileError struct {
	Pointer string
	Msg     string
}

func (e *SchemaCompileError) Error() string {
	if e.Pointer == "" {
		return e.Msg
	}
	return "at " + e.Pointer + ": " + e.Msg
}

// CompileSchema compiles a schema given as a JSON-compatible Go value, with
// the default messages. Its errors are *SchemaCompileError.
func CompileSchema(doc any) (*Schema, error) {
	return CompileSchemaWith(doc, SchemaOptions{})
}

// CompileSchemaWith compiles a schema given as a JSON-compatible Go value,
// with options. Its errors are *SchemaCompileError.
func CompileSchemaWith(doc any, opts SchemaOptions) (*Schema, error) {
	sch, err := compileSchemaDraft(doc, jsonschema.Draft2020)
	if err != nil {
		return nil, err
	}
	var msgs SchemaMessages
	for k, v := range opts.Messages {
		if v == "" {
			continue
		}
		if msgs == nil {
			msgs = SchemaMessages{}
		}
		msgs[k] = v
	}
	sch.messages = msgs
	return sch, nil
}

// validate is the library's validation of v, after the fast path when
// it is sure that v is valid.
func (s *Schema) validate(v any) error {
	lib, err := s.library(v)
	if lib == nil || err != nil {
		return err
	}
	return lib.Validate(celtree.Native(v))
}

// Validate validates a JSON-compatible Go value, or a Tree, and returns its
// violations (see SchemaViolation), sorted by pointer, keyword, message and
// keyword location, without two of the same pointer, keyword and message;
// nil when the value is valid. A Tree is read in place; its native value
// is built only when a fast path is not sure that it is valid.
func (s *Schema) Validate(v any) ([]SchemaViolation, error) {
	lib, err := s.library(v)
	if lib == nil || err != nil {
		return nil, err
	}
	v = celtree.Native(v)
	err = lib.Validate(v)
	if err == nil {
		return nil, nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return nil, fmt.Errorf("schema validation failed: %v", err)
	}
	pl := placer{root: lib, inst: v, msgs: s.messages}
	pl.place(verr, "", "")
	pl.placeNames()
	out := pl.out
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Pointer != b.Pointer {
			return a.Pointer < b.Pointer
		}
		if a.Keyword != b.Keyword {
			return a.Keyword < b.Keyword
		}
		if a.Message != b.Message {
			return a.Message < b.Message
		}
		return a.KeywordLocation < b.KeywordLocation
	})
	uniq := out[:0]
	for i, x := range out {
		if i > 0 {
			p := uniq[len(uniq)-1]
			if p.Pointer == x.Pointer && p.Keyword == x.Keyword && p.Message == x.Message {
				continue
			}
		}
		uniq = append(uniq, x)
	}
	return uniq, nil
}

// placer turns a validation error tree into violations.
type placer struct {
	root  *jsonschema.Schema
	inst  any
	msgs  SchemaMessages
	out   []SchemaViolation
	names []nameFailure
}

// nameFailure is a propertyNames error, placed once they are all known.
type nameFailure struct {
	kwLoc, name, message string
	hint                 []string // the object's instance location as reported; possibly wrong
}

func (pl *placer) add(pointer, keyword, member, msg, kwLoc string) {
	if t, ok := pl.msgs[keyword]; ok {
		msg = strings.NewReplacer("{member}", member, "{keyword}", keyword, "{message}", msg).Replace(t)
	}
	pl.out = append(pl.out, SchemaViolation{Pointer: pointer, Message: msg, Keyword: keyword, KeywordLocation: kwLoc, Member: member})
}

// place walks the validation error tree, computing each node's keyword
// location as jsonschema's DetailedOutput does, and adds the violations of
// its leaves, member findings placed at the member.
func (pl *placer) place(e *jsonschema.ValidationError, schemaURL, kwLoc string) {
	ref, isRef := e.ErrorKind.(*kind.Reference)
	if schemaURL != "" {
		if strings.HasPrefix(e.SchemaURL, schemaURL) {
			kwLoc += e.SchemaURL[len(schemaURL):]
		}
		if isRef {
			kwLoc += jsonPtr(ref.KeywordPath())
		}
	}
	schemaURL = e.SchemaURL
	if isRef {
		schemaURL = ref.URL
	}
	keywordLocation := kwLoc
	switch k := e.ErrorKind.(type) {
	case *kind.Reference:
	case *kind.PropertyNames:
		// The error's schema is the propertyNames subschema: kwLoc already
		// ends with the keyword.
	case *kind.Dependency:
		keywordLocation += jsonPtr([]string{"dependencies", k.Prop}) // not "dependency"
	default:
		keywordLocation += jsonPtr(e.ErrorKind.KeywordPath())
	}
	ptr := jsonpointer.Join(e.InstanceLocation...)
	add := func(pointer, keyword, member, msg string) {
		pl.add(pointer, keyword, member, msg, keywordLocation)
	}
	if k, ok := e.ErrorKind.(*kind.PropertyNames); ok {
		// The causes are about the name, at the name's own (empty)
		// location: they become the reason of one violation at the member.
		var reasons []string
		for _, c := range e.Causes {
			collectReasons(c, &reasons)
		}
		pl.names = append(pl.names, nameFailure{
			kwLoc:   keywordLocation,
			name:    k.Property,
			message: fmt.Sprintf("invalid member name %q: %s", k.Property, strings.Join(uniqueSorted(reasons), "; ")),
			hint:    slices.Clone(e.InstanceLocation),
		})
		return
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			pl.place(c, schemaURL, kwLoc)
		}
		return
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, m := range k.Missing {
			add(jsonpointer.Append(ptr, m), "required", m, fmt.Sprintf("missing required member %q", m))
		}
	case *kind.DependentRequired:
		for _, m := range k.Missing {
			add(jsonpointer.Append(ptr, m), "dependentRequired", m, fmt.Sprintf("missing member %q, required when %q is present", m, k.Prop))
		}
	case *kind.Dependency:
		for _, m := range k.Missing {
			add(jsonpointer.Append(ptr, m), "dependencies", m, fmt.Sprintf("missing member %q, required when %q is present", m, k.Prop))
		}
	case *kind.AdditionalProperties:
		for _, m := range k.Properties {
			add(jsonpointer.Append(ptr, m), "additionalProperties", m, fmt.Sprintf("unknown member %q", m))
		}
	case *kind.FalseSchema:
		if h := holdingKeyword(keywordLocation); (h == "additionalProperties" || h == "unevaluatedProperties") && len(e.InstanceLocation) > 0 {
			m := e.InstanceLocation[len(e.InstanceLocation)-1]
			add(ptr, h, m, fmt.Sprintf("unknown member %q", m))
			return
		}
		member := ""
		if h := holdingKeyword(keywordLocation); (h == "properties" || h == "patternProperties") && len(e.InstanceLocation) > 0 {
			member = e.InstanceLocation[len(e.InstanceLocation)-1] // a member the schema does not allow
		}
		add(ptr, "false", member, "not allowed (the schema is false)")
	default:
		add(ptr, keywordName(e.ErrorKind), "", kindMessage(e.ErrorKind))
	}
}

// placeNames adds the propertyNames violations. jsonschema reports the
// object of a propertyNames error at a location that later validation may
// have overwritten (the error shares its location slice with the
// validator), so the objects are found again: those that the schema
// path of the error reaches in the value and that have the member. A group
// of errors with the same schema path and name is placed at as many such
// objects, in pointer order; the reported location is used only when no
// object is found.
func (pl *placer) placeNames() {
	type group struct {
		kwLoc, name string
		failures    []nameFailure
	}
	var groups []*group
	byKey := map[[2]string]*group{}
	for _, f := range pl.names {
		key := [2]string{f.kwLoc, f.name}
		g := byKey[key]
		if g == nil {
			g = &group{kwLoc: f.kwLoc, name: f.name}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.failures = append(g.failures, f)
	}
	reached := map[string][]object{} // by keyword location
	for _, g := range groups {
		f := g.failures[0]
		all, ok := reached[g.kwLoc]
		if !ok {
			all = objectsAt(pl.root, pl.inst, g.kwLoc)
			reached[g.kwLoc] = all
		}
		var objs []string
		for _, o := range all {
			if _, ok := o.members[g.name]; ok {
				objs = append(objs, o.pointer)
			}
		}
		if len(objs) == 0 {
			for _, f := range g.failures {
				pl.add(jsonpointer.Append(jsonpointer.Join(f.hint...), f.name), "propertyNames", f.name, f.message, f.kwLoc)
			}
			continue
		}
		if len(objs) > len(g.failures) {
			objs = objs[:len(g.failures)]
		}
		for _, o := range objs {
			pl.add(jsonpointer.Append(o, g.name), "propertyNames", g.name, f.message, g.kwLoc)
		}
	}
}

// object is an object in a value, and its pointer.
type object struct {
	pointer string
	members map[string]any
}

// objectsAt returns, in pointer order, the objects in inst that the
// subschema at the keyword location kwLoc (ending with "/propertyNames") of
// root applies to; nil when kwLoc cannot be followed. Where the schema path
// goes through unevaluatedProperties or unevaluatedItems, every member or
// element is taken to be unevaluated.
func objectsAt(root *jsonschema.Schema, inst any, kwLoc string) []object {
	toks, err := jsonpointer.ParseFragment("#" + kwLoc)
	if err != nil || len(toks) == 0 || toks[len(toks)-1] != "propertyNames" {
		return nil
	}
	toks = toks[:len(toks)-1]
	type at struct {
		v    any
		path []string
	}
	sch := root
	cur := []at{{inst, nil}}
	child := func(a at, tok string, v any) at {
		return at{v, append(a.path[:len(a.path):len(a.path)], tok)}
	}
	// The members that keep accepts, the elements from index from on, the
	// element at index n, of each value reached so far.
	members := func(keep func(string) bool) []at {
		var next []at
		for _, a := range cur {
			if m, ok := a.v.(map[string]any); ok {
				for k, v := range m {
					if keep(k) {
						next = append(next, child(a, k, v))
					}
				}
			}
		}
		return next
	}
	elements := func(from int) []at {
		var next []at
		for _, a := range cur {
			if arr, ok := a.v.([]any); ok {
				for i := from; i < len(arr); i++ {
					next = append(next, child(a, strconv.Itoa(i), arr[i]))
				}
			}
		}
		return next
	}
	elementAt := func(n int) []at {
		var next []at
		for _, a := range cur {
			if arr, ok := a.v.([]any); ok && n < len(arr) {
				next = append(next, child(a, strconv.Itoa(n), arr[n]))
			}
		}
		return next
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		arg := ""
		if i+1 < len(toks) {
			arg = toks[i+1]
		}
		nth := func(list []*jsonschema.Schema) *jsonschema.Schema {
			n, ok := jsonpointer.ArrayIndex(arg)
			if !ok || n >= len(list) {
				return nil
			}
			i++
			return list[n]
		}
		var next *jsonschema.Schema
		switch t {
		case "$ref":
			next = sch.Ref
		case "$recursiveRef":
			next = sch.RecursiveRef
		case "$dynamicRef":
			if sch.DynamicRef != nil {
				next = sch.DynamicRef.Ref
			}
		case "allOf":
			next = nth(sch.AllOf)
		case "anyOf":
			next = nth(sch.AnyOf)
		case "oneOf":
			next = nth(sch.OneOf)
		case "not":
			next = sch.Not
		case "if":
			next = sch.If
		case "then":
			next = sch.Then
		case "else":
			next = sch.Else
		case "properties":
			next = sch.Properties[arg]
			i++
			cur = members(func(k string) bool { return k == arg })
		case "patternProperties":
			i++
			for re, s := range sch.PatternProperties {
				if re.String() == arg {
					next = s
					cur = members(re.MatchString)
					break
				}
			}
		case "additionalProperties":
			next, _ = sch.AdditionalProperties.(*jsonschema.Schema)
			props, pats := sch.Properties, sch.PatternProperties
			cur = members(func(k string) bool {
				if _, ok := props[k]; ok {
					return false
				}
				for re := range pats {
					if re.MatchString(k) {
						return false
					}
				}
				return true
			})
		case "unevaluatedProperties":
			next = sch.UnevaluatedProperties
			cur = members(func(string) bool { return true })
		case "dependentSchemas", "dependencies":
			if t == "dependentSchemas" {
				next = sch.DependentSchemas[arg]
			} else {
				next, _ = sch.Dependencies[arg].(*jsonschema.Schema)
			}
			i++
			var have []at // the objects that have the member
			for _, a := range cur {
				if m, ok := a.v.(map[string]any); ok {
					if _, ok := m[arg]; ok {
						have = append(have, a)
					}
				}
			}
			cur = have
		case "prefixItems":
			if next = nth(sch.PrefixItems); next != nil {
				n, _ := jsonpointer.ArrayIndex(arg)
				cur = elementAt(n)
			}
		case "items":
			switch items := sch.Items.(type) {
			case []*jsonschema.Schema:
				if next = nth(items); next != nil {
					n, _ := jsonpointer.ArrayIndex(arg)
					cur = elementAt(n)
				}
			case *jsonschema.Schema:
				next = items
				cur = elements(0)
			default:
				next = sch.Items2020
				cur = elements(len(sch.PrefixItems))
			}
		case "additionalItems":
			next, _ = sch.AdditionalItems.(*jsonschema.Schema)
			items, _ := sch.Items.([]*jsonschema.Schema)
			cur = elements(len(items))
		case "unevaluatedItems":
			next = sch.UnevaluatedItems
			cur = elements(0)
		case "contains":
			next = sch.Contains
			cur = elements(0)
		}
		if next == nil {
			return nil
		}
		sch = next
	}
	if sch.PropertyNames == nil {
		return nil
	}
	var out []object
	for _, a := range cur {
		if m, ok := a.v.(map[string]any); ok {
			out = append(out, object{jsonpointer.Join(a.path...), m})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pointer < out[j].pointer })
	return slices.CompactFunc(out, func(a, b object) bool { return a.pointer == b.pointer })
}

// collectReasons appends the messages of the leaves under e.
func collectReasons(e *jsonschema.ValidationError, out *[]string) {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collectReasons(c, out)
		}
		return
	}
	*out = append(*out, nameReason(e.ErrorKind))
}

// nameReason says why a member name fails propertyNames.
func nameReason(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Pattern:
		return "does not match pattern '" + k.Want + "'"
	case *kind.MinLength:
		return fmt.Sprintf("shorter than %d characters", k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("longer than %d characters", k.Want)
	case *kind.Enum, *kind.Const:
		return "not one of the allowed names"
	case *kind.Format:
		return "not a valid " + k.Want
	case *kind.FalseSchema:
		return "no member is allowed"
	}
	return kindMessage(k)
}

// uniqueSorted sorts ss in place and drops repeats.
func uniqueSorted(ss []string) []string {
	sort.Strings(ss)
	return slices.Compact(ss)
}

// keywordName is the name of the keyword that fails with k.
func keywordName(k jsonschema.ErrorKind) string {
	switch k.(type) {
	case *kind.Dependency:
		return "dependencies"
	case *kind.FalseSchema:
		return "false"
	case *kind.RefCycle:
		return "$ref"
	case *kind.InvalidJsonValue:
		return "type"
	}
	if p := k.KeywordPath(); len(p) > 0 {
		return p[0]
	}
	return ""
}

// kindMessage is jsonschema's English message for k.
func kindMessage(k jsonschema.ErrorKind) string {
	u := (&jsonschema.ValidationError{ErrorKind: k}).DetailedOutput()
	if u.Error == nil {
		return "invalid"
	}
	return u.Error.String()
}

func jsonPtr(tokens []string) string { return jsonpointer.Join(tokens...) }

// Keywords whose value is a map of names to subschemas, or an array of
// subschemas; every other keyword in a keyword location is followed by a
// subschema's keywords, if by anything.
var (
	schemaMapKeywords = map[string]bool{
		"properties": true, "patternProperties": true, "$defs": true, "definitions": true,
		"dependentSchemas": true, "dependencies": true,
	}
	schemaArrayKeywords = map[string]bool{
		"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true,
		"items": true, "additionalItems": true, // the array form of older drafts
	}
)

// holdingKeyword returns the keyword whose value is the subschema at the end
// of a keyword location, looking through references: "additionalProperties"
// for "/additionalProperties" and "/additionalProperties/$ref",
// "properties" for "/properties/a".
func holdingKeyword(kwLoc string) string {
	toks, err := jsonpointer.ParseFragment("#" + kwLoc)
	if err != nil {
		return ""
	}
	var last string
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t {
		case "$ref", "$dynamicRef", "$recursiveRef":
		default:
			last = t
		}
		switch {
		case schemaMapKeywords[t]:
			i++ // a name
		case schemaArrayKeywords[t]:
			if i+1 < len(toks) {
				if _, ok := jsonpointer.ArrayIndex(toks[i+1]); ok {
					i++
				}
			}
		}
	}
	return last
}

// compileRegexp compiles a pattern with Go's regexp: the schema
// compiler's regexp engine, and matches() with a constant pattern.
func compileRegexp(pattern string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	return re, nil
}

// newSchemaCompiler returns a compiler for draft 2020-12 by default, with
// formats asserted (uri by RFC 3986's grammar), that loads nothing.
func newSchemaCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.RegisterFormat(uriFormat)
	c.UseLoader(refusingLoader{})
	c.UseRegexpEngine(compileRegexp)
	return c
}

// schemaProblem reports why a schema value does not compile, as
// "does not compile: <reason>", or "" when it compiles; it shares the
// compiled-schema cache.
func (l *library) schemaProblem(schema ref.Val) string {
	_, err := l.compiledSchema(schema)
	if err == nil {
		return ""
	}
	var ce *SchemaCompileError
	if errors.As(err, &ce) {
		return "does not compile: " + ce.Error()
	}
	return "does not compile: " + strings.TrimPrefix(err.Error(), "invalid schema: ")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// validate validates value against schema and returns the most specific
// causes of failure (nil when value is valid).
func (l *library) validate(value, schema ref.Val) ([]any, error) {
	sch, err := l.compiledSchema(schema)
	if err != nil {
		return nil, err
	}
	inst, err := ToNative(value)
	if err != nil {
		return nil, fmt.Errorf("value cannot be validated: %v", err)
	}
	leaves, err := validateWith(sch, inst)
	if err != nil {
		return nil, err
	}
	out := make([]any, 0, len(leaves))
	for _, lf := range leaves {
		out = append(out, map[string]any{
			"pointer": lf.pointer,
			"message": lf.message,
			"keyword": lf.keyword,
		})
	}
	return out, nil
}

// validateWith validates inst and returns the leaves of the failure, sorted.
func validateWith(sch *jsonschema.Schema, inst any) ([]schemaIssue, error) {
	err := sch.Validate(inst)
	if err == nil {
		return nil, nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return nil, fmt.Errorf("schema validation failed: %v", err)
	}
	var leaves []schemaIssue
	collectLeaves(*verr.DetailedOutput(), &leaves)
	sort.SliceStable(leaves, func(i, j int) bool {
		a, b := leaves[i], leaves[j]
		if a.pointer != b.pointer {
			return a.pointer < b.pointer
		}
		if a.keyword != b.keyword {
			return a.keyword < b.keyword
		}
		return a.message < b.message
	})
	return leaves, nil
}

type schemaIssue struct{ pointer, message, keyword string }

// collectLeaves flattens the output tree to its leaves, the most specific
// causes.
func collectLeaves(u jsonschema.OutputUnit, out *[]schemaIssue) {
	if len(u.Errors) == 0 {
		msg := "invalid"
		if u.Error != nil {
			msg = u.Error.String()
		}
		*out = append(*out, schemaIssue{pointer: u.InstanceLocation, message: msg, keyword: u.KeywordLocation})
		return
	}
	for _, c := range u.Errors {
		collectLeaves(c, out)
	}
}

// compileError describes why doc does not compile, at the offending value
// when there is one.
func compileError(doc any, err error) *SchemaCompileError {
	var (
		sve      *jsonschema.SchemaValidationError
		verr     *jsonschema.ValidationError
		notFound *jsonschema.JSONPointerNotFoundError
		badPtr   *jsonschema.InvalidJsonPointerError
		noAnchor *jsonschema.AnchorNotFoundError
		load     *jsonschema.LoadURLError
		regex    *jsonschema.InvalidRegexError
		dupID    *jsonschema.DuplicateIDError
		dupAnch  *jsonschema.DuplicateAnchorError
		parseID  *jsonschema.ParseIDError
		parseAn  *jsonschema.ParseAnchorError
	)
	switch {
	case errors.As(err, &sve) && errors.As(sve.Err, &verr):
		return metaSchemaError(sve.URL, verr)
	case errors.As(err, &notFound):
		return refError(doc, notFound.URL, "points to nothing in the schema")
	case errors.As(err, &badPtr):
		return refError(doc, badPtr.URL, "is not a valid JSON Pointer fragment")
	case errors.As(err, &noAnchor):
		return refError(doc, noAnchor.Reference, "names no anchor in the schema")
	case errors.As(err, &load):
		site, ok := findSite(doc, func(s refSite) bool { return stripFragment(s.resolved) == stripFragment(load.URL) })
		if ok && site.key == "$schema" {
			return &SchemaCompileError{Pointer: site.pointer, Msg: fmt.Sprintf(
				"unknown $schema %q: use a JSON Schema draft (2020-12, 2019-09, 7, 6 or 4); nothing is fetched", site.value)}
		}
		if ok {
			return &SchemaCompileError{Pointer: site.pointer, Msg: fmt.Sprintf(
				"%s %q leaves the schema: references must point inside it; nothing is fetched", site.key, site.value)}
		}
		return &SchemaCompileError{Msg: fmt.Sprintf("cannot load %q: references must point inside the schema; nothing is fetched", load.URL)}
	case errors.As(err, &regex):
		return &SchemaCompileError{Pointer: fragmentPointer(regex.URL), Msg: fmt.Sprintf("invalid regular expression %q: %v", regex.Regex, regex.Err)}
	case errors.As(err, &dupID):
		first, second := ordered(dupID.Ptr1, dupID.Ptr2)
		return &SchemaCompileError{Pointer: second, Msg: fmt.Sprintf("duplicate $id %q (also at %s)", dupID.ID, orRoot(first))}
	case errors.As(err, &dupAnch):
		first, second := ordered(dupAnch.Ptr1, dupAnch.Ptr2)
		return &SchemaCompileError{Pointer: second, Msg: fmt.Sprintf("duplicate anchor %q (also at %s)", dupAnch.Anchor, orRoot(first))}
	case errors.As(err, &parseID):
		return &SchemaCompileError{Pointer: jsonpointer.Append(fragmentPointer(parseID.URL), "$id"), Msg: "invalid $id"}
	case errors.As(err, &parseAn):
		return &SchemaCompileError{Pointer: fragmentPointer(parseAn.URL), Msg: "invalid anchor"}
	}
	msg := oneLine(strings.ReplaceAll(err.Error(), schemaLocation, "the schema"))
	return &SchemaCompileError{Msg: msg}
}

// ordered returns a and b in string order, so that which of two duplicates
// the compiler met first does not show.
func ordered(a, b string) (string, string) {
	if b < a {
		return b, a
	}
	return a, b
}

func orRoot(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return ptr
}

// fragmentPointer returns the JSON Pointer that the fragment of a URL under
// schemaLocation names; "" for any other URL.
func fragmentPointer(u string) string {
	frag, ok := strings.CutPrefix(u, schemaLocation+"#")
	if !ok {
		return ""
	}
	toks, err := jsonpointer.ParseFragment("#" + frag)
	if err != nil {
		return ""
	}
	return jsonpointer.Join(toks...)
}

func stripFragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}

// refError is the error of a reference to target that does not resolve.
func refError(doc any, target, why string) *SchemaCompileError {
	frag := target
	if i := strings.IndexByte(target, '#'); i >= 0 {
		frag = target[i:]
	}
	site, ok := findSite(doc, func(s refSite) bool {
		return s.key != "$schema" && (s.resolved == target || strings.HasPrefix(s.value, "#") && s.value == frag)
	})
	if !ok {
		return &SchemaCompileError{Msg: fmt.Sprintf("reference %q %s", frag, why)}
	}
	return &SchemaCompileError{Pointer: site.pointer, Msg: fmt.Sprintf("%s %q %s", site.key, site.value, why)}
}

// refSite is a "$ref", "$dynamicRef", "$recursiveRef" or "$schema" in a
// schema document.
type refSite struct {
	pointer  string // of the value
	key      string
	value    string
	resolved string // the value resolved against the base URI
}

var (
	refKeys = []string{"$dynamicRef", "$recursiveRef", "$ref", "$schema"}
	// schemaKeywords have one subschema as their value.
	schemaKeywords = map[string]bool{
		"additionalProperties": true, "unevaluatedProperties": true, "propertyNames": true,
		"items": true, "additionalItems": true, "unevaluatedItems": true, "contains": true,
		"not": true, "if": true, "then": true, "else": true, "contentSchema": true,
	}
)

// findSite returns the first reference site of doc, in a walk of its
// subschemas in key order, that match accepts; failing that, the first of
// anywhere in doc.
func findSite(doc any, match func(refSite) bool) (refSite, bool) {
	var found refSite
	ok := false
	visit := func(s refSite) bool {
		if !ok && match(s) {
			found, ok = s, true
		}
		return ok
	}
	walkSubschemas(doc, nil, schemaLocation, func(obj map[string]any, ptr []string, base string) {
		if !ok {
			visitSites(obj, ptr, base, visit)
		}
	})
	if !ok {
		walkValues(doc, nil, schemaLocation, visit)
	}
	return found, ok
}

// visitSites visits the reference sites of one schema object at ptr, whose
// base URI is base; it reports true when visit did.
func visitSites(obj map[string]any, ptr []string, base string, visit func(refSite) bool) bool {
	for _, k := range refKeys {
		if s, ok := obj[k].(string); ok {
			r := s
			if k != "$schema" {
				r = resolveURL(base, s)
			}
			if visit(refSite{pointer: jsonpointer.Join(append(ptr[:len(ptr):len(ptr)], k)...), key: k, value: s, resolved: r}) {
				return true
			}
		}
	}
	return false
}

// walkValues visits the reference sites of every object anywhere in v, in
// key order, whether or not it stands where a subschema does; it reports
// true when visit did.
func walkValues(v any, ptr []string, base string, visit func(refSite) bool) bool {
	at := func(tok string) []string { return append(ptr[:len(ptr):len(ptr)], tok) }
	switch v := v.(type) {
	case []any:
		for i, x := range v {
			if walkValues(x, at(strconv.Itoa(i)), base, visit) {
				return true
			}
		}
	case map[string]any:
		base = schemaBase(v, base)
		if visitSites(v, ptr, base, visit) {
			return true
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if walkValues(v[k], at(k), base, visit) {
				return true
			}
		}
	}
	return false
}

// resolveURL resolves ref against base; ref itself when either does not
// parse.
func resolveURL(base, ref string) string {
	b, err := url.Parse(base)
	if err != nil {
		return ref
	}
	r, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	return b.ResolveReference(r).String()
}

// metaSchemaError describes a schema that breaks its meta-schema by its most
// specific problem: the deepest failing value first in pointer order, and
// the count of the other values that fail.
func metaSchemaError(resourceURL string, verr *jsonschema.ValidationError) *SchemaCompileError {
	prefix := fragmentPointer(resourceURL)
	type leaf struct {
		pointer string
		kind    jsonschema.ErrorKind
	}
	var leaves []leaf
	var collect func(e *jsonschema.ValidationError)
	collect = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, leaf{prefix + jsonpointer.Join(e.InstanceLocation...), e.ErrorKind})
			return
		}
		for _, c := range e.Causes {
			collect(c)
		}
	}
	collect(verr)
	// The most specific pointers: those that no other leaf lies under.
	var ptrs []string
	seen := map[string]bool{}
	for _, lf := range leaves {
		if !seen[lf.pointer] {
			seen[lf.pointer] = true
			ptrs = append(ptrs, lf.pointer)
		}
	}
	var specific []string
	for _, p := range ptrs {
		under := false
		for _, q := range ptrs {
			if strings.HasPrefix(q, p+"/") {
				under = true
				break
			}
		}
		if !under {
			specific = append(specific, p)
		}
	}
	if len(specific) == 0 {
		return &SchemaCompileError{Msg: "the schema does not conform to its meta-schema"}
	}
	sort.Strings(specific)
	at := specific[0]
	var kinds []jsonschema.ErrorKind
	nonType := false
	for _, lf := range leaves {
		if lf.pointer == at {
			kinds = append(kinds, lf.kind)
			if _, ok := lf.kind.(*kind.Type); !ok {
				nonType = true
			}
		}
	}
	var reasons []string
	for _, k := range kinds {
		if _, ok := k.(*kind.Type); ok && nonType {
			continue // an alternative; the other reason says more
		}
		reasons = append(reasons, metaReason(k))
	}
	msg := subjectOf(at) + " " + strings.Join(uniqueSorted(reasons), "; ")
	if n := len(specific) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more %s)", n, plural(n, "problem", "problems"))
	}
	return &SchemaCompileError{Pointer: at, Msg: msg}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// subjectOf names the value at ptr in a message: its member name, or its
// index, or "the schema".
func subjectOf(ptr string) string {
	toks, err := jsonpointer.Parse(ptr)
	if err != nil || len(toks) == 0 {
		return "the schema"
	}
	last := toks[len(toks)-1]
	if len(toks) > 1 {
		if _, ok := jsonpointer.ArrayIndex(last); ok {
			return fmt.Sprintf("%q item %s", toks[len(toks)-2], last)
		}
	}
	return fmt.Sprintf("%q", last)
}

// metaReason says, after the value's name, why the meta-schema rejects it.
func metaReason(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		return fmt.Sprintf("must be of type %s (got %s)", strings.Join(k.Want, " or "), k.Got)
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = jsonText(w)
		}
		if len(want) == 1 {
			return "must be " + want[0]
		}
		return "must be one of " + strings.Join(want, ", ")
	case *kind.Const:
		return "must be " + jsonText(k.Want)
	case *kind.Minimum:
		return fmt.Sprintf("must be >= %s (got %s)", k.Want.RatString(), k.Got.RatString())
	case *kind.Maximum:
		return fmt.Sprintf("must be <= %s (got %s)", k.Want.RatString(), k.Got.RatString())
	case *kind.ExclusiveMinimum:
		return fmt.Sprintf("must be > %s (got %s)", k.Want.RatString(), k.Got.RatString())
	case *kind.ExclusiveMaximum:
		return fmt.Sprintf("must be < %s (got %s)", k.Want.RatString(), k.Got.RatString())
	case *kind.MinItems:
		return fmt.Sprintf("must have at least %d items (got %d)", k.Want, k.Got)
	case *kind.MinLength:
		return fmt.Sprintf("must be at least %d characters long (got %d)", k.Want, k.Got)
	case *kind.UniqueItems:
		return fmt.Sprintf("must not repeat an item (items %d and %d are equal)", k.Duplicates[0], k.Duplicates[1])
	case *kind.Format:
		return fmt.Sprintf("must be a valid %s: %v", k.Want, k.Err)
	case *kind.FalseSchema:
		return "is not allowed"
	}
	return "is invalid: " + kindMessage(k)
}

// jsonText is v as JSON, or as Go prints it when it has no JSON form.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// inPlaceEdge is a keyword whose subschema applies to the same value as the
// schema holding it: following only such keywords never descends into the
// value, so a cycle of them never ends.
type inPlaceEdge struct {
	keyword string // as it appears in the schema: "$ref", "allOf/0", ...
	ref     bool   // a reference ($ref, $recursiveRef, $dynamicRef)
	to      *jsonschema.Schema
}

// inPlaceEdges returns the in-place subschemas of s in a fixed order:
// references first, then the applicators, map members by name.
func inPlaceEdges(s *jsonschema.Schema) []inPlaceEdge {
	var out []inPlaceEdge
	add := func(kw string, ref bool, to *jsonschema.Schema) {
		if to != nil {
			out = append(out, inPlaceEdge{kw, ref, to})
		}
	}
	add("$ref", true, s.Ref)
	add("$recursiveRef", true, s.RecursiveRef)
	if s.DynamicRef != nil {
		add("$dynamicRef", true, s.DynamicRef.Ref) // its static target
	}
	for _, l := range []struct {
		kw   string
		list []*jsonschema.Schema
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}} {
		for i, x := range l.list {
			add(l.kw+"/"+strconv.Itoa(i), false, x)
		}
	}
	add("not", false, s.Not)
	add("if", false, s.If)
	add("then", false, s.Then)
	add("else", false, s.Else)
	for _, name := range slices.Sorted(maps.Keys(s.DependentSchemas)) {
		add("dependentSchemas/"+jsonpointer.Escape(name), false, s.DependentSchemas[name])
	}
	for _, name := range slices.Sorted(maps.Keys(s.Dependencies)) {
		if d, ok := s.Dependencies[name].(*jsonschema.Schema); ok {
			add("dependencies/"+jsonpointer.Escape(name), false, d)
		}
	}
	return out
}

// valueSubschemas returns every subschema of s that applies to a part of the
// value (a member, an item, a property name, decoded content).
func valueSubschemas(s *jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	add := func(x any) {
		if sch, ok := x.(*jsonschema.Schema); ok && sch != nil {
			out = append(out, sch)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		add(s.Properties[name])
	}
	pats := make([]*jsonschema.Schema, 0, len(s.PatternProperties))
	for _, x := range s.PatternProperties {
		pats = append(pats, x)
	}
	slices.SortFunc(pats, func(a, b *jsonschema.Schema) int { return strings.Compare(a.Location, b.Location) })
	for _, x := range pats {
		add(x)
	}
	add(s.AdditionalProperties)
	add(s.PropertyNames)
	add(s.UnevaluatedProperties)
	add(s.Contains)
	if list, ok := s.Items.([]*jsonschema.Schema); ok {
		for _, x := range list {
			add(x)
		}
	} else {
		add(s.Items)
	}
	add(s.AdditionalItems)
	for _, x := range s.PrefixItems {
		add(x)
	}
	add(s.Items2020)
	add(s.UnevaluatedItems)
	add(s.ContentSchema)
	return out
}

// cycleFrame is a schema on the path of refCycle's walk, with its
// in-place edges and the index of the next one to follow.
type cycleFrame struct {
	s     *jsonschema.Schema
	edges []inPlaceEdge
	next  int
}

// refCycle refuses a schema in which references lead back to a schema
// without descending into the value, such as
// {"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/a"}}}: validating
// with it would never end (JSON Schema 2020-12 leaves its behaviour
// undefined), and the validator would report it on every value. The error
// is at a reference of the cycle. Only the static target of a $dynamicRef
// is followed; a cycle that only dynamic resolution makes is still stopped
// by the validator. Each schema is visited once.
func refCycle(root *jsonschema.Schema) *SchemaCompileError {
	const (
		unseen = iota
		onPath
		done
	)
	state := map[*jsonschema.Schema]int{}
	// walk explores the in-place graph from s without recursion, so that a
	// long chain of references costs no stack.
	walk := func(s *jsonschema.Schema) *SchemaCompileError {
		state[s] = onPath
		path := []*cycleFrame{{s: s, edges: inPlaceEdges(s)}}
		for len(path) > 0 {
			top := path[len(path)-1]
			if top.next == len(top.edges) {
				state[top.s] = done
				path = path[:len(path)-1]
				continue
			}
			e := top.edges[top.next]
			top.next++
			switch state[e.to] {
			case unseen:
				state[e.to] = onPath
				path = append(path, &cycleFrame{s: e.to, edges: inPlaceEdges(e.to)})
			case onPath:
				return cycleError(path, e.to)
			}
		}
		return nil
	}
	// Every schema reachable from the root starts a walk: a cycle may hang
	// below a member.
	seen := map[*jsonschema.Schema]bool{root: true}
	queue := []*jsonschema.Schema{root}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if state[s] == unseen {
			if err := walk(s); err != nil {
				return err
			}
		}
		next := valueSubschemas(s)
		for _, e := range inPlaceEdges(s) {
			next = append(next, e.to)
		}
		for _, x := range next {
			if !seen[x] {
				seen[x] = true
				queue = append(queue, x)
			}
		}
	}
	return nil
}

// cycleError describes the cycle that the path makes from schema back to
// itself, each frame at the edge it follows. It is placed at the reference
// of the cycle that comes first in the schema document, so that where the
// walk began does not show.
func cycleError(path []*cycleFrame, back *jsonschema.Schema) *SchemaCompileError {
	for len(path) > 0 && path[0].s != back {
		path = path[1:]
	}
	var locs []string
	site := ""
	for _, f := range path {
		loc := schemaPointer(f.s.Location)
		locs = append(locs, orRoot(loc))
		if e := f.edges[f.next-1]; e.ref && strings.HasPrefix(loc+"/", "/") {
			if p := loc + "/" + e.keyword; site == "" || p < site {
				site = p
			}
		}
	}
	locs = append(locs, locs[0])
	return &SchemaCompileError{Pointer: site, Msg: fmt.Sprintf(
		"reference cycle that never descends into the value (%s): validation would never end", strings.Join(locs, " → "))}
}

// schemaPointer returns the JSON Pointer of a compiled schema's location in
// the schema value ("" for the root), or its URL when it is in a resource
// of its own.
func schemaPointer(loc string) string {
	frag, ok := strings.CutPrefix(loc, schemaLocation+"#")
	if !ok {
		frag, ok = strings.CutPrefix(loc, trustedLocation+"#")
	}
	if ok {
		if toks, err := jsonpointer.ParseFragment("#" + frag); err == nil {
			return jsonpointer.Join(toks...)
		}
	}
	return loc
}

// MaxSchemaExpansion bounds how large a schema may grow once its
// references are followed: the number of subschemas on every path from
// its root, a subschema reached along several paths counting once per
// path (a reference back to a schema on the path counts once). Validation
// does about that much work per value, so a schema whose $defs refer twice
// to the next level, forty levels deep, would validate for weeks; it is
// refused when it compiles instead.
const MaxSchemaExpansion = 1_000_000

// schemaExpansion is a schema's expansion, as MaxSchemaExpansion defines
// it, counting no further than past limit.
func schemaExpansion(root *jsonschema.Schema, limit uint64) uint64 {
	memo := map[*jsonschema.Schema]uint64{}
	onPath := map[*jsonschema.Schema]bool{}
	var paths func(s *jsonschema.Schema) uint64
	paths = func(s *jsonschema.Schema) uint64 {
		if n, ok := memo[s]; ok {
			return n
		}
		if onPath[s] {
			return 1
		}
		onPath[s] = true
		n := uint64(1)
		next := valueSubschemas(s)
		for _, e := range inPlaceEdges(s) {
			next = append(next, e.to)
		}
		for _, c := range next {
			if n > limit {
				break
			}
			n += paths(c)
		}
		delete(onPath, s)
		memo[s] = n
		return n
	}
	return paths(root)
}
