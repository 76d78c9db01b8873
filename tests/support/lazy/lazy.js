/**
 * A module that loads the real one on first use. jest loads @pulumi/pulumi afresh for every test file, and three
 * of its parts are needed only by the tests that use them: the TypeScript compiler and @npmcli/arborist (closure
 * serialization) and the Automation API were 0.9 s of its 1.3 s. The stand-ins in this folder, named in
 * jest.config.js's moduleNameMapper, take their place inside jest: a test that serializes a closure or runs a
 * workspace gets the same modules, the others pay nothing.
 *
 * `esModule`: answer `__esModule` without loading, for the SDK's `__importStar`, which otherwise copies every key
 * at once (and so loads the module) when it imports one.
 */
module.exports = function lazy(load, { esModule = false } = {}) {
  let real;
  const get = () => (real ??= load());
  return new Proxy(
    {},
    {
      get: (_, key) => (esModule && key === "__esModule" ? true : get()[key]),
      has: (_, key) => key in get(),
      // Writes (jest.spyOn, jest.replaceProperty) go to the real module, where the reads come from.
      set: (_, key, value) => Reflect.set(get(), key, value),
      defineProperty: (_, key, descriptor) => Reflect.defineProperty(get(), key, descriptor),
      deleteProperty: (_, key) => Reflect.deleteProperty(get(), key),
      ownKeys: () => Reflect.ownKeys(get()),
      getOwnPropertyDescriptor: (_, key) => {
        const d = Reflect.getOwnPropertyDescriptor(get(), key);
        return d && { ...d, configurable: true };
      },
    },
  );
};
