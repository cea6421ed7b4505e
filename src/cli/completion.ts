// `tickbook completion SHELL` prints the shell's script; the hidden `tickbook __complete WORD…`
// answers it (complete-words.ts), and `tickbook __refresh-symbols` fills the symbols' cache.
import { SHELLS } from './complete.js';
import { COMPLETION_SCRIPTS } from './completion-scripts.js';
import { UsageError } from './usage.js';

export const COMPLETION_HELP = `Usage: tickbook completion bash|zsh|fish

Prints a script that makes Tab complete tickbook's commands, actions and options, and their
values: symbols (the catalogue, cached a day for a server), saved watchlists, alert ids, config
keys and values, and file names where a file is wanted.
  bash                      source <(tickbook completion bash) in ~/.bashrc, or save it as
                            ~/.local/share/bash-completion/completions/tickbook
  zsh                       save it as _tickbook in a directory of $fpath (before compinit),
                            or source <(tickbook completion zsh) after compinit in ~/.zshrc
  fish                      save it as ~/.config/fish/completions/tickbook.fish
`;

export function completion(args: readonly string[]): number {
  if (args[0] === '-h' || args[0] === '--help') {
    process.stdout.write(COMPLETION_HELP);
    return 0;
  }
  const [shell, ...rest] = args;
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  const script = shell === undefined ? undefined : COMPLETION_SCRIPTS[shell];
  if (script === undefined) {
    throw new UsageError(`${shell === undefined ? 'completion needs a shell' : `unknown shell ${JSON.stringify(shell)}`}; one of ${SHELLS.join(', ')}`);
  }
  process.stdout.write(script);
  return 0;
}
