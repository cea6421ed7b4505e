// The terminal's size as the dashboard sees it, and the limits its layout keeps to.
import { useEffect, useState } from 'react';

export interface TerminalSize {
  columns: number;
  rows: number;
}

export const MIN_COLUMNS = 60;
export const MIN_ROWS = 16;
/** Side by side from this width; stacked below it. */
export const SIDE_BY_SIDE_COLUMNS = 110;

interface SizedStream extends NodeJS.EventEmitter {
  columns?: number;
  rows?: number;
}

function read(stream: SizedStream): TerminalSize {
  return { columns: stream.columns || 80, rows: stream.rows || 24 };
}

/** The terminal's size, updated on every resize. */
export function useTerminalSize(stream: SizedStream): TerminalSize {
  const [size, setSize] = useState(() => read(stream));
  useEffect(() => {
    const onResize = () => setSize(read(stream));
    stream.on('resize', onResize);
    return () => {
      stream.off('resize', onResize);
    };
  }, [stream]);
  return size;
}

/** Every frame is kept one line shorter than the terminal, so nothing ever scrolls it. */
export const frameRows = (size: TerminalSize): number => Math.max(1, size.rows - 1);
