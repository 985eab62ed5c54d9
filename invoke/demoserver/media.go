package demoserver

import "encoding/base64"

// Minimal media fixtures, as the conformance suite suggests.
const (
	// pngBase64 is a 1x1 red PNG.
	pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
	// wavBase64 is a one-sample 8 kHz mono 16-bit WAV (silence).
	wavBase64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="
)

// pngData returns the PNG fixture's bytes.
func pngData() []byte { return mustBase64(pngBase64) }

// wavData returns the WAV fixture's bytes.
func wavData() []byte { return mustBase64(wavBase64) }

func mustBase64(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic("demoserver: bad embedded fixture: " + err.Error())
	}
	return b
}
