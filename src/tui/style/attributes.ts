// Inverse video written as its own SGR codes, not through Ink's colour library: that library
// writes no attribute at all when colour is off (FORCE_COLOR=0), which left the selected row and
// the text cursor invisible. Inverse is not a colour: a terminal without colour still shows it.
const CSI = '\u001b[';
export const INVERSE_ON = `${CSI}7m`;
export const INVERSE_OFF = `${CSI}27m`;

export const inverse = (text: string): string => `${INVERSE_ON}${text}${INVERSE_OFF}`;

// Bold likewise: the digits a new price changed stand out without colour too. (22 also ends dim,
// which a row that stands out is not.)
export const BOLD_ON = `${CSI}1m`;
export const BOLD_OFF = `${CSI}22m`;
