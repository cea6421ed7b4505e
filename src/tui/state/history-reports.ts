// How the price recorder's words reach the dashboard's status line: a warning (a file moved aside,
// a write refused) as a notice that fades, and a trouble that lasts (another process holds the
// file, the disk is full) as an error that stays until the recorder says it is over.
import type { PriceRecorderOptions } from '../../store/price-recorder.js';
import type { StatusStore } from './status.js';

export const historyReports = (status: StatusStore): Pick<PriceRecorderOptions, 'onWarning' | 'onTrouble'> => ({
  onWarning: (warning) => status.notice(`warning: ${warning}`),
  onTrouble: (trouble, retryAt) => (trouble === undefined ? status.recover('history') : status.fail('history', trouble, retryAt)),
});
