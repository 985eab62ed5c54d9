package invoke

import "context"

func runConfigValidate(_ context.Context, inv *Invocation) (any, error) {
	return nil, &Error{ErrCode: CodeNotImplemented, Msg: inv.Cmd.Name() + " is not built yet"}
}
