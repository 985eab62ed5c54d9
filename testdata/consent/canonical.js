// Independent reference for consent's canonical JSON and v1 digest, written
// from the spec's words in JavaScript (whose strings ARE UTF-16 and whose
// JSON.stringify IS the escaping the spec names). gen_vectors.js and the Go
// differential test (consent/node_test.go) both use it.
'use strict';
const crypto = require('crypto');

function canon(v) {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error('non-finite number');
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return '[' + v.map(canon).join(',') + ']';
  if (typeof v === 'object') {
    // Default comparison of JS strings is by UTF-16 code units.
    const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return '{' + keys.map((k) => JSON.stringify(k) + ':' + canon(v[k])).join(',') + '}';
  }
  throw new Error('no faithful JSON form: ' + typeof v);
}

function tag(value) {
  const m = /^\{\{secrets\.([A-Za-z0-9_.-]+)\}\}$/.exec(value);
  return m ? { kind: 'secret-ref', name: m[1] } : { kind: 'literal', value };
}

// env is a list of [name, value] pairs in authored order.
function fingerprint(command, args, env, cwd) {
  const e = {};
  for (const [k, v] of env) e[k] = tag(v);
  return canon({ transport: 'stdio', command, args: args || [], env: e, cwd });
}

function digest(command, args, env, cwd) {
  return 'v1:' + crypto.createHash('sha256').update(fingerprint(command, args, env, cwd), 'utf8').digest('hex');
}

module.exports = { canon, tag, fingerprint, digest };

// As a filter: each stdin line is {"fp":[command,args,env,cwd]} or
// {"value":<json>}; each stdout line is {"canonical":..., "digest":...}.
if (require.main === module) {
  const lines = require('fs').readFileSync(0, 'utf8').split('\n').filter((l) => l.length > 0);
  const out = [];
  for (const l of lines) {
    const req = JSON.parse(l);
    if (req.fp) {
      const [c, a, e, w] = req.fp;
      out.push(JSON.stringify({ canonical: fingerprint(c, a, e, w), digest: digest(c, a, e, w) }));
    } else {
      out.push(JSON.stringify({ canonical: canon(req.value) }));
    }
  }
  process.stdout.write(out.join('\n') + '\n');
}
