package cli

import (
	"strings"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/netguard"
)

// AdhocHeaders reads the repeatable --header 'Name: value' of an ad-hoc
// --url server: each name and value is checked as a config `headers` entry
// is (the network guard's rules), a {{secrets.NAME}} in a value is resolved
// at connect like one, and every refusal is E593 naming the header, never
// its value.
func AdhocHeaders(flags []string) ([]config.Header, error) {
	if len(flags) > netguard.MaxHeaders {
		return nil, UsageErr(CodeBadHeader, "%d --header flags; a server takes at most %d", len(flags), netguard.MaxHeaders)
	}
	var out []config.Header
	seen := map[string]bool{}
	total := 0
	for i, f := range flags {
		name, value, ok := strings.Cut(f, ":")
		if !ok {
			return nil, UsageErr(CodeBadHeader, "--header #%d has no ':'; write it as 'Name: value' (e.g. --header 'Authorization: Bearer {{secrets.linear}}')", i+1)
		}
		value = strings.TrimLeft(value, " \t") // the blank after the colon, as curl writes it
		if fault, why := netguard.CheckHeaderName(name); fault != netguard.HeaderOK {
			return nil, UsageErr(CodeBadHeader, "--header #%d: %s", i+1, why)
		}
		if l := strings.ToLower(name); seen[l] {
			return nil, UsageErr(CodeBadHeader, "--header %s is given twice; header names are case-insensitive", name)
		} else {
			seen[l] = true
		}
		if _, _, ok := consent.SecretTemplate(value); !ok {
			return nil, UsageErr(CodeBadHeader, "--header %s: a {{…}} in the value must be a whole {{secrets.NAME}} or {{env.VAR}} reference; anything else would be sent literally", name)
		}
		if fault, why := netguard.CheckHeaderValue(value); fault != netguard.HeaderOK {
			return nil, UsageErr(CodeBadHeader, "--header %s: %s", name, why)
		}
		total += len(name) + len(value)
		out = append(out, config.Header{Name: name, Value: value})
	}
	if total > netguard.MaxHeaderTotalSize {
		return nil, UsageErr(CodeBadHeader, "the --header flags come to %d bytes; a server's headers are at most %d", total, netguard.MaxHeaderTotalSize)
	}
	return out, nil
}
