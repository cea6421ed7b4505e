// Moving a list's cursor: the same four commands for any pane whose reducer takes these actions.

export type CursorAction = { type: 'cursor-moved'; by: number } | { type: 'cursor-to'; index: number | 'last' };

export const cursorCommands = (dispatch: (action: CursorAction) => void) => ({
  down: () => dispatch({ type: 'cursor-moved', by: 1 }),
  up: () => dispatch({ type: 'cursor-moved', by: -1 }),
  first: () => dispatch({ type: 'cursor-to', index: 0 }),
  last: () => dispatch({ type: 'cursor-to', index: 'last' }),
});
