// A readable stream's bytes, up to a limit, for the server's request bodies and the client's
// answers alike. Plain stream events: an async iterator costs more per body (bench:client).
import type { Readable } from 'node:stream';

export interface CollectLimits {
  maxBytes: number;
  /** What the promise rejects with once the body passes `maxBytes`. */
  tooLarge: () => Error;
  /** Done to the stream past the limit: the server pauses it (its answer still goes out), the client destroys it. */
  overflow: (stream: Readable) => void;
  /** Why a close before the end is a failure (a client gone mid-body), or undefined when it is none. */
  cutShort?: () => Error | undefined;
}

const ignore = (): void => undefined;

export function collect(stream: Readable, limits: CollectLimits): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limits.maxBytes) {
        done();
        // A stream destroyed before its end says so with an 'error' (undici's body does): it is
        // expected now, and must not go unheard (an uncaught exception).
        stream.on('error', ignore);
        limits.overflow(stream);
        reject(limits.tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      done();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      done();
      reject(error);
    };
    const onClose = (): void => {
      const error = limits.cutShort?.();
      if (error) onError(error);
    };
    const done = (): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}
