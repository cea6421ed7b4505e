// What each command does, given by the feature that owns it: each feature's table holds only its
// own commands, and the dashboard merges them into one table typed `CommandTable`, which the
// compiler holds to the keymap's `Command`: a command bound to a key with no handler does not
// compile (in the switch this replaced, it did nothing, silently).
import type { Command, Scope } from './keymap.js';

/** Runs a command for a key resolved in `scope`; `count` is how many presses a counted command (COUNTED) makes at once, else 1. */
export type Handler = (scope: Scope, count: number) => void;

/** A feature's handlers, for the commands it names: build one with `commandsOf`, which keeps its keys. */
export type Commands<C extends Command> = { readonly [K in C]: Handler };

/** Every command's handler. */
export type CommandTable = Commands<Command>;

/**
 * A feature's table as given, keys and all: a key that is no command is an error here, and the
 * merged table's type knows exactly which commands each feature answered.
 */
export const commandsOf = <C extends Command>(table: Commands<C>): Commands<C> => table;

/** The same handler for each command in `commands`, told which one ran. */
export function eachOf<C extends Command>(commands: readonly C[], handler: (command: C, scope: Scope, count: number) => void): Commands<C> {
  return Object.fromEntries(commands.map((command) => [command, (scope: Scope, count: number) => handler(command, scope, count)])) as Commands<C>;
}
