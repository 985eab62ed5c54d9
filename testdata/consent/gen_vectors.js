// Regenerates vectors.json: node testdata/consent/gen_vectors.js > testdata/consent/vectors.json
// Every expected value is computed here, in JavaScript, never by the Go code under test.
'use strict';
const { canon, fingerprint, digest } = require('./canonical.js');

const fp = [
  { name: 'utf16 key order: supplementary sorts before U+FF61 (Go byte order says the opposite)',
    command: '/bin/x', args: [], env: [['\uFF61', 'a'], ['\u{1F600}', 'b'], ['a', 'c'], ['B', 'd'], ['_', 'e'], ['\u00e9', 'f']], cwd: '/w' },
  { name: 'utf16 key order: U+10000 before U+E000',
    command: '/bin/x', args: [], env: [['\uE000', '1'], ['\u{10000}', '2'], ['\uFFFF', '3']], cwd: '/w' },
  { name: 'html characters are not escaped', command: '/bin/x', args: ['<script>', 'a&b', '>'], env: [], cwd: '/w' },
  { name: 'U+2028 and U+2029 are not escaped', command: '/bin/x', args: ['\u2028', 'x\u2029y'], env: [], cwd: '/w' },
  { name: 'C0 controls: short escapes and lowercase \\u00xx; DEL verbatim',
    command: '/bin/x', args: ['\u0000\u0001\u001f', '\b\f\n\r\t', '\u007f', '\u000b\u001b'], env: [], cwd: '/w' },
  { name: 'quote, backslash, solidus', command: '/bin/"q"', args: ['"', '\\', '/'], env: [], cwd: '/w/\\' },
  { name: 'non-BMP and U+FFFD verbatim', command: '/bin/x', args: ['\u{1F600}', '\u{10FFFF}', '\uFFFD'], env: [], cwd: '/w/\u{1F4C1}' },
  { name: 'secret-ref shapes: only a whole {{secrets.NAME}} is a reference',
    command: '/bin/x', args: [],
    env: [['A', '{{secrets.k}}'], ['B', ' {{secrets.k}}'], ['C', '{{secrets.}}'], ['D', '{{secrets.a b}}'],
          ['E', '{{ secrets.k }}'], ['F', '{{secrets.x.y-z_1}}'], ['G', '{{secrets.k}}}'], ['H', 'secret-ref']],
    cwd: '/w' },
  { name: 'swapping the secret name changes the digest', command: '/bin/x', args: [], env: [['A', '{{secrets.b}}']], cwd: '/w' },
  { name: 'empty strings everywhere', command: '/bin/x', args: ['', ''], env: [['E', '']], cwd: '/' },
  { name: 'many args keep their order', command: '/usr/bin/npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp', '--', 'z', 'a'],
    env: [['NODE_ENV', 'production'], ['TOKEN', '{{secrets.gh_token}}']], cwd: '/home/u/app' },
];

const values = [
  '[1e21,1e20,1e-7,1.5e-7,-1e-7,0.000001,-0,0,0.1,100,5e-324,1.7976931348623157e308,123456789012345680000,9007199254740991,-9007199254740991,2.5e-10,1e100]',
  '{"b":true,"a":null,"c":false,"\\u00e9":[],"\\ud83d\\ude00":{},"\\uff61":{"z":1,"Z":2,"_":3}}',
  '{"nested":{"k2":[{"y":"\\u2028","x":"<&>"}],"k1":"\\u0000"},"":""}',
  '["\\u001f\\u007f\\u0080\\u009f","\\"\\\\\\/"]',
];

const out = {
  generated_by: 'node testdata/consent/gen_vectors.js (node ' + process.version + ')',
  fingerprints: fp.map((v) => ({ ...v, canonical: fingerprint(v.command, v.args, v.env, v.cwd), digest: digest(v.command, v.args, v.env, v.cwd) })),
  values: values.map((input) => ({ input, canonical: canon(JSON.parse(input)) })),
};
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
