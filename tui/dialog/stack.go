package dialog

// Stack is the overlay: dialogs over the workbench, the last one on top.
// Only the top one takes keys; closing it shows the one below.
type Stack []Dialog

// Push opens d on top.
func (s *Stack) Push(d Dialog) { *s = append(*s, d) }

// Top is the dialog that takes keys, or nil when none is open.
func (s Stack) Top() Dialog {
	if len(s) == 0 {
		return nil
	}
	return s[len(s)-1]
}

// Remove closes d wherever it is in the stack.
func (s *Stack) Remove(d Dialog) {
	for i := len(*s) - 1; i >= 0; i-- {
		if (*s)[i] == d {
			*s = append((*s)[:i], (*s)[i+1:]...)
			return
		}
	}
}

// RemoveIf closes every dialog drop matches and reports how many it closed.
func (s *Stack) RemoveIf(drop func(Dialog) bool) int {
	n := 0
	for i := len(*s) - 1; i >= 0; i-- {
		if drop((*s)[i]) {
			*s = append((*s)[:i], (*s)[i+1:]...)
			n++
		}
	}
	return n
}

// Any reports whether some open dialog matches.
func (s Stack) Any(match func(Dialog) bool) bool {
	for _, d := range s {
		if match(d) {
			return true
		}
	}
	return false
}

// ScrollBy scrolls the top dialog's body n lines, when it scrolls.
func (s Stack) ScrollBy(n int) {
	if d, ok := s.Top().(scroller); ok {
		d.ScrollBy(n)
	}
}
