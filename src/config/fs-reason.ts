// A file system error in words, the code after them for whoever searches for it: shared by
// every place tickbook reads, writes or makes files (the config, its directories, the debug log).

/** What the file system's error codes mean, for people who do not read errno. */
const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is too large',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  ENOTDIR: 'a part of the path is not a directory',
  EIO: 'an input/output error',
  ENOENT: 'no such file or directory',
  EISDIR: 'it is a directory',
  EMFILE: 'too many open files (raise the limit with ulimit -n)',
  ENFILE: 'too many open files on the system',
};

/** What an fs error code means in words, or undefined when it means nothing here. */
export const fsWords = (code: string | undefined): string | undefined => (code ? REASONS[code] : undefined);

/** `reason (CODE)` for an fs error, or its message when the code means nothing here. */
export function fsReason(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const words = fsWords(code);
  if (words) return `${words} (${code})`;
  // Node words it "CODE: what, syscall 'path'": the words alone, then the code.
  const said = /^[A-Z0-9_]+: ([^,]+)/.exec(message ?? '')?.[1];
  if (code) return `${said ?? 'failed'} (${code})`;
  return String(message ?? error);
}
