package discovery

import (
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// compileCache compiles each distinct schema of one walk once: tools that
// share a schema (the same canonical source, as servers generated from one
// type often do) share its validator, which is read-only once resolved. A
// refusal is cached too, with its reason, so a schema that does not compile
// is refused the same way for every tool that carries it. What the cache
// keeps is bounded (by source bytes and schema objects, as the discovery
// budget is); past that, schemas are compiled uncached.
type compileCache struct {
	mu      sync.Mutex
	entries map[string]*compiled
	bytes   int
	objects int
}

type compiled struct {
	once sync.Once
	rs   *jsonschema.Resolved
	src  []byte
	sk   *skip
}

// compileCacheBytes bounds the cached sources (and so the validators kept
// for tools that were then refused).
const compileCacheBytes = MaxPayload

func newCompileCache() *compileCache { return &compileCache{entries: map[string]*compiled{}} }

// compile is compileSchema through the cache (nil: no cache); objects is
// the schema's count of schema objects (what its validator costs).
func (c *compileCache) compile(root *node, field string, objects int) (*jsonschema.Resolved, []byte, *skip) {
	src := compileSource(root)
	if c == nil {
		return compileFrom(root, src, field)
	}
	key := field + "\x00" + string(src)
	c.mu.Lock()
	e, ok := c.entries[key]
	if !ok && c.bytes+len(key) <= compileCacheBytes && c.objects+objects <= MaxSchemaObjects {
		e = &compiled{}
		c.entries[key] = e
		c.bytes += len(key)
		c.objects += objects
		ok = true
	}
	c.mu.Unlock()
	if !ok {
		return compileFrom(root, src, field)
	}
	e.once.Do(func() { e.rs, e.src, e.sk = compileFrom(root, src, field) })
	return e.rs, e.src, e.sk
}
