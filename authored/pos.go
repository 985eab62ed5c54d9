package authored

import "fmt"

// Pos is where an authored value sits in a file (line and column from 1).
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"column"`
}

// String is file:line:column, the file alone when the line is unknown, and
// "" when the file is.
func (p Pos) String() string {
	if p.File == "" {
		return ""
	}
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}
