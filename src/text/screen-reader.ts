// Output for a screen reader: asked for by --screen-reader, TICKBOOK_SCREEN_READER=1, or Ink's own
// INK_SCREEN_READER=true. A reader speaks every character it is given, a check mark as "check
// mark" and a bar of blocks block by block, and reads a line redrawn in place each time: in this
// mode the commands print words instead of marks and bars, and progress as lines now and then.

export function screenReaderWanted(env: NodeJS.ProcessEnv, flag: boolean | undefined): boolean {
  return flag === true || env.TICKBOOK_SCREEN_READER === '1' || env.INK_SCREEN_READER === 'true';
}
