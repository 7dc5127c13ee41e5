package report

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// TestConfigSchemaFormats: the format enum of the .celint.yaml JSON Schema
// (docs/celint-config.schema.json) is the list of formats this package
// prints, in the same order.
func TestConfigSchemaFormats(t *testing.T) {
	data, err := os.ReadFile("../../docs/celint-config.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties struct {
			Format struct {
				Enum []string `json:"enum"`
			} `json:"format"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	if got, want := schema.Properties.Format.Enum, Formats(); !slices.Equal(got, want) {
		t.Errorf("docs/celint-config.schema.json: properties.format.enum is %q, want report.Formats() %q", got, want)
	}
}
