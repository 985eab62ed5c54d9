package machine

import "github.com/relavium/relavium/fault"

// The invoker's error codes; the serving layers declare E427–E430, E433 and
// E434 beside what raises them. E421 (invoke.CodeNotExposed) is shared with
// the child's path check in invoke. E450 (a run whose plan moved;
// workflow.CodePlanChanged) and E460 (invoke.CodeOperationLocked) are the
// child's and come back unchanged.
const (
	CodeInvalidRequest fault.Code = "E420" // a request that is not valid for the command
	CodeNoDocument     fault.Code = "E422" // the child did not print exactly one JSON object
	CodeTimeout        fault.Code = "E423" // the child timed out or the request was cancelled
	CodeBadConfirm     fault.Code = "E424" // a reused, expired, unknown or mismatched confirmation (another session, tool or request)
	CodeInvokerFlag    fault.Code = "E425" // the request set a consent, plan or plan-id flag
	CodeNoSuchCommand  fault.Code = "E432" // no command at that path
)
