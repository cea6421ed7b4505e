// `tickbook __complete WORD… CURRENT`, what the completion scripts call on each Tab: one
// candidate a line, or ":files" for the shell's own file names. main.ts runs it before the rest
// of the command line loads, so that Tab costs little more than Node's own start.
import { complete } from './complete.js';
import { completionSources } from './completion-sources.js';

export async function completeWords(words: readonly string[]): Promise<number> {
  const before = words.slice(0, -1);
  const current = words.at(-1) ?? '';
  const answer = await complete(before, current, completionSources());
  process.stdout.write(answer === 'files' ? ':files\n' : answer.map((word) => `${word}\n`).join(''));
  return 0;
}
