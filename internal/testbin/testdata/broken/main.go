// Command broken does not compile, on purpose: testbin's test of a failed
// build.
package main

func main() { undefinedOnPurpose() }
