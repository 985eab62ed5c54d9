package authored

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadYAML: whatever the input, nothing panics, every problem is
// placed in the file, and a body is handed over exactly when nothing was
// refused.
func FuzzReadYAML(f *testing.F) {
	for _, dir := range []string{filepath.Join("..", "testdata", "config"), filepath.Join("..", "testdata", "workflows")} {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(p) == ".yaml" {
				if data, err := os.ReadFile(p); err == nil {
					f.Add(data)
				}
			}
			return nil
		})
	}
	for _, s := range []string{"a: &x 1\nb: *x\n", "a: !!str 1\n", "<<: {a: 1}\n", "? [a]\n: 1\n", "a: \"\\udc00\\U00110000\\xZZ\"\n", "a: 1\n---\nb: 2\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, lone := range []bool{false, true} {
			var ps Problems
			body := ReadYAML("f.yaml", data, plain(lone), &ps)
			if body != nil && len(ps) > 0 {
				t.Fatalf("a body handed over beside problems %v", ps)
			}
			for _, p := range ps {
				if p.File != "f.yaml" || p.Line < 1 || p.Col < 1 || p.Code == "" {
					t.Fatalf("unplaced problem %+v", p)
				}
			}
		}
	})
}
