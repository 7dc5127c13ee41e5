package rulesets_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/internal/benchgen"
	"github.com/celint/celint/loader"
	"github.com/celint/celint/rulesets"
)

// bigDescription generates a description with n tools, each with an input
// schema and two elicitations (a form and a URL one); every 50th tool has a
// form whose required list names an undeclared property.
func bigDescription(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"mcpdesc":"0.9.0","$schema":"https://example.com/mcpdesc/0.9.0.json","info":{"name":"bench","version":"1.0.0"},"protocolVersions":["2025-06-18","2025-11-25","2026-07-28"],"transports":[{"type":"stdio","command":"bench"}],"tools":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		required := "choice"
		if i%50 == 0 {
			required = "missing"
		}
		fmt.Fprintf(&b, `{"name":"tool_%d","description":"Tool number %d does one small thing with a record of the catalogue and returns it.",`+
			`"inputSchema":{"type":"object","properties":{"id":{"type":"string","description":"The record id."},"limit":{"type":"integer","minimum":1,"maximum":100}},"required":["id"]},`+
			`"elicitations":[{"name":"pick_%d","mode":"form","message":"Which option should tool %d use for this record?","when":"More than one option applies.",`+
			`"requestedSchema":{"type":"object","properties":{"choice":{"type":"string","title":"Choice","enum":["a","b","c"],"enumNames":["A","B","C"]},"count":{"type":"integer","minimum":1,"maximum":10}},"required":["%s"]},"onDecline":"Use the default option."},`+
			`{"name":"authorize_%d","mode":"url","message":"Authorize tool %d to reach the catalogue.","url":"https://auth.example.com/authorize/tool_%d","protocolVersions":["2025-11-25","2026-07-28"]}]}`,
			i, i, i, i, required, i, i, i)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// BenchmarkLint5000Tools lints a ~5 MB description (5,000 tools with two
// elicitations each) with the embedded rulesets and reports, in one run, the
// engine's time as a ratio of encoding/json decoding the same bytes:
// lint/op is reading plus linting, json/op is json.Unmarshal into any.
func BenchmarkLint5000Tools(b *testing.B) {
	data := bigDescription(5000)
	cat, err := rulesets.Catalog(engine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	rs := cat.Rulesets()[0]
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var lint, parse, decode time.Duration
	var diags int
	for b.Loop() {
		t0 := time.Now()
		doc, err := loader.Parse("bench.json", data, rs.LoadOptions)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		ds, err := rs.Lint(context.Background(), doc, engine.LintOptions{})
		if err != nil {
			b.Fatal(err)
		}
		diags = len(ds)
		t2 := time.Now()
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
		t3 := time.Now()
		parse += t1.Sub(t0)
		lint += t2.Sub(t1)
		decode += t3.Sub(t2)
	}
	if diags != 100 {
		b.Fatalf("got %d diagnostics, want 100 (one per 50 tools)", diags)
	}
	n := float64(b.N)
	b.ReportMetric(float64(len(data))/1e6, "MB")
	b.ReportMetric(float64(parse.Milliseconds())/n, "parse-ms/op")
	b.ReportMetric(float64(lint.Milliseconds())/n, "rules-ms/op")
	b.ReportMetric(float64(decode.Milliseconds())/n, "json-ms/op")
	b.ReportMetric(float64(parse+lint)/float64(decode), "engine/json")
}

// BenchmarkLoadRulesets measures reading and compiling the embedded
// rulesets: every rule (eager, as conformance loads them), and what
// loading needs when rules compile on first use (lazy, as check loads
// them), then the first lint of a one-tool description, which compiles
// the rules it selects.
func BenchmarkLoadRulesets(b *testing.B) {
	one := benchgen.Description(1)
	for _, lazy := range []bool{false, true} {
		name := map[bool]string{false: "eager", true: "lazy"}[lazy]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := rulesets.Load(engine.Options{Lazy: lazy}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"+first-lint", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cat, err := rulesets.Catalog(engine.Options{Lazy: lazy})
				if err != nil {
					b.Fatal(err)
				}
				doc, rs, err := cat.Load("one.json", one, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := rs.Lint(context.Background(), doc, engine.LintOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
