package main

import "runtime"

// exeSuffix is what the go command appends to a program's name here.
func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}
