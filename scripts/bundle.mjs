// The launcher runs the bundled CLI: a few modules (React in its production build) start in
// about half the time of loading the compiled tree file by file. It is bundled twice: as ES
// modules, the dashboard a chunk of its own, so `serve` and the subcommands never load Ink and
// React; and as one script for the dashboard, which starts from V8's code cache (see below).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// Chunk names carry a hash: without this, every build would leave the previous ones behind.
// (The data files copied beside them stay.)
for (const dir of [`${root}dist/bundle`, `${root}dist/bundle/chunks`]) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    continue;
  }
  for (const name of names) if (/\.(mjs|cjs)(\.map)?$/.test(name)) rmSync(`${dir}/${name}`);
}

/** What both builds do to the packages they bundle. */
const plugins = [
  {
    // jsonc-parser's `main` is a UMD module whose requires esbuild cannot follow (they go
    // through the factory's parameter), so the bundle would require ./impl/format at run time
    // and fail. Its `module` field names an ES module build of the same code: bundle that.
    name: 'jsonc-parser-esm',
    setup(b) {
      const manifest = createRequire(import.meta.url).resolve('jsonc-parser/package.json');
      const esm = join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).module);
      b.onResolve({ filter: /^jsonc-parser$/ }, () => ({ path: esm }));
    },
  },
  {
    // Ink loads its React devtools bridge only with DEV=true and react-devtools-core installed
    // (it is not); the bridge awaits at its top level, which the dashboard's script cannot hold.
    // Both builds leave it out.
    name: 'no-ink-devtools',
    setup(b) {
      b.onResolve({ filter: /\/devtools\.js$/ }, (args) =>
        args.importer.includes(`${'node_modules'}/ink/`) ? { path: 'ink-devtools', namespace: 'empty' } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};', loader: 'js' }));
    },
  },
  {
    // Every text a frame draws is measured, by Ink and the libraries it draws with, and
    // string-width is slow on anything but ASCII (borders, arrows, sparklines, names): the first
    // such text builds its emoji regex (~25 ms), and each goes through Intl.Segmenter and three
    // Unicode-property regexes. They are given ours instead (src/text/string-width-memo.ts): the
    // same answers, from a table of the BMP's widths where a text allows, remembered otherwise.
    // A choice of module, as the others here: no package's code is changed (docs/patches.md).
    // Only imports of the same string-width are redirected; a package with its own keeps it.
    name: 'memoized-string-width',
    setup(b) {
      const memo = `${root}src/text/string-width-memo.ts`;
      // The modules the remembering one is made of ask string-width itself.
      const behindMemo = new Set([memo, `${root}src/text/simple-width.ts`]);
      // As esbuild reports paths: through any symlink (a node_modules linked from elsewhere).
      const ours = realpathSync(join(root, 'node_modules', 'string-width', 'index.js'));
      const redirected = new Set();
      b.onResolve({ filter: /^string-width$/ }, async (args) => {
        if (behindMemo.has(args.importer) || args.pluginData === 'as-is') return undefined;
        const real = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'as-is' });
        if (real.errors.length > 0 || real.path !== ours) return undefined;
        redirected.add(args.importer);
        return { path: memo };
      });
      b.onEnd((result) => {
        if (result.errors.length > 0 || [...redirected].some((file) => /ink[\\/]build[\\/]output\.js$/.test(file))) return undefined;
        return { errors: [{ text: "Ink's output no longer imports string-width: see src/text/string-width-memo.ts" }] };
      });
    },
  },
];

// Node 24's ES-module face of node:http reads each of its exports as it is made, WebSocket among
// them, which loads Node's own undici: 35-100 ms of a start, for nothing. `require` gives the
// module without that; so the ES modules take node:http as the CommonJS script does.
const httpByRequire = {
  name: 'http-by-require',
  setup(b) {
    b.onResolve({ filter: /^(node:)?http$/ }, (args) => (args.kind === 'require-call' ? undefined : { path: 'node:http', namespace: 'http-by-require' }));
    b.onLoad({ filter: /.*/, namespace: 'http-by-require' }, () => ({ contents: "module.exports = require('node:http');", loader: 'js' }));
  },
};

/** Both builds: one tree of modules, minified, with what the edits above make of it. */
const common = {
  entryPoints: [`${root}src/cli/main.ts`],
  bundle: true,
  platform: 'node',
  target: 'node22',
  // Node 20 has the v flag, but esbuild's table says it came later and turns /…/v literals into
  // new RegExp(…, 'v'), built as the module loads: string-width's \p{RGI_Emoji} alone took ~17 ms
  // of every start, for a regex the dashboard rarely asks (a literal is compiled when first used).
  supported: { 'regexp-set-notation': true },
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  // The native addon stays a package.
  external: ['better-sqlite3'],
  logLevel: 'warning',
};

// The subcommands' bundle: ES modules, each command's code a chunk loaded when it runs.
await build({
  ...common,
  outdir: `${root}dist/bundle`,
  entryNames: 'tickbook',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  format: 'esm',
  plugins: [httpByRequire, ...plugins],
  define: { 'process.env.NODE_ENV': '"production"' },
  // Bundled CommonJS packages (React, yoga) still call require for Node built-ins.
  banner: { js: "import { createRequire as __tickbookRequire } from 'node:module'; const require = __tickbookRequire(import.meta.url);" },
});

// The dashboard's bundle: the same CLI as one CommonJS script, which the launcher runs through
// node:vm with a V8 code cache (src/launch/dashboard-script.ts). Node 20 can keep compiled code
// only for a script: an ES module has no cache until Node 22's module.enableCompileCache.
const dashboard = await build({
  ...common,
  outfile: `${root}dist/bundle/dashboard.cjs`,
  format: 'cjs',
  // import() in a script run by node:vm needs an experimental loader: esbuild makes it require.
  supported: { ...common.supported, 'dynamic-import': false },
  plugins,
  define: { 'process.env.NODE_ENV': '"production"', 'import.meta.url': '__tickbookModuleUrl' },
  // The directive first: esbuild's own comes after the banner, where it would count for nothing,
  // and the script would run in sloppy mode, unlike the modules it is made of.
  banner: { js: "\"use strict\";const __tickbookModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  write: false,
});
for (const file of dashboard.outputFiles) {
  let text = file.text;
  if (file.path.endsWith('.cjs')) {
    if (/\bimport\(/.test(text)) throw new Error('dist/bundle/dashboard.cjs still holds an import(): node:vm would refuse it');
    // V8 checks a cache against the source's length only: the cache is named by this instead.
    text += `//# tickbook-build=${createHash('sha256').update(text).digest('hex').slice(0, 16)}\n`;
  }
  writeFileSync(file.path, text);
}
