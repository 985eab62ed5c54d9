package host

import "github.com/relavium/relavium/fault"

// Error codes of the client's side of MCP (sampling, roots), in the range
// E901–E919 that package host shares with the faces.
const (
	CodeSamplingDeclined    fault.Code = "E901" // a sampling request declined: no answerer, or the person declined or went away
	CodeSamplingRateLimited fault.Code = "E902" // a server asked for sampling too often: declined unasked
	CodeBadRoot             fault.Code = "E903" // a root that is not an absolute path to an existing directory
)

var clientCodes = fault.Table{
	{Code: CodeSamplingDeclined, Class: fault.Failure, Meaning: "a sampling request was declined: no one answers sampling here (headless without --sampling-reply), or the person declined or went away; the server gets this code"},
	{Code: CodeSamplingRateLimited, Class: fault.Failure, Meaning: "a server asked for sampling more than 10 times a minute (bursts of 5): declined unasked"},
	{Code: CodeBadRoot, Class: fault.Usage, Meaning: "a root that is not an absolute path to an existing directory (symlinks resolved), or roots edited where none are offered"},
}
