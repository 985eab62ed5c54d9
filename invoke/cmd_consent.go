package invoke

import "context"

func runConsentList(_ context.Context, inv *Invocation) (any, error) {
	return nil, &Error{ErrCode: CodeNotImplemented, Msg: inv.Cmd.Name() + " is not built yet"}
}

func runConsentDigest(_ context.Context, inv *Invocation) (any, error) {
	return nil, &Error{ErrCode: CodeNotImplemented, Msg: inv.Cmd.Name() + " is not built yet"}
}

func runConsentGrant(_ context.Context, inv *Invocation) (any, error) {
	return nil, &Error{ErrCode: CodeNotImplemented, Msg: inv.Cmd.Name() + " is not built yet"}
}

func runConsentRevoke(_ context.Context, inv *Invocation) (any, error) {
	return nil, &Error{ErrCode: CodeNotImplemented, Msg: inv.Cmd.Name() + " is not built yet"}
}
