// Text from a server is shown, never obeyed: escape sequences and control characters are
// removed before anything reaches a terminal.

// CSI and OSC/DCS/APC/PM/SOS sequences (7-bit and their 8-bit C1 introducers), then any other
// ESC-prefixed pair.
// eslint-disable-next-line no-control-regex
const ESCAPES = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b[\]PX^_]|[\u0090\u009d\u009e\u009f\u0098])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[^[\]PX^_]?/g;
// C0 and C1 controls and DEL; line/paragraph separators; bidi overrides and isolates, which can
// reorder what the rest of the line shows.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One line of plain, printable text: escapes dropped, controls (and newlines) as spaces. */
export function sanitize(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS, ' ');
}
