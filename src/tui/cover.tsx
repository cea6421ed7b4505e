// What covers both panes when anything does, in the order it is drawn over the others: the help,
// the message log, the alerts view, one symbol's figures and chart.
import type { ReactNode } from 'react';
import type { AlertsView as AlertsViewState } from './alerts/alerts-state.js';
import type { readAlerts } from './alerts/alerts-controller.js';
import { AlertsView } from './alerts/AlertsView.js';
import type { HelpLayout } from './chrome/help-layout.js';
import { HelpOverlay } from './chrome/HelpOverlay.js';
import { MessageLog, type MessageLogProps } from './chrome/MessageLog.js';
import { DetailView } from './detail/DetailView.js';
import type { DetailModel } from './detail/use-detail-view.js';

export interface CoverProps {
  width: number;
  height: number;
  help: { layout: HelpLayout; page: number } | undefined;
  log: Pick<MessageLogProps, 'lines' | 'top'> | undefined;
  alerts:
    | {
        view: Extract<AlertsViewState, { open: true }>;
        data: ReturnType<typeof readAlerts>;
        unknown: ReadonlySet<string>;
        /** The price history, where the alerts are kept; undefined when prices are not recorded in this run. */
        history: { unavailable: string | undefined } | undefined;
      }
    | undefined;
  detail: { model: DetailModel; name: string | undefined; unknown: boolean } | undefined;
}

/** The view over both panes, or undefined when the panes show. */
export function cover({ width, height, help, log, alerts, detail }: CoverProps): ReactNode | undefined {
  if (help) return <HelpOverlay width={width} height={height} layout={help.layout} page={help.page} />;
  if (log) return <MessageLog width={width} height={height} lines={log.lines} top={log.top} />;
  if (alerts) {
    const { history } = alerts;
    return (
      <AlertsView
        view={alerts.view}
        alerts={alerts.data.alerts}
        firings={alerts.data.firings}
        unknown={alerts.unknown}
        problem={
          alerts.data.problem ??
          (history ? history.unavailable && `alerts are kept with the price history, which cannot be opened: ${history.unavailable}` : 'prices are not recorded in this run, and alerts are kept with them')
        }
        now={Date.now()}
        width={width}
        height={height}
      />
    );
  }
  if (detail) return <DetailView model={detail.model} name={detail.name} unknown={detail.unknown} width={width} height={height} />;
  return undefined;
}
