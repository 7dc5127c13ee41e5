package cel

import (
	"flag"
	"fmt"
	"iter"
	"os"
	"regexp"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update", false, "rewrite cel/doc.go and docs/rule-format.md from the function records")

// The generated parts of the two documents that describe the library.
const (
	docGoFile      = "doc.go"
	docGoStart     = "// Version 1:\n"
	docGoEnd       = "package cel\n"
	ruleFormatFile = "../docs/rule-format.md"
	tablesStart    = "<!-- The tables of the library's versions are generated from cel's function records: go test ./cel -run TestGeneratedDocs -update -->\n"
	tablesEnd      = "<!-- end of the generated tables -->\n"
)

// TestGeneratedDocs: the function list of the package documentation and
// the library tables of docs/rule-format.md are what the function records
// say (-update rewrites them).
func TestGeneratedDocs(t *testing.T) {
	for _, d := range []struct {
		file, start, end, body string
	}{
		{docGoFile, docGoStart, docGoEnd, docGoFunctions()},
		{ruleFormatFile, tablesStart, tablesEnd, ruleFormatTables()},
	} {
		src, err := os.ReadFile(d.file)
		if err != nil {
			t.Fatal(err)
		}
		text := string(src)
		i := strings.Index(text, d.start)
		j := strings.Index(text, d.end)
		if i < 0 || j < i {
			t.Fatalf("%s: the generated part must start with %q and end before %q", d.file, d.start, d.end)
		}
		want := text[:i] + d.start + d.body + text[j:]
		if want == text {
			continue
		}
		if *updateDocs {
			if err := os.WriteFile(d.file, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s is not what the function records say; run go test ./cel -run TestGeneratedDocs -update", d.file)
	}
}

// selfOrRoot finds an example that reads the values its record sets.
var selfOrRoot = regexp.MustCompile(`\b(self|root)\b`)

// docGoFunctions is the package documentation's list of the functions,
// by the version that added them.
func docGoFunctions() string {
	var b strings.Builder
	for v := 1; v <= LatestLibrary; v++ {
		if v > 1 {
			fmt.Fprintf(&b, "// Version %d adds:\n", v)
		}
		b.WriteString("//\n")
		for f, o := range overloadsAdded(v) {
			fmt.Fprintf(&b, "//\t%s(%s) -> %s\n", f.name, paramList(o.params, true), o.result.String())
			if v == f.since {
				for _, line := range strings.Split(strings.TrimSpace(f.doc), "\n") {
					if line = strings.TrimRight(line, " "); line == "" {
						b.WriteString("//\n") // gofmt's form of an empty line in a code block
						continue
					}
					fmt.Fprintf(&b, "//\t    %s\n", line)
				}
				for _, ex := range f.examples {
					if ex.version != 0 || selfOrRoot.MatchString(ex.expr) || strings.Contains(ex.want, "error: ") {
						continue // run by TestLibraryRecordExamples only
					}
					line := ex.expr + " == " + ex.want
					if ex.note != "" {
						line += "   (" + ex.note + ")"
					}
					fmt.Fprintf(&b, "//\t    %s\n", line)
				}
			} else if o.summary != "" {
				fmt.Fprintf(&b, "//\t    %s\n", strings.ReplaceAll(o.summary, "`", ""))
			}
			b.WriteString("//\n")
		}
	}
	return strings.TrimSuffix(b.String(), "//\n")
}

// ruleFormatTables is the tables of docs/rule-format.md: what each
// library version from 2 on adds, a row per function and per overload
// added later.
func ruleFormatTables() string {
	var b strings.Builder
	for v := 2; v <= LatestLibrary; v++ {
		if v > 2 {
			fmt.Fprintf(&b, "\nLibrary version %d adds:\n\n", v)
		}
		b.WriteString("| function | gives |\n|---|---|\n")
		for f, o := range overloadsAdded(v) {
			summary := o.summary
			if summary == "" {
				if v != f.since {
					continue
				}
				summary = f.summary
			}
			fmt.Fprintf(&b, "| `%s(%s)` | %s |\n", f.name, paramList(o.params, false), summary)
		}
	}
	return b.String()
}

// overloadsAdded yields the overloads library version v added, with
// their functions, in the records' order.
func overloadsAdded(v int) iter.Seq2[*libFunction, libOverload] {
	return func(yield func(*libFunction, libOverload) bool) {
		for i := range libraryFunctionRecords {
			f := &libraryFunctionRecords[i]
			for _, o := range f.overloads {
				if o.version(f) == v && !yield(f, o) {
					return
				}
			}
		}
	}
}

// paramList writes an overload's parameters, with their types or without.
func paramList(ps []param, typed bool) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		if typed {
			parts[i] = p.typ.String() + " " + p.name
		} else {
			parts[i] = p.name
		}
	}
	return strings.Join(parts, ", ")
}
