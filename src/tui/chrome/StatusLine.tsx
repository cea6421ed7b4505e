// One line: where tickbook is connected (host names, never secrets), the last request's
// latency, and the latest error in words with its retry countdown, or the latest notice.
import { Text } from 'ink';
import { drawn } from '../../text/sanitize.js';
import { duration } from '../../text/time.js';
import { fit, width as textWidth } from '../../text/width.js';
import { inverse } from '../style/attributes.js';
import { Spinner } from '../components/Spinner.js';
import type { StatusSnapshot, StatusBoard } from '../state/status.js';
import { type Selectable, useSelected, wholeState } from '../state/external-state.js';
import { useNow } from '../state/use-now.js';
import { useGlyphs } from '../style/glyphs.js';
import { useTheme } from '../style/theme.js';

interface StatusLineProps {
  status: StatusSnapshot;
  latencyMs: number | undefined;
  target: string;
  width: number;
}

/**
 * The status line whose latency is read again at each change of `polls` (the ticker's live state):
 * a poll's answer brings a new figure but draws the ticker pane, not the dashboard.
 */
export function PolledStatusLine({ source, polls, ...line }: Omit<StatusLineProps, 'latencyMs'> & { source: StatusBoard; polls: Selectable<unknown> }) {
  useSelected(polls, wholeState);
  return <StatusLine {...line} latencyMs={source.latencyMs} />;
}

export function StatusLine({ status, latencyMs, target, width }: StatusLineProps) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  const now = useNow(1000, status.error?.retryAt !== undefined);
  const latency = latencyMs === undefined ? '' : `${glyphs.separator}${Math.round(latencyMs)} ms`;
  const left = ` ${glyphs.text(target)}${latency} `;
  let message = '';
  if (status.error) {
    const retry = status.error.retryAt === undefined ? '' : `${glyphs.separator}retry in ${duration((status.error.retryAt - now) / 1000)}`;
    message = `${glyphs.cross} ${drawn(status.error.message)}${retry}`;
  } else if (status.notice) {
    message = glyphs.text(drawn(status.notice));
  }
  const spinner = status.busy > 0 ? 2 : 0;
  const room = Math.max(0, width - textWidth(left) - spinner - 1);
  return (
    <Text wrap="truncate-end">
      <Text>{inverse(left)}</Text>
      {status.busy > 0 ? (
        <Text>
          {' '}
          <Spinner {...(theme.accent && { color: theme.accent })} />
        </Text>
      ) : null}
      <Text {...(status.error ? theme.error && { color: theme.error } : theme.muted && { color: theme.muted })}>
        {` ${fit(message, room, 'left', glyphs.ellipsis)}`}
      </Text>
    </Text>
  );
}
