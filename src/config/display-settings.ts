// The values the dashboard's drawing settings take, one list each: the config file's reader, the
// dashboard (its --theme, TICKBOOK_GLYPHS, TICKBOOK_COLORS) and shell completion all read these.

/** Unicode, ASCII, or chosen from the locale and terminal. */
export const GLYPH_VALUES = ['auto', 'unicode', 'ascii'] as const;
/** None, the 8 basic colours, all, or chosen from the terminal. */
export const COLOR_VALUES = ['auto', 'none', '16', '256'] as const;
/** For a dark or a light background, without colour, or asked of the terminal. */
export const THEME_VALUES = ['auto', 'dark', 'light', 'mono'] as const;
