package report

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestConfigPath: the config file a run used is the json report's "config"
// and the one SARIF artifact with the role "userSpecifiedConfiguration";
// without one, neither appears. The SARIF log stays valid.
func TestConfigPath(t *testing.T) {
	sch := compileSARIFSchema(t)
	for _, c := range []struct {
		config, uri, base string
	}{
		{"", "", ""},
		{".celint.yaml", ".celint.yaml", "%SRCROOT%"},
		{"../my config/.celint.yaml", "../my%20config/.celint.yaml", "%SRCROOT%"},
		{"/etc/celint/.celint.yaml", "file:///etc/celint/.celint.yaml", ""},
	} {
		in := sampleInput()
		in.Config = c.config
		var j struct {
			Config *string `json:"config"`
		}
		out := render(t, "json", in)
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatal(err)
		}
		if c.config == "" && j.Config != nil || c.config != "" && (j.Config == nil || *j.Config != c.config) {
			t.Errorf("json config = %v, want %q", j.Config, c.config)
		}
		sarif := render(t, "sarif", in)
		if err := validateSARIFWith(sch, []byte(sarif)); err != nil {
			t.Errorf("%q: SARIF is not valid against the 2.1.0 schema: %v", c.config, err)
		}
		var s struct {
			Runs []struct {
				Artifacts []sarifArtifactOf `json:"artifacts"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(sarif), &s); err != nil {
			t.Fatal(err)
		}
		// The config file comes first, then the files checked.
		arts := s.Runs[0].Artifacts
		if c.config == "" {
			if len(arts) != 3 || slices.ContainsFunc(arts, func(a sarifArtifactOf) bool { return a.Roles[0] != "analysisTarget" }) {
				t.Errorf("no config, but artifacts %+v", arts)
			}
			continue
		}
		if len(arts) != 4 || arts[0].Location.URI != c.uri || arts[0].Location.URIBaseID != c.base ||
			len(arts[0].Roles) != 1 || arts[0].Roles[0] != "userSpecifiedConfiguration" {
			t.Errorf("%q: artifacts %+v, want %s under %q as userSpecifiedConfiguration", c.config, arts, c.uri, c.base)
		}
	}
}

// sarifArtifactOf is an artifact of a SARIF run as the tests read it.
type sarifArtifactOf struct {
	Location struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId"`
	} `json:"location"`
	Roles []string `json:"roles"`
}
