// `contacts import --rejects FILE`: the refused cards and rows written out unchanged as the import
// goes, so that they can be mended and imported again.
import { openOutputFile, type OutputFile, OutputFileError, outputFailure, put } from '../config/output-file.js';
import type { ImportRecord } from '../contacts/import-sources.js';
import { UsageError } from './usage.js';

/**
 * The rejects file: each refused card or row as written, rows under their file's header. Written
 * as the import goes, never kept: while the file (or a FIFO's reader) is behind, `backlog` is what
 * the import waits on before it reads on. A rejects file that fails (a full disk, /dev/full, a
 * FIFO's reader gone) takes nothing more and says so in `failed`: the import stops reading there,
 * and the error comes after its report.
 */
export class Rejects {
  readonly #file: OutputFile | undefined;
  readonly path: string | undefined;
  #header: string | undefined;
  #waiting: Promise<void> | undefined;
  #failed: unknown;
  private constructor(path: string | undefined, file: OutputFile | undefined) {
    this.path = path;
    this.#file = file;
  }
  /** Opened (by the output-file rule) before anything is read or sent; a refusal is a UsageError. */
  static async open(path: string | undefined): Promise<Rejects> {
    if (path === undefined) return new Rejects(undefined, undefined);
    if (path === '-') throw new UsageError('option --rejects: - would be standard output, where the report goes: give a file (or /dev/stdout to have both there)');
    try {
      return new Rejects(path, await openOutputFile(path));
    } catch (error) {
      if (error instanceof OutputFileError) throw new UsageError(`option --rejects: ${error.message}`);
      throw error;
    }
  }
  write(record: ImportRecord): void {
    const out = this.#file?.stream;
    if (!out || record.raw === undefined || this.#failed !== undefined) return;
    // A card's bytes as they are in its file; a row under its file's header.
    let text = record.raw;
    if (record.format === 'csv' && record.header !== this.#header) text = `${record.header}${String(text)}`;
    this.#header = record.format === 'csv' ? record.header : undefined;
    // Each write is taken in order at once; the last one's promise settles when all are taken.
    const written: Promise<void> = put(out, text).then(
      () => {
        if (this.#waiting === written) this.#waiting = undefined;
      },
      (error: unknown) => {
        this.#failed ??= this.#failure(error);
        if (this.#waiting === written) this.#waiting = undefined;
      },
    );
    this.#waiting = written;
  }
  /** Settled (never rejected) when the rejects file has taken what was written, or has failed; undefined when it has already. */
  get backlog(): Promise<void> | undefined {
    return this.#waiting;
  }
  /** Why the rejects file took no more, once it failed: the error to give after the report. */
  get failed(): unknown {
    return this.#failed;
  }
  async finish(): Promise<void> {
    if (!this.#file) return;
    await this.#waiting;
    if (this.#failed === undefined) {
      try {
        await this.#file.finish();
        return;
      } catch (error) {
        this.#failed = this.#failure(error);
      }
    }
    this.#file.abandon();
    throw this.#failed;
  }
  abandon(): void {
    this.#file?.abandon();
  }
  #failure(error: unknown): unknown {
    const failure = outputFailure(this.path!, error);
    return failure instanceof OutputFileError ? new Error(`option --rejects: ${failure.message}`) : failure;
  }
}
