//go:build !unix

package oauth

const oNoFollow = 0
