// Credentials from a file or standard input, so they never sit on a command line where `ps` and
// shell history show them.
import { readFileSync } from 'node:fs';
import { fsReason } from '../config/fs-reason.js';
import { UsageError } from './usage.js';

/**
 * The credential in `path` (`-` for standard input): its text less the line break(s) ending it,
 * as `echo`, an editor or a password manager leaves them. Anything else in it is kept, and
 * checked by the connection like a credential from anywhere else.
 */
export function readSecretFile(option: string, path: string, readStdin: () => Buffer = () => readFileSync(0)): string {
  const where = path === '-' ? 'standard input' : JSON.stringify(path);
  let bytes: Buffer;
  try {
    bytes = path === '-' ? readStdin() : readFileSync(path);
  } catch (error) {
    throw new UsageError(`option --${option}: cannot read ${where}: ${fsReason(error)}`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new UsageError(`option --${option}: ${where} is not UTF-8 text`);
  }
  const value = text.replace(/(\r?\n)+$/, '');
  if (value.trim() === '') throw new UsageError(`option --${option}: ${where} is empty`);
  return value;
}
