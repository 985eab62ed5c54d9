package consent

import (
	"errors"
	"strings"
	"testing"
)

// TestFoldRefusesDeepLineBeforeParse: a store line nested past 256 levels
// fails the fold with the store's code and says why, before encoding/json
// builds anything from it.
func TestFoldRefusesDeepLineBeforeParse(t *testing.T) {
	home := tempHome(t)
	writeStore(t, home, `{"v":1,"x":`+strings.Repeat("[", 30000)+"\n")
	g, err := Open(home).Fold()
	var fe *FoldError
	if !errors.As(err, &fe) || fe.Code() != CodeStoreUnreadable || fe.Line != 1 ||
		!strings.Contains(fe.Reason, "nesting deeper than 256 levels at column 267") {
		t.Fatalf("err = %v", err)
	}
	if g == nil || g.Len() != 0 {
		t.Fatal("a failed fold must hold no grants")
	}
}
