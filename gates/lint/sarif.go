package lint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/relavium/relavium/engine/sanitize"
)

// SARIFSchema is the schema URI a SARIF log names.
const SARIFSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string      `json:"id"`
	Name                 string      `json:"name"`
	ShortDescription     sarifText   `json:"shortDescription"`
	DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID              string             `json:"ruleId"`
	RuleIndex           int                `json:"ruleIndex"`
	Level               string             `json:"level"`
	Message             sarifText          `json:"message"`
	Locations           []sarifLocation    `json:"locations"`
	PartialFingerprints map[string]string  `json:"partialFingerprints"`
	Suppressions        []sarifSuppression `json:"suppressions,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogical `json:"logicalLocations"`
	Message          *sarifText     `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifLogical struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification"`
}

// SARIF renders r as a SARIF 2.1.0 log (one run, relavium as the driver,
// every rule described). Each result is located at the server's
// declaration in the config (physical) and at server/kind/item#pointer
// (logical); a suppressed finding carries an external suppression with
// its reason.
func (r *Report) SARIF(version string) ([]byte, error) {
	rules := Rules()
	index := map[string]int{}
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "relavium", Version: version,
		InformationURI: "https://github.com/relavium/relavium", Rules: []sarifRule{}}}, Results: []sarifResult{}}
	for i, rl := range rules {
		index[rl.ID] = i
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: rl.ID, Name: rl.Name,
			ShortDescription: sarifText{Text: rl.Summary}, DefaultConfiguration: sarifConfig{Level: rl.Severity}})
	}
	for _, f := range r.Findings {
		fq := f.Server + "/" + f.Kind + "/" + f.Item + "#" + f.Pointer
		loc := sarifLocation{LogicalLocations: []sarifLogical{{Name: sanitize.Line(f.Item), FullyQualifiedName: sanitize.Line(fq), Kind: "member"}}}
		if f.source != "" {
			loc.PhysicalLocation = &sarifPhysical{ArtifactLocation: sarifArtifact{URI: f.source}}
			if f.sourceLine > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.sourceLine}
			}
		}
		sum := sha256.Sum256([]byte(f.Rule + "\x00" + fq))
		res := sarifResult{RuleID: f.Rule, RuleIndex: index[f.Rule], Level: f.Severity,
			Message:             sarifText{Text: sanitize.Line("server " + f.Server + ", " + f.Kind + " " + f.Item + " " + f.Pointer + ": " + f.Message)},
			Locations:           []sarifLocation{loc},
			PartialFingerprints: map[string]string{"relaviumFinding/v1": hex.EncodeToString(sum[:16])}}
		if f.Suppressed != "" {
			res.Suppressions = []sarifSuppression{{Kind: "external", Justification: sanitize.Line(f.Suppressed)}}
		}
		run.Results = append(run.Results, res)
	}
	b, err := json.MarshalIndent(sarifLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []sarifRun{run}}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(sanitize.EscapeJSON(b), '\n'), nil
}
