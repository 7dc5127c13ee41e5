package report

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/celint/celint/engine"
	"github.com/celint/celint/loader"
)

// sarifPrinter prints a SARIF 2.1.0 log; see the package comment.
type sarifPrinter struct{}

// sarifStream keeps the files of a SARIF log, as wholeStream does, and
// makes the fixes of each file's results when the file comes, while its
// source is at hand: the log keeps the fixes, not the sources.
type sarifStream struct {
	wholeStream
	fixes map[int]*sarifFix // by index in in.Diagnostics
}

func newSARIFStream(w io.Writer, in Input) Stream {
	return &sarifStream{wholeStream: wholeStream{w: w, in: in}, fixes: map[int]*sarifFix{}}
}

func (s *sarifStream) File(f File) error {
	fx := fixer{name: f.Name, src: f.Source, opts: loader.DefaultOptions(), budget: sarifFixBytes}
	if f.LoadOptions != nil {
		fx.opts = *f.LoadOptions
	}
	for j, d := range f.Diagnostics {
		if fix := fx.fix(d); fix != nil {
			s.fixes[len(s.in.Diagnostics)+j] = fix
		}
	}
	return s.wholeStream.File(f)
}

func (s *sarifStream) Close(rules []Rule) error {
	s.in.Rules = rules
	return printSARIF(s.w, s.in, s.fixes)
}

const (
	sarifSchema      = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion     = "2.1.0"
	sarifSrcRoot     = "%SRCROOT%"
	sarifFingerprint = "celint/v2"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Artifacts   []sarifArtifact   `json:"artifacts,omitempty"`
	Results     []sarifResult     `json:"results"`
	ColumnKind  string            `json:"columnKind"`
}

// sarifArtifact is a file the run used that is not a result's: the config
// file, with the role "userSpecifiedConfiguration".
type sarifArtifact struct {
	Location   sarifArtifactLocation `json:"location"`
	Roles      []string              `json:"roles"`
	Properties *sarifArtifactProps   `json:"properties,omitempty"`
}

// sarifArtifactProps is the property bag of a checked file: the rulesets
// that checked it.
type sarifArtifactProps struct {
	Rulesets []string `json:"rulesets"`
}

// sarifInvocation says whether the run completed, and carries the problems
// with a file as a whole (one that cannot be read, a pattern that matches
// nothing) as notifications: they have no place in the file to be results
// at.
type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level     string               `json:"level"`
	Message   sarifText            `json:"message"`
	Locations []sarifFileLocation  `json:"locations,omitempty"`
	Rule      *sarifReportingDescr `json:"descriptor,omitempty"`
}

type sarifFileLocation struct {
	PhysicalLocation struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	} `json:"physicalLocation"`
}

type sarifReportingDescr struct {
	ID string `json:"id"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Version        string      `json:"version,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string              `json:"id"`
	ShortDescription     *sarifText          `json:"shortDescription,omitempty"`
	FullDescription      *sarifText          `json:"fullDescription,omitempty"`
	HelpURI              string              `json:"helpUri,omitempty"`
	Help                 *sarifHelp          `json:"help,omitempty"`
	DefaultConfiguration *sarifConfiguration `json:"defaultConfiguration,omitempty"`
}

// sarifHelp is a rule's documentation, as plain text and as Markdown.
type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	RelatedLocations    []sarifLocation    `json:"relatedLocations,omitempty"`
	Fixes               []sarifFix         `json:"fixes,omitempty"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
	Properties          *sarifProperties   `json:"properties,omitempty"`
}

// sarifSuppression says how a result is suppressed: "inSource" or
// "external".
type sarifSuppression struct {
	Kind string `json:"kind"`
}

type sarifLocation struct {
	ID               *int                   `json:"id,omitempty"`
	Message          *sarifText             `json:"message,omitempty"`
	PhysicalLocation sarifPhysicalLocation  `json:"physicalLocation"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           sarifRegion           `json:"region"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifLogicalLocation struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// sarifProperties is the property bag of a result that is not a finding
// about the document but a failure to check it.
type sarifProperties struct {
	Code       string   `json:"code,omitempty"`
	Aliases    []string `json:"aliases,omitempty"`
	RuleError  bool     `json:"ruleError,omitempty"`
	InputError bool     `json:"inputError,omitempty"`
}

func (sarifPrinter) Print(w io.Writer, in Input) error {
	fixes := map[int]*sarifFix{}
	fixers := map[string]*fixer{}
	for i, d := range in.Diagnostics {
		if len(d.Fix) == 0 {
			continue
		}
		fx := fixers[d.File]
		if fx == nil {
			opts, ok := in.LoadOptions[d.File]
			if !ok {
				opts = loader.DefaultOptions()
			}
			fx = &fixer{name: d.File, src: in.Sources[d.File], opts: opts, budget: sarifFixBytes}
			fixers[d.File] = fx
		}
		if fix := fx.fix(d); fix != nil {
			fixes[i] = fix
		}
	}
	return printSARIF(w, in, fixes)
}

// printSARIF writes the log of in, the results with fixes[i] the fix of
// in.Diagnostics[i] when there is one.
func printSARIF(w io.Writer, in Input, fixes map[int]*sarifFix) error {
	driver := sarifDriver{
		Name:           toolName,
		InformationURI: toolURI,
		Version:        in.ToolVersion,
		Rules:          []sarifRule{},
	}
	index := make(map[string]int)
	addRule := func(r sarifRule) {
		if _, ok := index[r.ID]; !ok {
			index[r.ID] = len(driver.Rules)
			driver.Rules = append(driver.Rules, r)
		}
	}
	for _, r := range in.Rules {
		sr := sarifRule{
			ID:                   r.ID,
			HelpURI:              r.HelpURI,
			DefaultConfiguration: &sarifConfiguration{Level: sarifLevel(r.Severity)},
		}
		if r.Title != "" {
			sr.ShortDescription = &sarifText{Text: r.Title}
		}
		if r.Description != "" {
			sr.FullDescription = &sarifText{Text: r.Description}
		}
		if r.Help != nil {
			if text, markdown, err := r.Help(); err == nil && text != "" {
				sr.Help = &sarifHelp{Text: text, Markdown: markdown}
			}
		}
		addRule(sr)
	}
	for _, d := range in.Diagnostics {
		addRule(sarifRule{ID: d.RuleID})
	}
	for _, sd := range in.Suppressed {
		addRule(sarifRule{ID: sd.RuleID})
	}

	inv := sarifInvocation{ExecutionSuccessful: true}
	var results []sarifEntry
	for i, d := range in.Diagnostics {
		if d.RuleError || d.InputError {
			inv.ExecutionSuccessful = false
		}
		if d.Line == 0 {
			uri, base := sarifURI(d.File)
			n := sarifNotification{Level: sarifLevel(d.Severity), Message: sarifText{Text: d.Message}, Rule: &sarifReportingDescr{ID: d.RuleID}}
			var fl sarifFileLocation
			fl.PhysicalLocation.ArtifactLocation = sarifArtifactLocation{URI: uri, URIBaseID: base}
			n.Locations = []sarifFileLocation{fl}
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, n)
			continue
		}
		results = append(results, sarifEntry{d: d, fix: fixes[i]})
	}
	if len(in.Suppressed) > 0 {
		// The suppressed findings among the others, in report order.
		for _, sd := range in.Suppressed {
			if sd.Line > 0 {
				results = append(results, sarifEntry{d: sd.Diagnostic, suppression: sd.Kind})
			}
		}
		slices.SortStableFunc(results, func(a, b sarifEntry) int { return engine.CompareDiagnostics(a.d, b.d) })
	}

	var artifacts []sarifArtifact
	if in.Config != "" {
		uri, base := sarifURI(in.Config)
		artifacts = []sarifArtifact{{Location: sarifArtifactLocation{URI: uri, URIBaseID: base}, Roles: []string{"userSpecifiedConfiguration"}}}
	}
	// Each file checked, with the rulesets that checked it.
	for _, f := range slices.Sorted(slices.Values(in.Files)) {
		uri, base := sarifURI(f)
		a := sarifArtifact{Location: sarifArtifactLocation{URI: uri, URIBaseID: base}, Roles: []string{"analysisTarget"}}
		if rs := in.Rulesets[f]; len(rs) > 0 {
			a.Properties = &sarifArtifactProps{Rulesets: rs}
		}
		artifacts = append(artifacts, a)
	}
	log := sarifLog{
		Schema:  sarifSchema,
		Version: sarifVersion,
		Runs: []sarifRun{{
			Tool:        sarifTool{Driver: driver},
			Invocations: []sarifInvocation{inv},
			Artifacts:   artifacts,
			Results:     []sarifResult{}, // each written in turn by encodeJSON
			ColumnKind:  "unicodeCodePoints",
		}},
	}
	return encodeJSON(w, log, jsonHole{member: "results", depth: 3, n: len(results), elem: func(i int) any {
		e := results[i]
		res := newSARIFResult(e.d, index[e.d.RuleID], e.fix)
		if e.suppression != "" {
			res.Suppressions = []sarifSuppression{{Kind: e.suppression}}
		}
		return res
	}})
}

// sarifEntry is a diagnostic that is a result: its fix, and how it is
// suppressed ("" for not).
type sarifEntry struct {
	d           engine.Diagnostic
	fix         *sarifFix
	suppression string
}

// newSARIFResult is d, which has a line, as a result of the rule at
// ruleIndex, with fix when it is not nil.
func newSARIFResult(d engine.Diagnostic, ruleIndex int, fix *sarifFix) sarifResult {
	uri, base := sarifURI(d.File)
	loc := sarifLocation{PhysicalLocation: sarifPhysicalLocation{
		ArtifactLocation: sarifArtifactLocation{URI: uri, URIBaseID: base},
		Region:           sarifRegion{StartLine: max(d.Line, 1), StartColumn: max(d.Column, 1)},
	}}
	if d.EndLine > 0 && (d.EndLine > d.Line || d.EndLine == d.Line && d.EndColumn > d.Column) {
		loc.PhysicalLocation.Region.EndLine, loc.PhysicalLocation.Region.EndColumn = d.EndLine, d.EndColumn
	}
	if d.Pointer != "" {
		loc.LogicalLocations = []sarifLogicalLocation{{FullyQualifiedName: d.Pointer, Kind: "member"}}
	}
	var related []sarifLocation
	for j, rel := range d.Related {
		id := j + 1
		rl := sarifLocation{ID: &id, Message: &sarifText{Text: rel.Message}, PhysicalLocation: sarifPhysicalLocation{
			ArtifactLocation: sarifArtifactLocation{URI: uri, URIBaseID: base},
			Region:           sarifRegion{StartLine: max(rel.Line, 1), StartColumn: max(rel.Column, 1)},
		}}
		if rel.Pointer != "" {
			rl.LogicalLocations = []sarifLogicalLocation{{FullyQualifiedName: rel.Pointer, Kind: "member"}}
		}
		related = append(related, rl)
	}
	res := sarifResult{
		RuleID:              d.RuleID,
		RuleIndex:           ruleIndex,
		Level:               sarifLevel(d.Severity),
		Message:             sarifText{Text: d.Message},
		Locations:           []sarifLocation{loc},
		RelatedLocations:    related,
		PartialFingerprints: map[string]string{sarifFingerprint: fingerprint(d)},
	}
	if fix != nil {
		res.Fixes = []sarifFix{*fix}
	}
	if d.RuleError || d.InputError || d.Code != "" || len(d.Aliases) > 0 {
		res.Properties = &sarifProperties{Code: d.Code, Aliases: d.Aliases, RuleError: d.RuleError, InputError: d.InputError}
	}
	return res
}

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(s engine.Severity) string {
	switch s {
	case engine.Error:
		return "error"
	case engine.Warning:
		return "warning"
	}
	return "note"
}

// sarifURI turns a file path into a URI reference: a relative path becomes a
// relative reference under %SRCROOT% with forward slashes and escaped
// segments; an absolute path becomes a file: URI with no base.
func sarifURI(file string) (uri, base string) {
	p := filepath.ToSlash(file)
	if filepath.IsAbs(file) || strings.HasPrefix(p, "/") {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // a Windows drive: file:///C:/...
		}
		return (&url.URL{Scheme: "file", Path: p}).String(), ""
	}
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		// PathEscape keeps ':', which would make a first segment such as
		// "a:b.json" read as a scheme.
		segs[i] = strings.ReplaceAll(url.PathEscape(s), ":", "%3A")
	}
	return strings.Join(segs, "/"), sarifSrcRoot
}

// fingerprint identifies a finding independently of its line, column and
// message text (which a new celint may word better): the first 32 hex
// digits of the SHA-256 of its rule id and code, file (with forward
// slashes) and pointer, separated by NUL bytes.
func fingerprint(d engine.Diagnostic) string {
	h := sha256.New()
	for _, s := range []string{d.Label(), filepath.ToSlash(d.File), d.Pointer} {
		io.WriteString(h, s)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}
