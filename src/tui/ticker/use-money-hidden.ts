// $: the money columns (value, gain, cost) hidden or shown, for a screen shared or recorded, and
// the choice kept for the next run where it can be.
import { useState } from 'react';
import type { StatusBoard } from '../state/status.js';

export function useMoneyHidden(initially: boolean, persist: ((hidden: boolean) => void) | undefined, status: StatusBoard) {
  const [hidden, setHidden] = useState(initially);
  const toggle = (): void => {
    const next = !hidden;
    setHidden(next);
    try {
      persist?.(next);
      status.notice(next ? 'money hidden: $ shows it again' : 'money shown');
    } catch (error) {
      status.notice(`${next ? 'money hidden' : 'money shown'} for this session; not saved: ${(error as Error).message}`);
    }
  };
  return [hidden, toggle] as const;
}
