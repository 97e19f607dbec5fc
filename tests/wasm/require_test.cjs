// The npm package's CommonJS entry (fastblake.cjs), required by name from a project that
// installed the tarball (npm_package_test.py require). Run as `node --test`.
'use strict';
const assert = require('node:assert/strict');
const path = require('node:path');
const test = require('node:test');

const abcBlake3 = '6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85';
const abcBlake2s = '508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982';

test('load() resolves to the whole module, once', async () => {
  const fastblake = require('fastblake');
  assert.deepEqual(Object.keys(fastblake), ['load']);
  const loading = fastblake.load();
  assert.equal(fastblake.load(), loading);
  const fb = await loading;
  assert.equal(fb.toHex(fb.blake3('abc')), abcBlake3);
  assert.equal(new fb.Blake2('blake2s').update('abc').hexDigest(), abcBlake2s);
  assert.equal(fb, await import('fastblake'));
});

test("the API's names on require('fastblake') throw an error that names the fix", () => {
  const fastblake = require('fastblake');
  for (const name of ['blake3', 'Blake3', 'blake2b', 'Blake2', 'toHex', 'version']) {
    assert.throws(() => fastblake[name], {
      name: 'Error',
      message: `fastblake: require('fastblake').${name} does not exist: the module loads its ` +
               'WebAssembly asynchronously, which require() cannot wait for. Use ' +
               `import { ${name} } from 'fastblake', or const { ${name} } = await ` +
               "require('fastblake').load()",
    });
  }
  assert.throws(() => {
    const { blake3 } = require('fastblake');
    return blake3;
  }, /await require\('fastblake'\)\.load\(\)/);
});

// Why the entry exists: the ES module itself cannot be required.
test('require() of fastblake.mjs fails for its top-level await', () => {
  const esModule = path.join(path.dirname(require.resolve('fastblake')), 'fastblake.mjs');
  assert.throws(() => require(esModule), { code: /^ERR_REQUIRE_(ASYNC_MODULE|ESM)$/ });
});
