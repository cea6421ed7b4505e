// patches/ink+8.0.0.patch and patches/yoga-layout+3.2.1.patch (docs/patches.md): Ink's reconciler
// and yoga's entry hold no top-level await, so the dashboard can run as one CommonJS script from
// its code cache. Node's require() of an ES module refuses one that awaits at its top level
// (ERR_REQUIRE_ASYNC_MODULE): each is required here, as the packages are installed.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

describe('the patched packages load without a top-level await', () => {
  it("yoga-layout's entry: its wasm instantiated and laid out at once", () => {
    const { default: Yoga } = require('yoga-layout') as typeof import('yoga-layout');
    const node = Yoga.Node.create();
    node.setWidth(12);
    node.calculateLayout(undefined, undefined);
    expect(node.getComputedWidth()).toBe(12);
    node.free();
  });

  it("Ink's reconciler", () => {
    const reconciler = require(join(dirname(require.resolve('ink')), 'reconciler.js')) as { default: { createContainer: unknown } };
    expect(typeof reconciler.default.createContainer).toBe('function');
  });
});
