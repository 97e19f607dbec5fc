// A test program under Node.js sees the environment ctest gives it, as a native one does
// (emscripten otherwise hands it a fixed, made-up environment). Emscripten reports every stream
// as a terminal, so Google Test's colours are off unless asked for: ctest matches plain text.
Module['preRun'] = [].concat(Module['preRun'] || [], () => {
  if (typeof process === 'object') Object.assign(ENV, { GTEST_COLOR: 'no' }, process.env);
});
