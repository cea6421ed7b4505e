// A response body as text: read up to a size limit, and unpacked (gzip, deflate, br) for a server
// that compresses although asked not to, with the same limit on what unpacking makes, so a small
// compressed answer cannot fill the memory.
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw, type InputType, type ZlibOptions } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { collect } from '../stream/collect.js';

/** Why a body cannot be read, worded to follow the host's name ("api.example sent …"). */
export class BodyError extends Error {}

type Unpack = (data: InputType, options: ZlibOptions) => Promise<Buffer>;

const UNPACK: Record<string, Unpack> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  // HTTP's "deflate" is zlib-wrapped, but some servers send it raw; the first byte tells.
  deflate: (data, options) => (Buffer.from(data as Buffer)[0] === 0x78 ? promisify(inflate) : promisify(inflateRaw))(data, options),
  br: promisify(brotliDecompress),
};

export async function readBody(body: Dispatcher.ResponseData['body'], contentEncoding: string | undefined, maxBytes: number): Promise<string> {
  const tooLarge = `sent an answer larger than ${maxBytes / 1048576} MiB`;
  let data = await collect(body, {
    maxBytes,
    tooLarge: () => new BodyError(tooLarge),
    overflow: (stream) => stream.destroy(),
    // Closed with neither an end nor an error: what an async iterator would have thrown.
    cutShort: () => Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }),
  });
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  // Codings are listed in the order they were applied: undone from the last.
  for (const coding of codings.reverse()) {
    const unpack = UNPACK[coding];
    if (!unpack) throw new BodyError(`sent its answer encoded as ${JSON.stringify(coding)}, which tickbook cannot read`);
    try {
      data = await unpack(data, { maxOutputLength: maxBytes });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new BodyError(`${tooLarge} once unpacked`);
      throw new BodyError(`sent a ${coding} answer that cannot be unpacked`);
    }
  }
  return data.toString('utf8');
}
