// A reducer's state kept outside React, and a component's selection from it: drawn again when what it
// selected changed, not at every change of it.
import { render } from 'ink-testing-library';
import { Text } from 'ink';
import { describe, expect, it } from 'vitest';
import { ExternalState, useSelected, wholeState } from '../../../src/tui/state/external-state.js';
import { inAct } from '../../helpers/ink.js';

interface Counts {
  a: number;
  b: number;
}
type Bump = 'a' | 'b' | 'nothing';
const reducer = (state: Counts, bump: Bump): Counts => (bump === 'nothing' ? state : { ...state, [bump]: state[bump] + 1 });

describe('ExternalState', () => {
  it('tells its listeners of each change, and not of an action that changed nothing', () => {
    const state = new ExternalState(reducer, { a: 0, b: 0 });
    let told = 0;
    const stop = state.subscribe(() => told++);
    state.dispatch('a');
    state.dispatch('nothing');
    state.dispatch('b');
    expect(told).toBe(2);
    expect(state.getState()).toEqual({ a: 1, b: 1 });
    stop();
    state.dispatch('a');
    expect(told).toBe(2);
  });
});

describe('useSelected', () => {
  it('draws a component again when its selection changes, and only then', async () => {
    const state = new ExternalState(reducer, { a: 0, b: 0 });
    const renders = { a: 0, whole: 0 };
    function ShowsA() {
      renders.a++;
      return <Text>a={useSelected(state, (s) => s.a)}</Text>;
    }
    function ShowsAll() {
      renders.whole++;
      const s = useSelected(state, wholeState);
      return <Text>{`${s.a}/${s.b}`}</Text>;
    }
    const view = await inAct(() =>
      render(
        <>
          <ShowsA />
          <ShowsAll />
        </>,
      ),
    );
    const start = { ...renders };
    await inAct(() => state.dispatch('b'));
    await inAct(() => state.dispatch('b'));
    expect(renders.a - start.a).toBe(0);
    expect(renders.whole - start.whole).toBe(2);
    expect(view.lastFrame()).toContain('0/2');
    await inAct(() => state.dispatch('a'));
    expect(renders.a - start.a).toBe(1);
    expect(view.lastFrame()).toContain('a=1');
    expect(view.lastFrame()).toContain('1/2');
    await inAct(() => view.unmount());
  });

  it('sees a change made between its render and its subscription', async () => {
    const state = new ExternalState(reducer, { a: 0, b: 0 });
    function ShowsA() {
      const a = useSelected(state, (s) => s.a);
      // Changed while drawing the first time, before the effect subscribes.
      if (a === 0) state.dispatch('a');
      return <Text>a={a}</Text>;
    }
    const view = await inAct(() => render(<ShowsA />));
    expect(view.lastFrame()).toContain('a=1');
    await inAct(() => view.unmount());
  });
});
