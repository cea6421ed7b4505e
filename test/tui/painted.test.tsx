// A colour written into a line's text (painted) is the bytes Ink's <Text color> writes, for every
// form of colour Ink takes and inside a Text that has its own colour and dimming: the watchlist's
// rows are one Text each, their cells painted, and must look as they did as nested Texts.
import { vi, describe, expect, it } from 'vitest';

vi.hoisted(() => {
  // Colour on in full before Ink (and chalk) load; the test's terminal is not a TTY.
  process.env.FORCE_COLOR = '3';
});

import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { painted, LIGHT, themeFor } from '../../src/tui/style/theme.js';

const frameOf = (element: React.ReactElement): string => {
  const { lastFrame, unmount } = render(element);
  const frame = lastFrame() ?? '';
  unmount();
  return frame;
};

const COLORS = ['green', 'red', 'gray', 'cyan', '#005f00', '#af0000', 'ansi256(208)', 'rgb(10, 20, 30)', 'rgb(1,2,3)'];

describe('painted', () => {
  it.each(COLORS.map((c) => [String(c), c]))('writes %s as <Text color> does', (_, color) => {
    const asText = frameOf(
      <Text>
        a <Text color={color}>12.34</Text> b
      </Text>,
    );
    expect(frameOf(<Text>{`a ${painted('12.34', color)} b`}</Text>)).toBe(asText);
  });

  it('leaves the text as it is for no colour, and for what Ink does not take as one', () => {
    for (const color of [undefined, '', 'not-a-colour', 'ansi256(x)', 'rgb(1,2)']) {
      expect(painted('12.34', color)).toBe('12.34');
      expect(frameOf(<Text color={color}>12.34</Text>)).toBe('12.34');
    }
  });

  it('inside a Text with its own colour, dimmed, the outer colour comes back after the painted cell', () => {
    for (const outer of ['yellow', '#875f00']) {
      const asText = frameOf(
        <Text color={outer} dimColor>
          {'\u001b[1mAAPL'} <Text color="green">+1.5%</Text> <Text color="#af0000">-2</Text> end{'\u001b[22m'}
        </Text>,
      );
      const painted_ = frameOf(
        <Text color={outer} dimColor>
          {`\u001b[1mAAPL ${painted('+1.5%', 'green')} ${painted('-2', '#af0000')} end\u001b[22m`}
        </Text>,
      );
      expect(painted_).toBe(asText);
      expect(painted_).toMatch(/\u001b\[3\d?m|\u001b\[38;/);
    }
  });

  it("every theme's colours paint", () => {
    for (const theme of [themeFor({ TERM: 'xterm-256color' }), LIGHT, themeFor({ TERM: 'linux' })]) {
      for (const color of [theme.up, theme.down, theme.warning]) {
        expect(frameOf(<Text>{painted('x', color)}</Text>)).toBe(frameOf(<Text color={color}>x</Text>));
        expect(painted('x', color)).not.toBe('x');
      }
    }
  });
});
