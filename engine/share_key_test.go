package engine

import (
	"reflect"
	"strings"
	"testing"

	"github.com/celint/celint/loader"
)

// TestLogicKey: a rule's logic key changes with everything its verdicts
// depend on, and with nothing it only says or where it says it; rules it
// never shares have none.
func TestLogicKey(t *testing.T) {
	base := func() *loader.RuleSpec {
		return &loader.RuleSpec{
			ID:           loader.Scalar{Value: "r.a"},
			Doc:          loader.RuleDoc{Title: "A", Level: "must"},
			Given:        []loader.Scalar{{Value: "items.#"}},
			When:         keyExpr("has(self.a)"),
			DocVariables: loader.Vars{{Name: "n", Expr: *keyExpr("size(root.items)")}},
			Variables:    loader.Vars{{Name: "v", Expr: *keyExpr("self.a * 2")}},
			Checks: []loader.CheckSpec{{
				Each:    keyExpr("self.list"),
				When:    keyExpr("item > 0"),
				Assert:  keyExpr("item < v"),
				At:      loader.Scalar{Value: "list/{index}"},
				Message: loader.Scalar{Value: "too big"},
			}},
			File: "a.yaml",
			Pos:  loader.Pos{Line: 3, Col: 5},
		}
	}
	key := logicKey(base(), "env")
	if key == "" {
		t.Fatal("the base rule has no key")
	}
	same := map[string]func(*loader.RuleSpec){
		"id":       func(r *loader.RuleSpec) { r.ID.Value = "r.b" },
		"level":    func(r *loader.RuleSpec) { r.Doc.Level = "may" },
		"title":    func(r *loader.RuleSpec) { r.Doc.Title = "B" },
		"message":  func(r *loader.RuleSpec) { r.Checks[0].Message.Value = "other words" },
		"at":       func(r *loader.RuleSpec) { r.Checks[0].At.Value = "list" },
		"code":     func(r *loader.RuleSpec) { r.Checks[0].Code.Value = "big" },
		"file":     func(r *loader.RuleSpec) { r.File, r.Pos = "b.yaml", loader.Pos{Line: 9, Col: 1} },
		"schema":   func(r *loader.RuleSpec) { r.Schema = &loader.Node{} },
		"position": func(r *loader.RuleSpec) { r.Checks[0].Assert.Pos = loader.Pos{Line: 7, Col: 2} },
	}
	for name, change := range same {
		r := base()
		change(r)
		if got := logicKey(r, "env"); got != key {
			t.Errorf("changing the %s changed the key", name)
		}
	}
	differ := keyChanges
	for name, change := range differ {
		r := base()
		change(r)
		if got := logicKey(r, "env"); got == key || got == "" {
			t.Errorf("changing the %s left the key as it was (or gave none)", name)
		}
	}
	if logicKey(base(), "other env") == key {
		t.Error("a rule of another environment has the same key")
	}
	none := noKey
	for name, change := range none {
		r := base()
		change(r)
		if got := logicKey(r, "env"); got != "" {
			t.Errorf("a rule with %s has a key", name)
		}
	}
}

// keyExpr is an expression of text, for the cases below.
func keyExpr(text string) *loader.Expr { return &loader.Expr{Text: text} }

// keyChanges are changes of a rule that change its logic key.
var keyChanges = map[string]func(*loader.RuleSpec){
	"given":             func(r *loader.RuleSpec) { r.Given[0].Value = "items.#.x" },
	"a second path":     func(r *loader.RuleSpec) { r.Given = append(r.Given, loader.Scalar{Value: "more.#"}) },
	"rule when":         func(r *loader.RuleSpec) { r.When = keyExpr("has(self.b)") },
	"no rule when":      func(r *loader.RuleSpec) { r.When = nil },
	"assume":            func(r *loader.RuleSpec) { r.Assume = &loader.Assume{Expr: keyExpr("true")} },
	"scope":             func(r *loader.RuleSpec) { r.Doc.Scope = loader.Scope{Key: "versions", Values: []string{"1"}} },
	"document variable": func(r *loader.RuleSpec) { r.DocVariables[0].Expr.Text = "size(root.other)" },
	"its name":          func(r *loader.RuleSpec) { r.DocVariables[0].Name = "m" },
	"variable":          func(r *loader.RuleSpec) { r.Variables[0].Expr.Text = "self.a * 3" },
	"variable's name":   func(r *loader.RuleSpec) { r.Variables[0].Name = "w" },
	"each":              func(r *loader.RuleSpec) { r.Checks[0].Each = keyExpr("self.other") },
	"check when":        func(r *loader.RuleSpec) { r.Checks[0].When = nil },
	"assert":            func(r *loader.RuleSpec) { r.Checks[0].Assert = keyExpr("item <= v") },
	"forbid":            func(r *loader.RuleSpec) { r.Checks[0].Assert, r.Checks[0].Forbid = nil, keyExpr("item < v") },
	"check scope":       func(r *loader.RuleSpec) { r.Checks[0].Scope = loader.Scope{Key: "versions", From: "1"} },
	"check assume":      func(r *loader.RuleSpec) { r.Checks[0].Assume = &loader.Assume{Expr: keyExpr("true")} },
	"another check":     func(r *loader.RuleSpec) { r.Checks = append(r.Checks, r.Checks[0]) },
	// Texts that run together the same way, split differently.
	"the split of two texts": func(r *loader.RuleSpec) {
		r.Given[0].Value, r.When = "items.#has(self.a)", keyExpr("")
	},
}

// noKey are changes of a rule that leave it without a logic key.
var noKey = map[string]func(*loader.RuleSpec){
	"resolve":         func(r *loader.RuleSpec) { r.Resolve = true },
	"a shape":         func(r *loader.RuleSpec) { r.Assume = &loader.Assume{Shape: &loader.Node{}} },
	"a check's shape": func(r *loader.RuleSpec) { r.Checks[0].Assume = &loader.Assume{Shape: &loader.Node{}} },
	"no checks":       func(r *loader.RuleSpec) { r.Checks = nil },
}

// keyFields classifies every field of the rule spec types that logicKey
// reads through: "key: CASE" for a field its verdicts depend on, which
// logicKey covers (CASE names an entry of keyChanges or noKey that changes
// it), "parts" for a field whose own fields are classified in turn, and
// "not: REASON" for a field that changes no verdict. A field added to
// these types fails TestLogicKeyFields until it is classified here.
var keyFields = map[string]string{
	"RuleSpec.ID":             "not: each rule reports its findings under its own id",
	"RuleSpec.Doc":            "parts",
	"RuleSpec.Given":          "parts",
	"RuleSpec.Assume":         "parts",
	"RuleSpec.When":           "parts",
	"RuleSpec.Resolve":        "key: resolve",
	"RuleSpec.DocVariables":   "parts",
	"RuleSpec.Variables":      "parts",
	"RuleSpec.Schema":         "not: a schema fragment is evaluated by each rule itself, never shared",
	"RuleSpec.SchemaMessages": "not: words of the schema's findings, which each rule computes itself (unshareable when an expression computes them)",
	"RuleSpec.SchemaFixes":    "not: a fix mends a finding, it does not decide it",
	"RuleSpec.Checks":         "parts",
	"RuleSpec.Examples":       "not: examples are for conformance, not linting",
	"RuleSpec.File":           "not: where the rule is written",
	"RuleSpec.Pos":            "not: where the rule is written",

	"RuleDoc.Title":           "not: words",
	"RuleDoc.Description":     "not: words",
	"RuleDoc.Requirement":     "not: words",
	"RuleDoc.Owner":           "not: words",
	"RuleDoc.Surface":         "not: words",
	"RuleDoc.Path":            "not: words",
	"RuleDoc.Kind":            "not: words",
	"RuleDoc.Level":           "not: each rule reports its findings at its own level",
	"RuleDoc.Scope":           "parts",
	"RuleDoc.Aliases":         "not: names of findings",
	"RuleDoc.SchemaLocations": "not: words",
	"RuleDoc.Status":          "not: words",
	"RuleDoc.Enforcement":     "not: words",
	"RuleDoc.RequiredBy":      "not: words",
	"RuleDoc.BasedOn":         "not: words",

	"Scope.Key":         "key: scope",
	"Scope.Independent": "key: scope",
	"Scope.Values":      "key: scope",
	"Scope.From":        "key: check scope",
	"Scope.Until":       "key: check scope",
	"Scope.Pos":         "not: where it is written",

	"Assume.Shape": "key: a shape",
	"Assume.Expr":  "parts",
	"Assume.Pos":   "not: where it is written",

	"Expr.Text":   "key: rule when",
	"Expr.Pos":    "not: where it is written",
	"Expr.Block":  "not: how the text is written",
	"Expr.Indent": "not: how the text is written",

	"Scalar.Value": "key: given",
	"Scalar.Pos":   "not: where it is written",

	"NamedExpr.Name":    "key: its name",
	"NamedExpr.NamePos": "not: where it is written",
	"NamedExpr.Expr":    "parts",

	"CheckSpec.Code":              "not: each rule names its own findings",
	"CheckSpec.Level":             "not: each rule reports its findings at its own level",
	"CheckSpec.OptIn":             "not: each rule marks its findings by its own checks",
	"CheckSpec.Aliases":           "not: names of findings",
	"CheckSpec.Scope":             "parts",
	"CheckSpec.Assume":            "parts",
	"CheckSpec.Each":              "key: each",
	"CheckSpec.When":              "key: check when",
	"CheckSpec.Assert":            "key: assert",
	"CheckSpec.Forbid":            "key: forbid",
	"CheckSpec.At":                "not: where a finding lands, which each rule computes itself",
	"CheckSpec.Pointer":           "not: where a finding lands, which each rule computes itself (unshareable when it reads a variable)",
	"CheckSpec.Message":           "not: words",
	"CheckSpec.MessageExpression": "not: words, which each rule computes itself (unshareable when they read a variable)",
	"CheckSpec.Fix":               "not: a fix mends a finding, it does not decide it",
	"CheckSpec.Pos":               "not: where it is written",
}

// TestLogicKeyFields walks the rule spec types from loader.RuleSpec by
// reflection: every field is classified in keyFields, every "key" field
// names a case of TestLogicKey, and keyFields names no field that is gone.
func TestLogicKeyFields(t *testing.T) {
	seen := map[string]bool{}
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || typ.PkgPath() != reflect.TypeFor[loader.RuleSpec]().PkgPath() {
			return
		}
		for i := range typ.NumField() {
			f := typ.Field(i)
			name := typ.Name() + "." + f.Name
			if seen[name] {
				continue
			}
			seen[name] = true
			class, ok := keyFields[name]
			switch {
			case !ok:
				t.Errorf("%s is not classified: add it to keyFields as in logicKey's key (and to logicKey), or as changing no verdict", name)
			case class == "parts":
				walk(f.Type)
			case strings.HasPrefix(class, "key: "):
				c := strings.TrimPrefix(class, "key: ")
				if keyChanges[c] == nil && noKey[c] == nil {
					t.Errorf("%s: no case %q in keyChanges or noKey", name, c)
				}
			case !strings.HasPrefix(class, "not: "):
				t.Errorf("%s: class %q is none of key, parts, not", name, class)
			}
		}
	}
	walk(reflect.TypeFor[loader.RuleSpec]())
	for name := range keyFields {
		if !seen[name] {
			t.Errorf("keyFields classifies %s, which the rule spec types do not have (or do not reach)", name)
		}
	}
}
