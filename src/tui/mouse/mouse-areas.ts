// Where things are on screen, for the mouse: a view that can be clicked or scrolled registers
// its box with what it is (a pane, a list's rows, something the wheel steps through), and a
// report's cell is looked up among them. The boxes' places are Ink's own layout (Yoga), read when
// the report comes, so they are where the last frame drew them: nothing restates the layout.
import type { DOMElement } from 'ink';
import { createContext, type RefObject, useContext, useLayoutEffect, useRef } from 'react';
import type { Command } from '../keys/keymap.js';

/** A pane: a click in it (or the wheel over it) focuses it first. */
export interface PaneArea {
  kind: 'pane';
  focused: boolean;
}

/** The keys' commands for a list, which the mouse runs as a key would. */
export interface ListCommands {
  down: Command;
  up: Command;
  /** What a double-click on a row does (Enter's command). */
  open?: Command | undefined;
  /**
   * Run first when this list is not the one the keys move (the alerts view's fired log while
   * its alerts have the keys).
   */
  activate?: Command | undefined;
  /**
   * A click on the row already highlighted still moves to it (by 0): the symbol picker's first
   * match is not taken as chosen until the highlight is moved to it.
   */
  moveInPlace?: boolean | undefined;
}

/** The lists' commands, by list. */
export const LIST_COMMANDS = {
  contacts: { down: 'contacts.down', up: 'contacts.up', open: 'contacts.open' },
  search: { down: 'search.down', up: 'search.up', open: 'search.show' },
  watchlist: { down: 'ticker.down', up: 'ticker.up', open: 'ticker.open' },
  picker: { down: 'picker.down', up: 'picker.up', open: 'picker.add', moveInPlace: true },
  lists: { down: 'lists.down', up: 'lists.up', open: 'lists.choose' },
  columns: { down: 'columns.down', up: 'columns.up', open: 'columns.toggle' },
  holdings: { down: 'holdings.down', up: 'holdings.up', open: 'holdings.edit' },
  alerts: { down: 'alerts.down', up: 'alerts.up', open: 'alerts.edit' },
} as const satisfies Record<string, ListCommands>;

/** A list's rows as drawn: which item is on which line, and which has the highlight. */
export interface RowsArea {
  kind: 'rows';
  /** Lines of the box above the first item (a header). */
  first: number;
  /** The item on the first item line (the pager's top), and how many lines the items have. */
  top: number;
  rows: number;
  /** The item highlighted, and how many there are. */
  cursor: number;
  count: number;
  commands: ListCommands;
}

/** Something the wheel steps through a step at a time (a chart's span, the help's pages). */
export interface WheelArea {
  kind: 'wheel';
  up: Command;
  down: Command;
  /** Steps per step of the wheel. */
  step: number;
}

export type MouseArea = PaneArea | RowsArea | WheelArea;

/** An area under a cell, with the cell counted from the area's top left. */
export interface Hit {
  area: MouseArea;
  column: number;
  row: number;
}

interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
  /** How many boxes it is inside: areas are ordered outermost first. */
  depth: number;
}

/** The box's cells on screen, or undefined when it is not laid out (not mounted, not drawn). */
export function screenRect(node: DOMElement): Rect | undefined {
  const own = node.yogaNode;
  if (!own) return undefined;
  let left = 0;
  let top = 0;
  let depth = 0;
  for (let at: DOMElement | undefined = node; at; at = at.parentNode) {
    if (!at.yogaNode) return undefined;
    left += at.yogaNode.getComputedLeft();
    top += at.yogaNode.getComputedTop();
    depth++;
  }
  return { left, top, width: own.getComputedWidth(), height: own.getComputedHeight(), depth };
}

interface Entry {
  node: () => DOMElement | null;
  area: () => MouseArea | undefined;
}

export class MouseAreas {
  readonly #entries = new Set<Entry>();

  /** Registers an area; returns what unregisters it. */
  add(entry: Entry): () => void {
    this.#entries.add(entry);
    return () => {
      this.#entries.delete(entry);
    };
  }

  /** The areas under a cell, outermost first. */
  at(column: number, row: number): Hit[] {
    const hits: (Hit & { depth: number })[] = [];
    for (const entry of this.#entries) {
      const node = entry.node();
      const area = entry.area();
      const rect = node && area ? screenRect(node) : undefined;
      if (!rect || !area) continue;
      const x = column - rect.left;
      const y = row - rect.top;
      if (x >= 0 && y >= 0 && x < rect.width && y < rect.height) hits.push({ area, column: x, row: y, depth: rect.depth });
    }
    return hits.sort((a, b) => a.depth - b.depth).map(({ area, column: x, row: y }) => ({ area, column: x, row: y }));
  }
}

/** The dashboard's areas; none where no one reads the mouse (views rendered on their own). */
export const MouseAreasContext = createContext<MouseAreas | undefined>(undefined);

/**
 * Registers the box the returned ref is put on as `area` (as of the latest render) for as long as
 * the caller is mounted; undefined registers nothing for now.
 */
export function useMouseArea(area: MouseArea | undefined): RefObject<DOMElement | null> {
  const areas = useContext(MouseAreasContext);
  const ref = useRef<DOMElement | null>(null);
  const latest = useRef(area);
  latest.current = area;
  // Registered as the frame is committed, not a moment after: a click read straight after the
  // frame is drawn (keys and clicks are handled as they are read) finds what it was drawn with.
  useLayoutEffect(() => areas?.add({ node: () => ref.current, area: () => latest.current }), [areas]);
  return ref;
}
