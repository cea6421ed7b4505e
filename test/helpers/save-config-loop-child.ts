// A process saving the config many times in a row, as a dashboard (or `tickbook config set`) does,
// for tests of two of them at once: node --import tsx save-config-loop-child.ts PATH MODE PREFIX COUNT
// MODE keys: COUNT saves, each setting its own key PREFIX0, PREFIX1, … (updateConfigFile).
// Prints "ready", starts when a line comes on stdin, and prints "done" or the error's message.
import { updateConfigFile } from '../../src/config/config-file.js';

const [path, mode, prefix, count] = process.argv.slice(2) as [string, 'keys', string, string];

function run(): void {
  if (mode === 'keys') {
    for (let i = 0; i < Number(count); i++) updateConfigFile(path, { [`${prefix}${i}`]: i } as object);
  }
}

process.stdout.write('ready\n');
process.stdin.once('data', () => {
  try {
    run();
    process.stdout.write('done\n');
  } catch (error) {
    process.stdout.write(`${(error as Error).message}\n`);
  }
  process.exit(0);
});
