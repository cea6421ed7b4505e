// What a mouse report does, as the keys' own commands: a click focuses the pane it is in and
// moves a list's highlight to the row clicked, a double-click opens that row, the wheel moves a
// list's highlight or steps what it steps through. The dashboard runs them as it runs keys, only
// where a key could run them now: what a key could not do, a click does not do either. A click
// is read against the frame the user saw (the key router keeps what a click changed of it until
// it is drawn again).
import { type Command } from '../keys/keymap.js';
import type { Hit, RowsArea } from './mouse-areas.js';
import type { MouseReport } from './mouse-report.js';

/** Rows the highlight moves per step of the wheel, as a terminal scrolls its own lines. */
export const WHEEL_ROWS = 3;

export interface MouseStep {
  command: Command;
  /** How far, for a command that takes a count (a list's moves). */
  count: number;
}

/** The moves that bring a list's highlight to `index`. */
function moveTo(area: RowsArea, index: number): MouseStep[] {
  const by = index - area.cursor;
  if (by === 0) return area.commands.moveInPlace ? [{ command: area.commands.down, count: 0 }] : [];
  return [{ command: by > 0 ? area.commands.down : area.commands.up, count: Math.abs(by) }];
}

/**
 * The commands for one report. `hits`: the areas under it, outermost first. `clicks`: 2 for the
 * second press of a double-click (clicks.ts). `repeats`: how many wheel steps it stands for.
 */
export function mouseSteps(report: MouseReport, hits: readonly Hit[], clicks = 1, repeats = 1): MouseStep[] {
  const steps: MouseStep[] = [];
  const focus = (): void => {
    for (const hit of hits) {
      if (hit.area.kind !== 'pane' || hit.area.focused) continue;
      steps.push({ command: 'focus-next', count: 1 });
    }
  };
  if (report.action === 'wheel-up' || report.action === 'wheel-down') {
    const down = report.action === 'wheel-down';
    // The innermost thing that scrolls, in the pane it is in.
    const target = hits.findLast((hit) => hit.area.kind !== 'pane')?.area;
    if (!target || target.kind === 'pane') return steps;
    focus();
    if (target.kind === 'rows') {
      if (target.commands.activate) steps.push({ command: target.commands.activate, count: 1 });
      steps.push({ command: down ? target.commands.down : target.commands.up, count: WHEEL_ROWS * repeats });
    } else {
      steps.push({ command: down ? target.down : target.up, count: target.step * repeats });
    }
    return steps;
  }
  if (report.action !== 'press' || report.button !== 'left') return steps;
  focus();
  for (const hit of hits) {
    const area = hit.area;
    if (area.kind !== 'rows') continue;
    const index = rowClicked(hit);
    if (index === undefined) continue;
    if (area.commands.activate) steps.push({ command: area.commands.activate, count: 1 });
    steps.push(...moveTo(area, index));
    if (clicks === 2 && area.commands.open) steps.push({ command: area.commands.open, count: 1 });
  }
  return steps;
}

/** The item of a list a click is on, or undefined on its header, under its lines or under its last item. */
export function rowClicked(hit: Hit): number | undefined {
  if (hit.area.kind !== 'rows') return undefined;
  const line = hit.row - hit.area.first;
  const index = hit.area.top + line;
  return line < 0 || line >= hit.area.rows || index >= hit.area.count ? undefined : index;
}
