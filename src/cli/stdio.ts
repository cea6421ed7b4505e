// Output to a reader that may leave first: `tickbook contacts list --all --ndjson | head -2`.
// Node ignores SIGPIPE, so a write to a pipe nobody reads any more fails with EPIPE, emitted as
// an 'error' on process.stdout or process.stderr; unhandled, it crashes with a stack trace.
// Here it means "stop": the command is abandoned, the embedded sandbox closed, status 0. A
// terminal that is gone (EIO) means the same, except that the process then ends as a hang-up.
import { isTerminalGone } from '../tui/terminal/hang-up.js';

/** Why a command was abandoned: whoever read its output has gone. Not a failure. */
export class ReaderGone extends Error {
  override readonly name = 'ReaderGone';
  /** The output was a terminal, now gone (not a pipe whose reader left). */
  readonly terminal: boolean;

  constructor(message: string, terminal: boolean) {
    super(message);
    this.terminal = terminal;
  }
}

const gone = new AbortController();

/** Aborted (with a ReaderGone) once stdout or stderr has lost its reader. */
export const readerGone: AbortSignal = gone.signal;

/** Installs the one rule for both streams; call once, before anything is written. */
export function watchOutputs(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      // A pipe whose reader left (EPIPE), or a terminal that is gone (EIO, …): nobody reads.
      if (!isTerminalGone(error)) throw error;
      if (!gone.signal.aborted) gone.abort(new ReaderGone('the output is no longer read', stream.isTTY === true));
    });
  }
}

/**
 * `work`, or a ReaderGone as soon as the reader leaves: the caller's cleanup (closing the client
 * and the sandbox) runs then, instead of after every page of a long walk was fetched for nobody.
 */
export function untilReaderGone<T>(work: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(readerGone.reason);
    if (readerGone.aborted) stop();
    else readerGone.addEventListener('abort', stop, { once: true });
    // Abandoned work may still fail (its client closed under it): that is settled here too.
    work.then(resolve, reject).finally(() => readerGone.removeEventListener('abort', stop));
  });
}
