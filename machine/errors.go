package machine

// The invoker's error codes; the serving layers declare E427–E430, E433 and
// E434 beside what raises them. E421 (invoke.CodeNotExposed) is shared with
// the child's path check in invoke. E450 (a run whose plan moved;
// engine.CodePlanChanged) and E460 (invoke.CodeOperationLocked) are the
// child's and come back unchanged.
const (
	CodeInvalidRequest = "E420" // a request that is not valid for the command
	CodeNoDocument     = "E422" // the child did not print exactly one JSON object
	CodeTimeout        = "E423" // the child timed out or the request was cancelled
	CodeBadConfirm     = "E424" // a reused, expired, unknown or mismatched confirmation (another session, tool or request)
	CodeInvokerFlag    = "E425" // the request set a consent, plan or plan-id flag
	CodeToken          = "E426" // machine token or bind problem on sse/http
	CodeNoSuchCommand  = "E432" // no command at that path
)
