package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/celint/celint/engine"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The OASIS SARIF 2.1.0 schema (errata 01, as published at
// https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/ and in
// github.com/oasis-tcs/sarif-spec as Schemata/sarif-schema-2.1.0.json),
// vendored as test data. It is a draft-04 schema.
const (
	sarifSchemaFile = "sarif-schema-2.1.0.json"
	sarifSchemaURL  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)

// compileSARIFSchema compiles the vendored schema, with formats (uri,
// uri-reference) asserted.
func compileSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", sarifSchemaFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(sarifSchemaURL, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(sarifSchemaURL)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validateSARIFWith(sch *jsonschema.Schema, log []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(log))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// validateSARIF fails t unless log is valid against the SARIF 2.1.0 schema.
func validateSARIF(t *testing.T, log []byte) {
	t.Helper()
	if err := validateSARIFWith(compileSARIFSchema(t), log); err != nil {
		t.Errorf("SARIF log is not valid against the 2.1.0 schema: %v", err)
	}
}

func TestSARIFSchema(t *testing.T) {
	sch := compileSARIFSchema(t)
	out := render(t, "sarif", sampleInput())
	if err := validateSARIFWith(sch, []byte(out)); err != nil {
		t.Errorf("golden SARIF is not valid against the 2.1.0 schema: %v", err)
	}

	// The validation has teeth: the schema rejects what it must.
	for name, bad := range map[string]string{
		"level out of the enum": strings.Replace(out, `"level": "note"`, `"level": "info"`, 1),
		"startLine 0":           strings.Replace(out, `"startLine": 2`, `"startLine": 0`, 1),
		"unknown property":      strings.Replace(out, `"columnKind"`, `"columnkind"`, 1),
	} {
		if bad == out {
			t.Fatalf("%s: the replacement did not apply", name)
		}
		if err := validateSARIFWith(sch, []byte(bad)); err == nil {
			t.Errorf("%s: invalid SARIF passed the schema", name)
		}
	}

	// Absolute paths, odd file names, a rule known only from a diagnostic.
	in := Input{Diagnostics: []engine.Diagnostic{
		{File: "/abs/dir/a b.json", RuleID: "celint.input", Severity: engine.Error, Message: "cannot parse", InputError: true},
		{File: "x:y/100%.yaml", RuleID: "r", Severity: engine.Info, Message: "m", Pointer: "/a~1b", Line: 1, Column: 1},
	}}
	if err := validateSARIFWith(sch, []byte(render(t, "sarif", in))); err != nil {
		t.Errorf("SARIF is not valid against the 2.1.0 schema: %v", err)
	}
}

// The structural assertions of SARIF 2.1.0 that matter to consumers such as
// GitHub code scanning, on the golden output.
func TestSARIFStructure(t *testing.T) {
	in := sampleInput()
	var log struct {
		Schema  string `json:"$schema"`
		Version string
		Runs    []struct {
			ColumnKind string
			Tool       struct {
				Driver struct {
					Name, Version, InformationURI string
					Rules                         []struct {
						ID                   string
						ShortDescription     *struct{ Text string }
						DefaultConfiguration *struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           struct{ StartLine, StartColumn int }
					}
					LogicalLocations []struct{ FullyQualifiedName, Kind string }
				}
				PartialFingerprints map[string]string
			}
		}
	}
	if err := json.Unmarshal([]byte(render(t, "sarif", in)), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || log.Schema != "https://json.schemastore.org/sarif-2.1.0.json" || len(log.Runs) != 1 {
		t.Fatalf("version %q, $schema %q, %d runs", log.Version, log.Schema, len(log.Runs))
	}
	run := log.Runs[0]
	driver := run.Tool.Driver
	if driver.Name != "celint" || driver.Version != "0.1.0" || driver.InformationURI == "" || run.ColumnKind != "unicodeCodePoints" {
		t.Errorf("driver %+v, columnKind %q", driver, run.ColumnKind)
	}
	if len(driver.Rules) != len(in.Rules) {
		t.Errorf("%d rules, want %d", len(driver.Rules), len(in.Rules))
	}
	for i, r := range driver.Rules {
		if r.ID != in.Rules[i].ID || r.DefaultConfiguration == nil || r.DefaultConfiguration.Level != sarifLevel(in.Rules[i].Severity) {
			t.Errorf("rule %d = %+v, want %+v", i, r, in.Rules[i])
		}
	}
	if len(run.Results) != len(in.Diagnostics) {
		t.Fatalf("%d results, want %d", len(run.Results), len(in.Diagnostics))
	}
	levels := map[string]bool{"none": true, "note": true, "warning": true, "error": true}
	for i, res := range run.Results {
		d := in.Diagnostics[i]
		if res.RuleID != d.RuleID || driver.Rules[res.RuleIndex].ID != d.RuleID {
			t.Errorf("result %d: ruleId %q, ruleIndex %d, want %q", i, res.RuleID, res.RuleIndex, d.RuleID)
		}
		if !levels[res.Level] || res.Level != sarifLevel(d.Severity) {
			t.Errorf("result %d: level %q", i, res.Level)
		}
		if res.Message.Text != d.Message {
			t.Errorf("result %d: message %q", i, res.Message.Text)
		}
		if len(res.Locations) != 1 {
			t.Fatalf("result %d: %d locations", i, len(res.Locations))
		}
		loc := res.Locations[0]
		if reg := loc.PhysicalLocation.Region; reg.StartLine != d.Line || reg.StartColumn != d.Column || reg.StartLine < 1 || reg.StartColumn < 1 {
			t.Errorf("result %d: region %+v", i, reg)
		}
		if al := loc.PhysicalLocation.ArtifactLocation; al.URIBaseID != "%SRCROOT%" || al.URI == "" {
			t.Errorf("result %d: artifactLocation %+v", i, al)
		}
		if len(loc.LogicalLocations) != 1 || loc.LogicalLocations[0].FullyQualifiedName != d.Pointer || loc.LogicalLocations[0].Kind != "member" {
			t.Errorf("result %d: logicalLocations %+v", i, loc.LogicalLocations)
		}
		if fp := res.PartialFingerprints["celint/v2"]; len(fp) != 32 || fp != fingerprint(d) {
			t.Errorf("result %d: partialFingerprints %v", i, res.PartialFingerprints)
		}
	}
	if uri := run.Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI; uri != "servers/my%20tools.yaml" {
		t.Errorf("uri = %q, want servers/my%%20tools.yaml", uri)
	}
}

func TestSARIFMissingRule(t *testing.T) {
	in := Input{
		Rules: []Rule{{ID: "a", Severity: engine.Warning}, {ID: "a", Severity: engine.Error}, {ID: "b"}},
		Diagnostics: []engine.Diagnostic{
			{File: "x.json", RuleID: "celint.input", Severity: engine.Error, Message: "cannot parse", InputError: true},
			{File: "x.json", RuleID: "b", Severity: engine.Info, Message: "m", Line: 2, Column: 3},
			{File: "y.json", RuleID: "celint.input", Severity: engine.Error, Message: "cannot read", InputError: true},
		},
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct{ Rules []struct{ ID string } }
			}
			Invocations []struct {
				ExecutionSuccessful        bool
				ToolExecutionNotifications []struct {
					Level      string
					Message    struct{ Text string }
					Descriptor struct{ ID string }
					Locations  []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string }
							Region           *struct{}
						}
					}
				}
			}
			Results []struct {
				RuleIndex int
			}
		}
	}
	out := render(t, "sarif", in)
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		ids = append(ids, r.ID)
	}
	if got := strings.Join(ids, ","); got != "a,b,celint.input" {
		t.Errorf("rules %s, want a,b,celint.input", got)
	}
	// Problems with a file as a whole are notifications of the invocation,
	// with the file and no invented region; the rest are results.
	res := log.Runs[0].Results
	if len(res) != 1 || res[0].RuleIndex != 1 {
		t.Errorf("results %+v, want the one positioned diagnostic, rule index 1", res)
	}
	if len(log.Runs[0].Invocations) != 1 {
		t.Fatalf("invocations %+v", log.Runs[0].Invocations)
	}
	inv := log.Runs[0].Invocations[0]
	if inv.ExecutionSuccessful || len(inv.ToolExecutionNotifications) != 2 {
		t.Fatalf("invocation %+v, want unsuccessful with 2 notifications", inv)
	}
	n := inv.ToolExecutionNotifications[1]
	if n.Level != "error" || n.Message.Text != "cannot read" || n.Descriptor.ID != "celint.input" || len(n.Locations) != 1 ||
		n.Locations[0].PhysicalLocation.ArtifactLocation.URI != "y.json" || n.Locations[0].PhysicalLocation.Region != nil {
		t.Errorf("notification %+v", n)
	}
	validateSARIF(t, []byte(out))
}

func TestSARIFFingerprint(t *testing.T) {
	d := engine.Diagnostic{File: "servers/a.json", RuleID: "mcp.x", Severity: engine.Error, Message: "bad", Pointer: "/tools/0", Line: 3, Column: 4}
	fp := fingerprint(d)

	// The documented recipe, pinned: changing it changes every alert's
	// identity in code scanning, so it needs a new key (it was celint/v1 while the message was part of it). The
	// message is not part of it: rewording one keeps the alert.
	sum := sha256.Sum256([]byte("mcp.x\x00servers/a.json\x00/tools/0\x00"))
	if want := hex.EncodeToString(sum[:])[:32]; fp != want {
		t.Errorf("fingerprint = %s, want %s", fp, want)
	}
	if fingerprint(d) != fp {
		t.Error("fingerprint is not deterministic")
	}

	moved := d
	moved.Line, moved.Column, moved.Severity, moved.Message = 30, 1, engine.Warning, "reworded"
	if fingerprint(moved) != fp {
		t.Error("fingerprint changed when the finding moved, changed severity or was reworded")
	}
	for name, change := range map[string]func(*engine.Diagnostic){
		"rule":    func(d *engine.Diagnostic) { d.RuleID = "mcp.y" },
		"file":    func(d *engine.Diagnostic) { d.File = "servers/b.json" },
		"pointer": func(d *engine.Diagnostic) { d.Pointer = "/tools/1" },
		// The separator keeps fields from running into each other.
		"boundary": func(d *engine.Diagnostic) { d.RuleID, d.File = "mcp.xservers", "/a.json" },
	} {
		c := d
		change(&c)
		if fingerprint(c) == fp {
			t.Errorf("fingerprint unchanged when the %s changed", name)
		}
	}
}

func TestSARIFURI(t *testing.T) {
	tests := []struct{ file, uri, base string }{
		{"servers/a.json", "servers/a.json", "%SRCROOT%"},
		{"./servers/a.json", "servers/a.json", "%SRCROOT%"},
		{"my tools/ä.yaml", "my%20tools/%C3%A4.yaml", "%SRCROOT%"},
		{"a:b.json", "a%3Ab.json", "%SRCROOT%"},
		{"100%#?.json", "100%25%23%3F.json", "%SRCROOT%"},
		{"../up.json", "../up.json", "%SRCROOT%"},
		{"/abs/a b.json", "file:///abs/a%20b.json", ""},
	}
	for _, tt := range tests {
		uri, base := sarifURI(tt.file)
		if uri != tt.uri || base != tt.base {
			t.Errorf("sarifURI(%q) = %q, %q; want %q, %q", tt.file, uri, base, tt.uri, tt.base)
		}
	}
}
