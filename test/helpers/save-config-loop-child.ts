// A process saving the config many times in a row, as a dashboard (or `tickbook config set`) does,
// for tests of two of them at once: node --import tsx save-config-loop-child.ts PATH MODE PREFIX COUNT
// MODE keys: COUNT saves, each setting its own key PREFIX0, PREFIX1, … (updateConfigFile).
// MODE symbols: COUNT saves of the first list, each a symbol PREFIX0, PREFIX1, … added at its end,
// by a window's SettingsSync (which takes in what the other saved at each save).
// Prints "ready", starts when a line comes on stdin, and prints "done" or the error's message.
import { readConfigFile, updateConfigFile } from '../../src/config/config-file.js';
import { savedLists } from '../../src/config/saved-watchlists.js';
import { fileStamp, SettingsSync } from '../../src/config/settings-sync.js';

const [path, mode, prefix, count] = process.argv.slice(2) as [string, 'keys' | 'symbols', string, string];

function run(): void {
  if (mode === 'keys') {
    for (let i = 0; i < Number(count); i++) updateConfigFile(path, { [`${prefix}${i}`]: i } as object);
    return;
  }
  const stamp = fileStamp(path);
  let lists = savedLists(readConfigFile(path).config)!;
  const sync = new SettingsSync(path, { lists, intervalS: undefined, stamp });
  for (let i = 0; i < Number(count); i++) {
    const mine = { ...lists, lists: lists.lists.map((l, at) => (at === 0 ? { ...l, symbols: [...l.symbols, `${prefix}${i}`] } : l)) };
    lists = sync.sync(mine, 2)?.lists ?? mine;
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
