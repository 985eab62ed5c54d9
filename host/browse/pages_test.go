package browse

import (
	"errors"
	"strconv"
	"testing"
)

// TestListPagesFollowsCursorsUnderTheCap: a listing walks cursors until an
// empty one, stops at the first error, and a server that never stops
// paging is cut at MaxPages with an error naming the method.
func TestListPagesFollowsCursorsUnderTheCap(t *testing.T) {
	var seen []string
	err := Pages("x/list", func(cursor string) (string, error) {
		seen = append(seen, cursor)
		if len(seen) == 3 {
			return "", nil
		}
		return "c" + strconv.Itoa(len(seen)), nil
	})
	if err != nil || len(seen) != 3 || seen[0] != "" || seen[1] != "c1" || seen[2] != "c2" {
		t.Fatalf("walk saw %q, err %v", seen, err)
	}

	boom := errors.New("boom")
	calls := 0
	if err := Pages("x/list", func(string) (string, error) { calls++; return "again", boom }); err != boom || calls != 1 {
		t.Fatalf("error: %v after %d calls", err, calls)
	}

	calls = 0
	err = Pages("prompts/list", func(string) (string, error) { calls++; return "same", nil })
	if err == nil || err.Error() != "prompts/list: more than 100 pages" || calls != MaxPages {
		t.Fatalf("endless walk: %v after %d calls", err, calls)
	}
}
