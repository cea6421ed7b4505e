// Moving a list's cursor: the same four commands for any pane whose reducer takes these actions.

export type CursorAction = { type: 'cursor-moved'; by: number } | { type: 'cursor-to'; index: number | 'last' };

export const cursorCommands = (dispatch: (action: CursorAction) => void) => ({
  /** `count` rows at once: a held key's run is one state change. */
  down: (count = 1) => dispatch({ type: 'cursor-moved', by: count }),
  up: (count = 1) => dispatch({ type: 'cursor-moved', by: -count }),
  first: () => dispatch({ type: 'cursor-to', index: 0 }),
  last: () => dispatch({ type: 'cursor-to', index: 'last' }),
});
