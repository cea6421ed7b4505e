// The bundle's entry: the open-file limit first, before the command line's modules load. Node
// holds ~19 descriptors of its own before the first line runs, and the loader reads a module's
// chunks at once: under `ulimit -n 20` loading them failed with EMFILE, a stack trace, instead of
// the line that says what to change.
import { openFileProblem } from './open-files.js';

const tooFewFiles = openFileProblem();
if (tooFewFiles !== undefined) {
  process.stderr.write(`tickbook: ${tooFewFiles}\n`);
  process.exit(1);
}
// A function, not top-level await: the dashboard's bundle is a script (scripts/bundle.mjs).
async function main(): Promise<void> {
  if (process.argv[2] === '__complete') {
    // Shell completion, on every Tab: only what it needs is loaded.
    const { completeWords } = await import('./complete-words.js');
    process.exitCode = await completeWords(process.argv.slice(3));
  } else {
    await (await import('./command-line.js')).runCommandLine();
  }
}
void main();
