package rulesets_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
)

// ruleSchemaFile is the JSON Schema of rule files and ruleset headers that
// editors use.
const ruleSchemaFile = "../docs/celint-rules.schema.json"

// compileRuleSchema compiles the rule-file schema under its $id.
func compileRuleSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(ruleSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", ruleSchemaFile, err)
	}
	id, _ := doc.(map[string]any)["$id"].(string)
	if id == "" {
		t.Fatalf("%s has no $id", ruleSchemaFile)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatalf("%s does not compile: %v", ruleSchemaFile, err)
	}
	return sch
}

// ruleSource is one rule file or ruleset header of a rule tree.
type ruleSource struct {
	name     string // the file, as the tree's prefix and its path
	data     []byte
	header   bool
	scopeKey string // for a rule file: the scope member of the ruleset that reads it
}

// ruleTrees are the trees of rulesets whose files the schema must accept:
// the embedded rulesets, and the test rulesets the engine loads.
func ruleTrees() []struct {
	prefix string
	fsys   fs.FS
} {
	return []struct {
		prefix string
		fsys   fs.FS
	}{
		{"rulesets", rulesets.Files()},
		{"engine/testdata/rulesets", os.DirFS("../engine/testdata/rulesets")},
	}
}

// ruleSources returns every header of fsys and every rule file of the
// folders a header reads (its own and those it includes), the rule file
// once per scope member it is read with. Every YAML file outside a
// fixtures folder must be one of them.
func ruleSources(t *testing.T, prefix string, fsys fs.FS) []ruleSource {
	t.Helper()
	var yamlFiles, headers []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".yml") || slices.Contains(strings.Split(p, "/"), "fixtures") {
			return nil
		}
		yamlFiles = append(yamlFiles, p)
		if path.Base(p) == engine.HeaderFile {
			headers = append(headers, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	specs := map[string]*loader.RulesetSpec{} // header -> spec
	byID := map[string]string{}               // name@tag -> header
	var out []ruleSource
	for _, h := range headers {
		data, err := fs.ReadFile(fsys, h)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := loader.ReadRulesetSpec(prefix+"/"+h, data)
		if err != nil {
			t.Fatalf("%v", err)
		}
		specs[h], byID[spec.Name+"@"+spec.Tag] = spec, h
		out = append(out, ruleSource{name: prefix + "/" + h, data: data, header: true})
	}
	var scopeOf func(h string, depth int) string
	scopeOf = func(h string, depth int) string {
		spec := specs[h]
		if spec.Context.Scope != nil {
			return spec.Context.Scope.Member
		}
		if base, ok := byID[spec.Extends.Value]; ok && depth < len(headers) {
			return scopeOf(base, depth+1)
		}
		return ""
	}
	seen := map[string]bool{}
	covered := map[string]bool{}
	for _, h := range headers {
		covered[h] = true
		dir := path.Dir(h)
		folders := []string{dir}
		for _, inc := range specs[h].Include {
			folders = append(folders, path.Join(dir, inc.Value))
		}
		key := scopeOf(h, 0)
		for _, folder := range folders {
			files, err := engine.ReadRuleFiles(fsys, folder, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				covered[f.Name] = true
				if seen[f.Name+"\x00"+key] {
					continue
				}
				seen[f.Name+"\x00"+key] = true
				out = append(out, ruleSource{name: prefix + "/" + f.Name, data: f.Data, scopeKey: key})
			}
		}
	}
	for _, f := range yamlFiles {
		if !covered[f] {
			t.Errorf("%s/%s: a YAML file that is neither a ruleset header nor a rule file of one", prefix, f)
		}
	}
	return out
}

// readSource reads a rule file or header as the loader does.
func (s ruleSource) read(data []byte) error {
	if s.header {
		_, err := loader.ReadRulesetSpec(s.name, data)
		return err
	}
	_, err := loader.ReadRuleFile(s.name, data, loader.RuleFileOptions{ScopeKey: s.scopeKey})
	return err
}

// parseYAML parses data as the loader parses rule files.
func parseYAML(t testing.TB, name string, data []byte) *loader.Document {
	t.Helper()
	opts := loader.DefaultOptions()
	opts.Format = "yaml"
	doc, err := loader.Parse(name, data, opts)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// schemaRejects validates JSON text with the schema.
func schemaRejects(t testing.TB, sch *jsonschema.Schema, jsonText []byte) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(jsonText))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, jsonText)
	}
	return sch.Validate(v)
}

// TestRuleSchemaAcceptsRulesets: every rule file and ruleset header of the
// embedded rulesets and of the engine's test rulesets, all of which the
// loader reads, validates against docs/celint-rules.schema.json.
func TestRuleSchemaAcceptsRulesets(t *testing.T) {
	sch := compileRuleSchema(t)
	count := 0
	for _, tree := range ruleTrees() {
		for _, s := range ruleSources(t, tree.prefix, tree.fsys) {
			if err := s.read(s.data); err != nil {
				t.Errorf("the loader refuses %s: %v", s.name, err)
				continue
			}
			doc := parseYAML(t, s.name, s.data)
			if err := schemaRejects(t, sch, doc.JSON()); err != nil {
				t.Errorf("%s does not validate against the rule schema:\n%v", s.name, err)
			}
			count++
		}
	}
	if count < 10 {
		t.Fatalf("only %d rule files and headers validated", count)
	}
	t.Logf("%d rule files and headers validate", count)
}

// A mutation unit is the compact JSON of a header, or of a rule file
// holding one rule of a source: a mutation changes one place of it, and
// the loader and the schema must agree on the result.
type mutationUnit struct {
	src  ruleSource
	text []byte
	doc  *loader.Document // text parsed: its nodes' offsets index text
}

// mutationUnits returns the units of a source: the header, or a rule file
// for each of its rules.
func mutationUnits(t *testing.T, s ruleSource) []mutationUnit {
	doc := parseYAML(t, s.name, s.data)
	js := doc.JSON()
	var texts [][]byte
	rules := doc.Root.Member("rules")
	if s.header || rules == nil || rules.Kind != loader.Array || rules.Len() == 0 {
		texts = append(texts, js)
	} else {
		for _, r := range rules.Children() {
			var b bytes.Buffer
			b.WriteString(`{"rules":[`)
			b.Write(js[r.Offset:doc.JSONEnd(r)])
			b.WriteString(`]}`)
			texts = append(texts, b.Bytes())
		}
	}
	var out []mutationUnit
	for _, text := range texts {
		if err := s.read(blockYAML(t, text)); err != nil {
			t.Fatalf("%s: the loader refuses a unit written again: %v", s.name, err)
		}
		u := mutationUnit{src: s, text: text, doc: parseYAML(t, s.name, text)}
		if !bytes.Equal(u.doc.JSON(), text) {
			t.Fatalf("%s: the compact JSON of a unit does not render as itself", s.name)
		}
		out = append(out, u)
	}
	return out
}

// splice replaces text[start:end] with insert, in a copy.
func splice(text []byte, start, end int, insert string) []byte {
	out := make([]byte, 0, len(text)+len(insert))
	out = append(out, text[:start]...)
	out = append(out, insert...)
	return append(out, text[end:]...)
}

// withMember adds member name, with the JSON value, to object o.
func (u mutationUnit) withMember(o *loader.Node, name, value string) []byte {
	m := string(loader.AppendJSONString(nil, name)) + ":" + value
	if o.Len() > 0 {
		m += ","
	}
	at := int(o.Offset) + 1
	return splice(u.text, at, at, m)
}

// replaced puts the JSON value in the place of n.
func (u mutationUnit) replaced(n *loader.Node, value string) []byte {
	return splice(u.text, int(n.Offset), u.doc.JSONEnd(n), value)
}

// without removes member c from its object.
func (u mutationUnit) without(t *testing.T, c *loader.Node) []byte {
	key := string(loader.AppendJSONString(nil, c.Key())) + ":"
	start, end := int(c.Offset)-len(key), u.doc.JSONEnd(c)
	if start < 0 || string(u.text[start:c.Offset]) != key {
		t.Fatalf("%s: member %q is not written where expected", u.src.name, c.Key())
	}
	switch {
	case end < len(u.text) && u.text[end] == ',':
		end++
	case u.text[start-1] == ',':
		start--
	}
	return splice(u.text, start, end, "")
}

// wrongValues replace a value, or are given to a field added: every JSON
// type, and an empty mapping and list.
var wrongValues = []string{`{"zz":1}`, `{}`, `["zz"]`, `[]`, `"zz"`, `7`, `true`, `null`}

// schemaStricter lists the places where the schema refuses what
// loader.ReadRuleFile accepts: each either refused later, when the rule
// compiles (defect is rule members that engine.LoadRuleset refuses, see
// TestRuleSchemaStricterWhereRulesCompile), or a gap of the loader (an
// edit without an op loads, and its fix can never be made).
var schemaStricter = []struct {
	name   string
	where  *regexp.Regexp // the pointer of the place mutated, in its unit
	op     string         // the mutation: "add", "replace", "remove" or "" for any
	defect string         // YAML of rule members the engine refuses; "" for a loader gap
}{
	{"a schema fragment is a JSON Schema: a mapping or a boolean", regexp.MustCompile(`^/rules/\d+/schema(/|$)`), "", `schema: "zz"`},
	{"assume takes the keywords of a precondition only", regexp.MustCompile(`^/rules/\d+(/checks/\d+)?/assume(/|$)`), "", "assume: {zz: 1}"},
	{"schemaFixes need a schema fragment", regexp.MustCompile(`^/rules/\d+/schema$`), "remove", "schemaFixes: {type: {edits: [{op: remove, at: x}]}}"},
	{"an edit needs an op (the loader reads an edit without one)", regexp.MustCompile(`/edits/\d+/op$`), "remove", ""},
}

// stricterClass returns the entry of schemaStricter that excuses a
// mutation, or "".
func stricterClass(ptr, op string) string {
	for _, s := range schemaStricter {
		if (s.op == "" || s.op == op) && s.where.MatchString(ptr) {
			return s.name
		}
	}
	return ""
}

// TestRuleSchemaAgreesWithLoader mutates every embedded and test rule file
// and header, one place at a time, and checks that the loader
// (loader.ReadRuleFile, loader.ReadRulesetSpec) and the schema accept and
// refuse the same mutations, except where schemaStricter says why.
//
// The places are found mechanically. Each object gets a member
// "zz-unknown": an object the loader then refuses is one it reads, and it
// gets, in turn, each field its unknown-field message lists and it lacks,
// with each of wrongValues. The members of an object the loader reads, and
// of the objects such an object holds, are each replaced by each of
// wrongValues and removed, and so is the first element of a list they
// hold. A mutation alike to others (the same kind of object, field, value
// and operation) is tried in a few contexts (the object's other members),
// and in every context that has a member none of the tried ones had.
func TestRuleSchemaAgreesWithLoader(t *testing.T) {
	sch := compileRuleSchema(t)
	var units []mutationUnit
	for _, tree := range ruleTrees() {
		for _, s := range ruleSources(t, tree.prefix, tree.fsys) {
			units = append(units, mutationUnits(t, s)...)
		}
	}
	st := &mutationRun{t: t, sch: sch, contexts: map[string]*triedContexts{}, readAt: map[string]string{}, excused: map[string]int{}}
	for _, u := range units {
		st.unit(u)
	}
	for _, s := range schemaStricter {
		if s.defect == "" && st.excused[s.name] == 0 {
			t.Errorf("schemaStricter %q excused no mutation: the loader gap is closed, remove the entry", s.name)
		}
	}
	if st.count < 1000 {
		t.Errorf("only %d mutations tried", st.count)
	}
	t.Logf("%d units (rules and headers); %d mutations tried, %d alike left out; %d objects read by the loader; schema stricter than loader.ReadRuleFile: %v",
		len(units), st.count, st.skipped, st.read, st.excused)
	t.Logf("an unknown member with a list value, which the schema takes for a scope member: at %d objects tried, all rules or checks", st.listGap)
}

// mutationRun holds the state and counts of TestRuleSchemaAgreesWithLoader.
type mutationRun struct {
	t        *testing.T
	sch      *jsonschema.Schema
	contexts map[string]*triedContexts // by the kind of mutation
	readAt   map[string]string         // the loader's message about an unknown member, by the place of an object
	excused  map[string]int            // by the name of a schemaStricter entry
	count    int                       // mutations tried
	skipped  int                       // mutations alike left out
	read     int                       // objects the loader reads
	listGap  int                       // objects tried whose unknown member with a list value the schema takes
}

// triedContexts are the contexts a kind of mutation was tried in.
type triedContexts struct {
	n     int
	names map[string]bool // every member name of the contexts
}

// contextsPerKind is how many contexts each kind of mutation is tried in,
// besides those with a member name not seen before.
const contextsPerKind = 3

// fresh reports whether a mutation of this kind is to be tried among
// the member names of its object, and records it.
func (st *mutationRun) fresh(kind string, names []string) bool {
	c := st.contexts[kind]
	if c == nil {
		c = &triedContexts{names: map[string]bool{}}
		st.contexts[kind] = c
	}
	isNew := c.n < contextsPerKind
	for _, name := range names {
		if !c.names[name] {
			isNew = true
		}
	}
	if !isNew {
		st.skipped++
		return false
	}
	c.n++
	for _, name := range names {
		c.names[name] = true
	}
	return true
}

var (
	knownFieldsRE = regexp.MustCompile(`^unknown field "zz-unknown"; expected one of: (.*)$`)
	ruleOrCheckRE = regexp.MustCompile(`^/rules/\d+(/checks/\d+)?$`)
)

// unit tries the mutations of one unit.
func (st *mutationRun) unit(u mutationUnit) {
	kinds := map[*loader.Node]string{} // each object the loader reads: its message about an unknown member
	var walk func(n *loader.Node, depth int)
	walk = func(n *loader.Node, depth int) {
		if n.Kind == loader.Object {
			if kinds[holder(n)] != "" || n.Parent == nil {
				depth = 0
			}
			st.object(u, n, depth, kinds)
		}
		for _, c := range n.Children() {
			walk(c, depth+1)
		}
	}
	walk(u.doc.Root, 0)
}

// holder returns the object that holds n as a member or, through a list,
// as an element; nil for none.
func holder(n *loader.Node) *loader.Node {
	p := n.Parent
	if p != nil && p.Kind == loader.Array {
		p = p.Parent
	}
	if p != nil && p.Kind == loader.Object {
		return p
	}
	return nil
}

// memberNames returns the sorted member names of object o.
func memberNames(o *loader.Node) []string {
	names := make([]string, 0, o.Len())
	for _, c := range o.Children() {
		names = append(names, c.Key())
	}
	sort.Strings(names)
	return names
}

// object tries the mutations of object o, depth levels below the nearest
// object the loader reads (0 when its holder is one, or it is the root).
func (st *mutationRun) object(u mutationUnit, o *loader.Node, depth int, kinds map[*loader.Node]string) {
	t := st.t
	names := memberNames(o)
	if depth > 0 && !st.fresh(fmt.Sprint(u.src.header, "\x00nested\x00", kindOf(readAncestor(o, kinds), kinds), "\x00", depth), names) {
		return
	}
	// Whether the loader reads an object depends on where it is: the kind
	// of its holder and its place there.
	place := "root"
	if h := holder(o); h != nil {
		place = kindOf(h, kinds) + " / " + placeIn(o)
	}
	place = fmt.Sprint(u.src.header, "\x00", u.src.scopeKey, "\x00", place)
	if !st.fresh("add zz-unknown\x00"+place, names) {
		if msg := st.readAt[place]; msg != "" {
			st.read++
			kinds[o] = msg
		}
	} else if msg := st.compare(u, o.Pointer()+"/zz-unknown", "add", u.withMember(o, "zz-unknown", `"zz"`)); msg != "" {
		st.count++
		st.read++
		kinds[o], st.readAt[place] = msg, msg
		if schemaRejects(t, st.sch, u.withMember(o, "zz-unknown", `["zz"]`)) == nil {
			st.listGap++
			if !ruleOrCheckRE.MatchString(o.Pointer()) {
				t.Errorf("%s: the schema takes an unknown member with a list value at %s, which is not a rule or a check", u.src.name, o.Pointer())
			}
		}
	} else {
		st.count++
	}
	if m := knownFieldsRE.FindStringSubmatch(kinds[o]); m != nil {
		for _, f := range strings.Split(m[1], ", ") {
			if o.Member(f) != nil {
				continue
			}
			for _, v := range wrongValues {
				st.try(u, o, names, kinds, "add", f, v, func() []byte { return u.withMember(o, f, v) })
			}
		}
	}
	if kinds[o] == "" && kinds[holder(o)] == "" {
		return
	}
	for _, c := range o.Children() {
		for _, v := range wrongValues {
			st.try(u, o, names, kinds, "replace", c.Key(), v, func() []byte { return u.replaced(c, v) })
		}
		st.try(u, o, names, kinds, "remove", c.Key(), "", func() []byte { return u.without(t, c) })
		if c.Kind == loader.Array && c.Len() > 0 {
			e := c.Children()[0]
			for _, v := range wrongValues {
				st.try(u, o, names, kinds, "replace", c.Key()+"/0", v, func() []byte { return u.replaced(e, v) })
			}
		}
	}
}

// readAncestor returns the nearest object holding o that the loader reads,
// or the root.
func readAncestor(o *loader.Node, kinds map[*loader.Node]string) *loader.Node {
	for h := holder(o); h != nil; h = holder(h) {
		if kinds[h] != "" || h.Parent == nil {
			return h
		}
	}
	return o
}

// kindOf names the kind of object o: the loader's message about an unknown
// member or, for an object the loader does not read, the kind of the
// object holding it and its place there.
func kindOf(o *loader.Node, kinds map[*loader.Node]string) string {
	if k := kinds[o]; k != "" {
		return k
	}
	h := holder(o)
	if h == nil {
		return "root"
	}
	return kindOf(h, kinds) + " / " + placeIn(o)
}

// placeIn names where o is in its holder: its member name, or the name of
// the list it is an element of, with "/#".
func placeIn(o *loader.Node) string {
	if o.Parent.Kind == loader.Array {
		return o.Parent.Key() + "/#"
	}
	return o.Key()
}

// try makes one mutation of field of object o, unless enough alike were
// tried.
func (st *mutationRun) try(u mutationUnit, o *loader.Node, names []string, kinds map[*loader.Node]string, op, field, value string, mutate func() []byte) {
	name, context := field, names
	if !knownFieldsRE.MatchString(kinds[o]) {
		// a mapping of names, or an object the loader does not read:
		// its members are alike whatever their names
		name, context = "*", nil
		if f, _, ok := strings.Cut(field, "/"); ok && f != "" {
			name = "*/0"
		}
	}
	kind := strings.Join([]string{fmt.Sprint(u.src.header), kindOf(o, kinds), op, name, value}, "\x00")
	if !st.fresh(kind, context) {
		return
	}
	st.count++
	st.compare(u, o.Pointer()+"/"+loader.EscapeToken(field), op+" "+value, mutate())
}

// compare reads a mutated unit with the loader and the schema, reports a
// disagreement that schemaStricter does not excuse, and returns the
// loader's first message ("" when it accepts).
func (st *mutationRun) compare(u mutationUnit, ptr, what string, text []byte) string {
	t := st.t
	lerr := u.src.read(blockYAML(t, text))
	serr := schemaRejects(t, st.sch, text)
	where := fmt.Sprintf("%s: %s at %s", u.src.name, what, ptr)
	switch {
	case lerr != nil && serr == nil:
		t.Errorf("%s: the loader refuses it (%v), the schema accepts it", where, lerr)
	case lerr == nil && serr != nil:
		op, _, _ := strings.Cut(what, " ")
		if class := stricterClass(ptr, op); class != "" {
			st.excused[class]++
			return ""
		}
		t.Errorf("%s: the loader accepts it, the schema refuses it:\n%v", where, serr)
	}
	if lerr == nil {
		return ""
	}
	var e *loader.Error
	if errors.As(lerr, &e) {
		return e.Msg
	}
	return lerr.Error()
}

// blockYAML writes JSON text as block YAML, which the loader reads on its
// fast path: strings and member names double-quoted, numbers as written.
func blockYAML(t testing.TB, jsonText []byte) []byte {
	t.Helper()
	opts := loader.DefaultOptions()
	opts.Format = "json"
	doc, err := loader.Parse("unit.json", jsonText, opts)
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, jsonText)
	}
	var b []byte
	var node func(n *loader.Node, indent int)
	inline := func(n *loader.Node) bool {
		return n.Kind < loader.Array || n.Len() == 0
	}
	scalar := func(n *loader.Node) {
		switch {
		case n.Kind == loader.String:
			b = loader.AppendJSONString(b, n.Value().(string))
		case n.Kind == loader.Array:
			b = append(b, "[]"...)
		case n.Kind == loader.Object:
			b = append(b, "{}"...)
		default:
			b = append(b, doc.JSON()[n.Offset:doc.JSONEnd(n)]...)
		}
	}
	pad := func(indent int) {
		for range indent {
			b = append(b, ' ')
		}
	}
	node = func(n *loader.Node, indent int) {
		for _, c := range n.Children() {
			if n.Kind == loader.Object {
				pad(indent)
				b = loader.AppendJSONString(b, c.Key())
				b = append(b, ':')
				if inline(c) {
					b = append(b, ' ')
					scalar(c)
					b = append(b, '\n')
					continue
				}
				b = append(b, '\n')
				node(c, indent+2)
				continue
			}
			pad(indent)
			b = append(b, "- "...)
			if inline(c) {
				scalar(c)
				b = append(b, '\n')
				continue
			}
			// the element's first line follows the dash
			start := len(b)
			node(c, indent+2)
			b = append(b[:start], b[start+indent+2:]...)
		}
	}
	if inline(doc.Root) {
		scalar(doc.Root)
		return append(b, '\n')
	}
	node(doc.Root, 0)
	return b
}

// TestRuleSchemaStricterWhereRulesCompile: each place where the schema
// refuses what loader.ReadRuleFile accepts, other than a loader gap, is
// refused by engine.LoadRuleset: a rule of the guide test ruleset loads,
// and with the defect it does not.
func TestRuleSchemaStricterWhereRulesCompile(t *testing.T) {
	guide := os.DirFS("../engine/testdata/rulesets/guide/v1")
	base := fstest.MapFS{}
	err := fs.WalkDir(guide, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(guide, p)
		base[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	const rule = `rules:
  - id: guide.schema.probe
    level: may
    given: tools.#
    checks:
      - assert: "true"
`
	load := func(extra string) error {
		fsys := fstest.MapFS{}
		for k, v := range base {
			fsys[k] = v
		}
		fsys["probe.yaml"] = &fstest.MapFile{Data: []byte(rule + extra)}
		_, err := engine.LoadRuleset(fsys, ".", engine.Options{})
		return err
	}
	if err := load(""); err != nil {
		t.Fatalf("the probe rule does not load: %v", err)
	}
	sch := compileRuleSchema(t)
	for _, s := range schemaStricter {
		if s.defect == "" {
			continue
		}
		text := []byte(rule + "    " + s.defect + "\n")
		if _, err := loader.ReadRuleFile("probe.yaml", text, loader.RuleFileOptions{ScopeKey: "protocolVersions"}); err != nil {
			t.Errorf("%s: loader.ReadRuleFile refuses the defect itself: %v", s.name, err)
		}
		if err := schemaRejects(t, sch, parseYAML(t, "probe.yaml", text).JSON()); err == nil {
			t.Errorf("%s: the schema accepts the defect", s.name)
		}
		if err := load("    " + s.defect + "\n"); err == nil {
			t.Errorf("%s: engine.LoadRuleset accepts the defect", s.name)
		}
	}
}

// TestRuleSchemaDocumented: the rule-format page and the README point to
// the schema, the page shows how editors use it, and every field the
// schema declares is named on the page.
func TestRuleSchemaDocumented(t *testing.T) {
	page := string(readFile(t, "../docs/rule-format.md"))
	readme := string(readFile(t, "../README.md"))
	for _, want := range []string{"celint-rules.schema.json", "# yaml-language-server: $schema=", `"yaml.schemas"`, "#/$defs/ruleFile", "#/$defs/rulesetHeader"} {
		if !strings.Contains(page, want) {
			t.Errorf("docs/rule-format.md does not mention %s", want)
		}
	}
	if !strings.Contains(readme, "docs/celint-rules.schema.json") {
		t.Error("README.md does not mention docs/celint-rules.schema.json")
	}
	schema, err := jsonschema.UnmarshalJSON(bytes.NewReader(readFile(t, ruleSchemaFile)))
	if err != nil {
		t.Fatal(err)
	}
	defs, _ := schema.(map[string]any)["$defs"].(map[string]any)
	for _, def := range []string{"ruleFile", "rulesetHeader"} {
		if defs[def] == nil {
			t.Errorf("%s has no $defs/%s, which docs/rule-format.md names", ruleSchemaFile, def)
		}
	}
	fields := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				if props, ok := c.(map[string]any); ok && k == "properties" {
					for name := range props {
						fields[name] = true
					}
				}
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	walk(schema)
	if len(fields) < 50 {
		t.Fatalf("the schema declares only %d field names", len(fields))
	}
	for name := range fields {
		if !strings.Contains(page, "`"+name+"`") && !regexp.MustCompile(`\b`+regexp.QuoteMeta(name)+`:`).MatchString(page) {
			t.Errorf("the schema declares the field %q, which docs/rule-format.md does not name (as `%s` or %s:)", name, name, name)
		}
	}
}
