package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/celint/celint/loader"
)

// ParamKey is the member of a mapping that stands for a param of the
// ruleset header ({$param: name}) in a schema fragment.
const ParamKey = "$param"

// ParamsVariable is the document variable CEL reads the params as.
const ParamsVariable = "params"

// headerParams returns the params the header declares, by name.
func headerParams(spec *loader.RulesetSpec) (map[string]*loader.Node, error) {
	if len(spec.Params) == 0 {
		return nil, nil
	}
	nodes := map[string]*loader.Node{}
	for _, p := range spec.Params {
		if _, dup := nodes[p.Name]; dup {
			return nil, &loader.Error{File: spec.File, Pos: p.Pos, Msg: fmt.Sprintf("param %q is declared twice", p.Name)}
		}
		nodes[p.Name] = p.Value
	}
	return nodes, nil
}

// paramsVariable is the document variable that holds params, as a CEL
// literal map, declared at pos.
func paramsVariable(params map[string]*loader.Node, pos loader.Pos) loader.NamedExpr {
	var b strings.Builder
	b.WriteString("{")
	for i, name := range slices.Sorted(maps.Keys(params)) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(name))
		b.WriteString(": ")
		writeCELLiteral(&b, params[name].Value())
	}
	b.WriteString("}")
	return loader.NamedExpr{Name: ParamsVariable, NamePos: pos, Expr: loader.Expr{Text: b.String(), Pos: pos}}
}

// writeCELLiteral writes v, a value of a rule file, as a CEL literal.
func writeCELLiteral(b *strings.Builder, v any) {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case int64:
		b.WriteString(strconv.FormatInt(t, 10))
	case float64:
		s := strconv.FormatFloat(t, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") && !math.IsInf(t, 0) && !math.IsNaN(t) {
			s += ".0"
		}
		b.WriteString(s)
	case string:
		b.WriteString(strconv.Quote(t))
	case []any:
		b.WriteString("[")
		for i, e := range t {
			if i > 0 {
				b.WriteString(", ")
			}
			writeCELLiteral(b, e)
		}
		b.WriteString("]")
	case map[string]any:
		b.WriteString("{")
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Quote(k))
			b.WriteString(": ")
			writeCELLiteral(b, t[k])
		}
		b.WriteString("}")
	}
}

// isParamRef reports whether n is a {$param: name} mapping, and the name.
func isParamRef(n *loader.Node) (string, bool) {
	if n.Kind != loader.Object || n.Len() != 1 {
		return "", false
	}
	c := n.Children()[0]
	if c.Key() != ParamKey {
		return "", false
	}
	name, _ := c.Value().(string)
	return name, true
}

// withParams is the native value of n with every {$param: name} mapping
// replaced by the value of the ruleset's param; fail reports one that names
// no param.
func (rs *Ruleset) withParams(n *loader.Node, fail func(loader.Pos, string, ...any)) any {
	if name, ok := isParamRef(n); ok {
		p, found := rs.params[name]
		if !found {
			fail(n.Pos, "%s %q: no such param in the ruleset header (%s)", ParamKey, name, knownParams(rs))
			return nil
		}
		return p.Value()
	}
	switch n.Kind {
	case loader.Object:
		out := make(map[string]any, n.Len())
		for _, c := range n.Children() {
			out[c.Key()] = rs.withParams(c, fail)
		}
		return out
	case loader.Array:
		out := make([]any, 0, n.Len())
		for _, c := range n.Children() {
			out = append(out, rs.withParams(c, fail))
		}
		return out
	}
	return n.Value()
}

// paramPlaceholder is {params.name} in a schemaMessages template.
var paramPlaceholder = regexp.MustCompile(`\{params\.([A-Za-z_][A-Za-z0-9_]*)\}`)

// paramsInTemplate returns the schemaMessages template t with every
// {params.name} replaced by the value of that param of the header, which
// must be a string, a number or a boolean; fail reports any other.
func (rs *Ruleset) paramsInTemplate(t loader.Scalar, fail func(loader.Pos, string, ...any)) string {
	return paramPlaceholder.ReplaceAllStringFunc(t.Value, func(m string) string {
		name := paramPlaceholder.FindStringSubmatch(m)[1]
		p, ok := rs.params[name]
		if !ok {
			fail(t.Pos, "%s: no such param in the ruleset header (%s)", m, knownParams(rs))
			return m
		}
		switch v := p.Value().(type) {
		case string:
			return v
		case bool, int64, float64:
			return fmt.Sprint(v)
		}
		fail(t.Pos, "%s: the param is %s; a message template takes a string, a number or a boolean", m, loader.KindPhrase(p))
		return m
	})
}

// hasParamRef reports whether n holds a {$param: name} mapping.
func hasParamRef(n *loader.Node) bool {
	if _, ok := isParamRef(n); ok {
		return true
	}
	return slices.ContainsFunc(n.Children(), hasParamRef)
}

func knownParams(rs *Ruleset) string {
	if len(rs.params) == 0 {
		return "it declares none"
	}
	names := make([]string, 0, len(rs.params))
	for k := range rs.params {
		names = append(names, k)
	}
	slices.Sort(names)
	return "known: " + strings.Join(names, ", ")
}

// includedRules compiles the rule files of the folders the header
// includes, each in the ruleset's context. A folder's fixtures/ serves
// its rules' examples when it has one, the ruleset's fixtures otherwise.
// A rule id that two included folders declare is an error.
func (rs *Ruleset) includedRules(spec *loader.RulesetSpec, issues *loader.Issues) []*Rule {
	var out []*Rule
	from := map[string]string{} // rule id -> the folder that included it
	for _, inc := range spec.Include {
		dir := path.Join(rs.Dir, inc.Value)
		if path.IsAbs(inc.Value) || !fs.ValidPath(dir) {
			issues.Append(&loader.Error{File: spec.File, Pos: inc.Pos, Msg: fmt.Sprintf("include %q: expected a folder inside the ruleset's file system, relative to this header", inc.Value)})
			continue
		}
		files, err := ReadRuleFiles(rs.FS, dir, rs.opts.DisplayDir)
		if err != nil {
			issues.Append(&loader.Error{File: spec.File, Pos: inc.Pos, Msg: fmt.Sprintf("include %q: %v", inc.Value, err), Err: err})
			continue
		}
		fix := rs.ownFixtures()
		fixDir := path.Join(dir, FixturesFolder)
		if st, err := fs.Stat(rs.FS, fixDir); err == nil && st.IsDir() {
			fix = fixtureDir{fs: rs.FS, dir: fixDir, at: path.Join(rs.opts.DisplayDir, fixDir)}
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			issues.Append(&loader.Error{File: spec.File, Pos: inc.Pos, Msg: fmt.Sprintf("include %q: cannot read its fixtures folder: %s", inc.Value, unwrapPathError(err)), Err: err})
		}
		rules, err := rs.compileFiles(files, fix, rs.opts.Lazy)
		issues.Append(err)
		for _, r := range rules {
			if prev, dup := from[r.ID]; dup {
				issues.Append(&loader.Error{File: spec.File, Pos: inc.Pos, Msg: fmt.Sprintf("include %q: rule %s is also included from %s", inc.Value, r.ID, prev)})
				continue
			}
			from[r.ID] = inc.Value
			// Published with the ruleset's own rules.
			r.Published = rs.SourceBase != "" || rs.Docs.Pages != ""
			if rs.SourceBase != "" {
				r.SourceURL = rs.SourceBase + path.Base(r.File)
			}
			out = append(out, r)
		}
	}
	return out
}

// applicableExamples returns the examples whose params, if they name any,
// have the values the ruleset's header gives them; fail reports a param
// the header does not declare.
func (rs *Ruleset) applicableExamples(ex loader.ExamplesSpec, fail func(loader.Pos, string, ...any)) loader.ExamplesSpec {
	keep := func(list []loader.ExampleSpec) []loader.ExampleSpec {
		var out []loader.ExampleSpec
		for _, e := range list {
			ok := true
			for _, p := range e.Params {
				v, found := rs.params[p.Name]
				if !found {
					fail(p.Pos, "params: no param %q in the ruleset header (%s)", p.Name, knownParams(rs))
					ok = false
					continue
				}
				if !reflect.DeepEqual(v.Value(), p.Value.Value()) {
					ok = false
				}
			}
			if ok {
				out = append(out, e)
			}
		}
		return out
	}
	if !slices.ContainsFunc(ex.Valid, hasParams) && !slices.ContainsFunc(ex.Invalid, hasParams) {
		return ex
	}
	return loader.ExamplesSpec{Valid: keep(ex.Valid), Invalid: keep(ex.Invalid)}
}

func hasParams(e loader.ExampleSpec) bool { return len(e.Params) > 0 }

// Variables returns the expressions of the ruleset's document variables
// (its header's and those it inherits), by name; params, the variable of
// the header's params, is not among them. Nil when there are none.
func (rs *Ruleset) Variables() map[string]string {
	var out map[string]string
	for _, v := range rs.docVars {
		if v.name == ParamsVariable {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[v.name] = v.text
	}
	return out
}

// Params returns the header's params as JSON-compatible values, by name;
// nil when it declares none.
func (rs *Ruleset) Params() map[string]any {
	if rs.params == nil {
		return nil
	}
	out := make(map[string]any, len(rs.params))
	for k, n := range rs.params {
		out[k] = n.Value()
	}
	return out
}
