// Asking the terminal itself, for `tickbook doctor`: how wide it draws the characters the
// dashboard counts on (each written at the line's start, then the cursor's column asked for,
// DSR 6), and whether it knows SGR mouse reports (DECRQM for mode 1006). A DA1 question last:
// every terminal answers it, so its answer says all the others are in (a terminal that does not
// know DECRQM says nothing to it), and nothing is waited for after it. The probe's characters are
// erased again. Keys typed during the probe are read with the answers (and dropped).
import { readFileSync } from 'node:fs';

const ESC = '\u001b';
const CURSOR_POSITION = `${ESC}[6n`;
const ASK_SGR_MOUSE = `${ESC}[?1006$p`;
const DEVICE_ATTRIBUTES = `${ESC}[c`;
const ERASE_PROBE = `\r${ESC}[K`;

/**
 * How long the terminal is given to answer everything: long enough for a slow link, whose answers
 * coming after the terminal is back in cooked mode would be echoed onto the shell's line.
 */
export const PROBE_TIMEOUT_MS = 2000;

export interface ProbeAnswers {
  /** The columns each character took, for those whose position came back. */
  widths: Map<string, number>;
  /** Whether the terminal knows SGR mouse reports; undefined when it did not say. */
  sgrMouse: boolean | undefined;
  /** The last answer (DA1) came: every answer there will be is in. */
  complete: boolean;
}

/** What is written to ask about `chars`. */
export function probeQuestions(chars: readonly string[]): string {
  return chars.map((char) => `\r${char}${CURSOR_POSITION}`).join('') + ASK_SGR_MOUSE + DEVICE_ATTRIBUTES;
}

const POSITION = /\u001b\[(\d+);(\d+)R/g;
const MODE_REPORT = /\u001b\[\?1006;(\d)\$y/;
const ATTRIBUTES = /\u001b\[\?[\d;]*c/;

/** The answers in what the terminal sent back, in the order the questions were asked. */
export function parseProbeAnswers(text: string, chars: readonly string[]): ProbeAnswers {
  const widths = new Map<string, number>();
  let index = 0;
  for (const match of text.matchAll(POSITION)) {
    const char = chars[index++];
    if (char === undefined) break;
    widths.set(char, Number(match[2]) - 1);
  }
  const mode = MODE_REPORT.exec(text)?.[1];
  // DECRPM: 0 not recognised, 1/3 set, 2/4 reset (either way known).
  const sgrMouse = mode === undefined ? undefined : mode !== '0';
  return { widths, sgrMouse, complete: ATTRIBUTES.test(text) };
}

interface Tty {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  off(event: 'data', listener: (chunk: Buffer) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

/**
 * Whether this process runs in the background of its terminal (`tickbook doctor &`): there,
 * changing the terminal's mode would stop it (SIGTTOU). Linux says so in /proc; elsewhere it is
 * taken to be in the foreground.
 */
export function inBackground(stat = '/proc/self/stat'): boolean {
  try {
    // pid (comm) state ppid pgrp session tty_nr tpgid …; comm may hold spaces and parentheses.
    const text = readFileSync(stat, 'utf8');
    const [, , pgrp, , , foreground] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return pgrp !== undefined && foreground !== undefined && Number(foreground) > 0 && pgrp !== foreground;
  } catch {
    return false;
  }
}

/**
 * Asks the terminal on `input`/`output` about `chars`; undefined when either is not a terminal, or
 * this process is in its background. Whatever has come back after PROBE_TIMEOUT_MS is the answer.
 */
export function probeTerminal(
  input: Tty,
  output: { isTTY?: boolean; write(text: string): unknown },
  chars: readonly string[],
  background: () => boolean = inBackground,
): Promise<ProbeAnswers | undefined> {
  if (!input.isTTY || !output.isTTY || !input.setRawMode || background()) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let text = '';
    const finish = () => {
      clearTimeout(timer);
      input.off('data', onData);
      output.write(ERASE_PROBE);
      input.setRawMode?.(false);
      input.pause();
      resolve(parseProbeAnswers(text, chars));
    };
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (ATTRIBUTES.test(text)) finish();
    };
    const timer = setTimeout(finish, PROBE_TIMEOUT_MS);
    input.setRawMode!(true);
    input.on('data', onData);
    input.resume();
    output.write(probeQuestions(chars));
  });
}
