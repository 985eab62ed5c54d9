package loadtest

import (
	"errors"

	"github.com/relavium/relavium/fault"
)

func hasCode(err error, c fault.Code) bool {
	var f *fault.Error
	return errors.As(err, &f) && f.ErrCode == c
}
