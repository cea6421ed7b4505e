// A value as one word of a POSIX shell command line, for commands tickbook prints for the user
// to run: a value from a server (a cursor id) must never be read by the shell as anything but
// text. Left bare only when every character is one no shell treats specially.
const BARE = /^[A-Za-z0-9_@%+=:,./-]+$/;

export const shellWord = (value: string): string => (BARE.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);
