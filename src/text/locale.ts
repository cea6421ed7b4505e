// Whether the terminal's character set is UTF-8, as every C program decides it.
type Env = Readonly<Record<string, string | undefined>>;

/**
 * The first of LC_ALL, LC_CTYPE and LANG that is set (and not empty) decides; none set (the C
 * locale), C and POSIX are ASCII.
 */
export function localeIsUtf8(env: Env): boolean {
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
  return /utf-?8/i.test(locale);
}
