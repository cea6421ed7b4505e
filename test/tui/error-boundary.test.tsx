// A render error ends the app through onError (so the error is printed after the terminal is
// restored) instead of Ink painting a stack trace over the screen.
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../src/tui/ErrorBoundary.js';

function Broken(): never {
  throw new Error('the view broke');
}

describe('ErrorBoundary', () => {
  it('hands a render error to onError and draws nothing of it', async () => {
    const onError = vi.fn();
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let instance!: ReturnType<typeof render>;
    await act(async () => {
      instance = render(
        <ErrorBoundary onError={onError}>
          <Broken />
        </ErrorBoundary>,
      );
    });
    expect(onError).toHaveBeenCalledTimes(1);
    expect((onError.mock.calls[0]![0] as Error).message).toBe('the view broke');
    expect(instance.lastFrame() ?? '').not.toMatch(/the view broke|at Broken|\.tsx/);
    await act(async () => instance.unmount());
    quiet.mockRestore();
  });

  it('renders its children when nothing fails', async () => {
    let instance!: ReturnType<typeof render>;
    await act(async () => {
      instance = render(
        <ErrorBoundary onError={() => undefined}>
          <Text>all well</Text>
        </ErrorBoundary>,
      );
    });
    expect(instance.lastFrame()).toBe('all well');
    await act(async () => instance.unmount());
  });
});
