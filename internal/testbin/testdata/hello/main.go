// Command hello is testbin's own test program: it prints its first
// argument.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) > 1 {
		fmt.Print(os.Args[1])
	}
}
