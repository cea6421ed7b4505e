// The alerts view's commands: opening it, moving through it, a new alert (on the symbol open or
// highlighted), editing, pausing, snoozing, waking and deleting one.
import type { OpenFields } from '../components/field-commands.js';
import type { Scope } from '../keys/keymap.js';
import { commandsOf } from '../keys/commands.js';
import type { AlertsCommands } from './alerts-controller.js';
import type { AlertsView } from './alerts-state.js';

export interface AlertsCommandsDeps {
  alerts: AlertsCommands;
  /** The symbol a new alert starts on outside the alerts view: the one open, else the one highlighted. */
  symbolInView: () => string | undefined;
}

export function alertsCommands({ alerts, symbolInView }: AlertsCommandsDeps) {
  return commandsOf({
    // In the alerts view, a new alert's symbol is typed.
    'alerts.new': (scope) => alerts.newAlert(scope === 'alerts' ? undefined : symbolInView()),
    'alerts.open': () => alerts.open(),
    'alerts.close': () => alerts.close(),
    'alerts.down': (_, count) => alerts.move(count),
    'alerts.up': (_, count) => alerts.move(-count),
    'alerts.section': () => alerts.toggleSection(),
    'alerts.edit': () => alerts.edit(),
    'alerts.pause': () => alerts.pause(),
    'alerts.snooze': () => alerts.snooze(),
    'alerts.wake': () => alerts.wake(),
    'alerts.delete': () => alerts.askDelete(),
    'alerts.confirm-yes': () => alerts.confirmDelete(),
    'alerts.confirm-no': () => alerts.keep(),
  });
}

/** An alert's form. */
export function alertsFields(alerts: AlertsCommands): OpenFields {
  return {
    'alerts.form': {
      input: (input) => alerts.editField(input),
      submit: () => void alerts.submit(),
      cancel: () => alerts.cancelForm(),
      move: (by) => alerts.moveField(by),
    },
  };
}

/** The alerts view's scope as it stands: its form, a delete asked, or the list. */
export const alertsScopeOf = (view: AlertsView): Scope | undefined =>
  !view.open ? undefined : view.form ? 'alerts.form' : view.confirmDelete ? 'alerts.confirm' : 'alerts';
