// Emscripten 3.1.6's ES module output still reaches for CommonJS's require and __dirname under
// Node.js: give it both there, and nothing in a browser.
const fastblakeOnNode =
    typeof process === 'object' && typeof process.versions?.node === 'string';
const require =
    fastblakeOnNode ? (await import('node:module')).createRequire(import.meta.url) : undefined;
const __dirname = fastblakeOnNode ?
    require('node:path').dirname(require('node:url').fileURLToPath(import.meta.url)) :
    '';
