// fastblake for CommonJS programs. fastblake.mjs loads its WebAssembly with top-level await,
// which require() cannot wait for (Node.js refuses with ERR_REQUIRE_ASYNC_MODULE, or
// ERR_REQUIRE_ESM before 20.19): so this entry gives load(), which resolves to that module.
'use strict';

let loading;

/** The ES module fastblake.mjs (blake3, Blake3, blake2b, Blake2...), loaded on the first call. */
function load() {
  loading ??= import('./fastblake.mjs');
  return loading;
}

module.exports = { load };

// The API's names, read from require('fastblake') itself, throw an error that names the fix
// rather than give undefined (and a later "blake3 is not a function").
const apiNames = ['version', 'backend', 'availableBackends', 'useBackend', 'toHex', 'blake3', 'Blake3',
                  'blake2b', 'blake2s', 'blake2bp', 'blake2sp', 'blake2xb', 'blake2xs', 'Blake2'];
for (const name of apiNames) {
  Object.defineProperty(module.exports, name, {
    get() {
      throw new Error(`fastblake: require('fastblake').${name} does not exist: the module loads ` +
                      'its WebAssembly asynchronously, which require() cannot wait for. Use ' +
                      `import { ${name} } from 'fastblake', or ` +
                      `const { ${name} } = await require('fastblake').load()`);
    },
  });
}
