module github.com/relavium/relavium

go 1.26.8

require (
	github.com/mattn/go-isatty v0.0.24
	github.com/spf13/pflag v1.1.0
)

require golang.org/x/sys v0.50.0 // indirect
