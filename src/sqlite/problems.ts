// What SQLite's failures on opening a file mean, in words, for both of tickbook's files (the
// sandbox's database and the price history): SQLite's own message for most of them is "unable to
// open database file".

/** The reason in words for a SQLite error, or undefined when it is not one of these. */
export function sqliteProblem(error: unknown, busyTimeoutMs: number): string | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined;
  if (code === 'SQLITE_NOTADB') return 'it is not a SQLite database';
  if (code.startsWith('SQLITE_CORRUPT')) return 'it is damaged (SQLite finds it corrupt)';
  if (code.startsWith('SQLITE_READONLY')) return 'it is read-only';
  if (code.startsWith('SQLITE_BUSY')) return `another process kept it locked for ${busyTimeoutMs / 1000} s`;
  if (code === 'SQLITE_FULL') return 'the disk is full';
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM' || code.startsWith('SQLITE_IOERR')) {
    return `SQLite cannot open or read it (${(error as Error).message})`;
  }
  return undefined;
}
