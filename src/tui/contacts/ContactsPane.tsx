// The contacts pane: the list or one contact or the create form, with a bottom line that is the
// page, the filter field, a delete confirmation, or the undo offer.
import { LIST_COMMANDS } from '../mouse/mouse-areas.js';
import { Box, Text } from 'ink';
import { memo } from 'react';
import { contactName } from '../../api/types.js';
import { drawn } from '../../text/sanitize.js';
import { width as textWidth, truncateKeeping } from '../../text/width.js';
import { contactLabel } from '../../text/contact-fields.js';
import { Pane } from '../chrome/Pane.js';
import { Spinner } from '../components/Spinner.js';
import { TextField } from '../components/TextField.js';
import {
  emptyListText,
  isLoading,
  pendingDeleteContact,
  selectedContact,
  shownContact,
  undoSecondChangesIn,
  undoSecondsLeft,
  visibleContacts,
  type ContactsState,
} from './contacts-state.js';
import { useNow, useRenderAt } from '../state/use-now.js';
import { useGlyphs } from '../style/glyphs.js';
import { useTheme } from '../style/theme.js';
import { ContactDetail } from './ContactDetail.js';
import { ContactList } from './ContactList.js';
import { CreateForm } from './CreateForm.js';
import { progressBar } from '../../text/progress-bar.js';
import { ContactSearchView, type ContactSearchViewProps } from '../search/ContactSearchView.js';

export interface ContactsPaneProps {
  state: ContactsState;
  focused: boolean;
  width: number;
  height: number;
  /** The clock the undo window is kept on (the write ledger's), read as the offer is drawn. */
  undoClock: () => number;
  /** The whole-list search, while it is open: it takes the pane. */
  search?: Omit<ContactSearchViewProps, 'width' | 'rows'> | undefined;
}

/** Rows of contacts that fit a pane of `height`: borders, title, header and bottom line aside. */
export const contactRowsFor = (height: number): number => Math.max(1, height - 5);

/**
 * Drawn again only when its props change: the dashboard renders on every tick of the prices, which
 * this pane does not show (its clock is its own, useNow).
 */
export const ContactsPane = memo(function ContactsPane({ state, focused, width, height, undoClock, search }: ContactsPaneProps) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  // Relative times ("5 m ago").
  const now = useNow(30_000);
  // The undo offer's seconds change on its own clock, from whenever it was made: drawn when they
  // do (the dashboard's ticks do not draw this pane, and a second offer starts off the first's beat).
  const dueAt = state.batch?.dueAt ?? state.pendingDelete?.dueAt;
  const changesIn = dueAt === undefined ? undefined : undoSecondChangesIn(dueAt, undoClock());
  useRenderAt(changesIn === undefined ? undefined : Date.now() + changesIn);
  const inner = Math.max(10, width - 4);
  const rows = contactRowsFor(height);
  const contacts = visibleContacts(state);
  const selected = selectedContact(state);
  const muted = theme.muted ? { color: theme.muted } : {};

  const info = [
    state.activeOnly ? 'active only' : 'all',
    state.pending ? `page ${state.pending.pageNumber}…` : `page ${state.pageNumber}`,
    state.page?.next ? 'more →' : state.page ? 'end' : '',
  ]
    .filter(Boolean)
    .map(glyphs.text)
    .join(glyphs.separator);

  if (search) {
    return (
      <Pane title="Contacts" info={glyphs.text('searching every contact')} focused={focused} width={width} height={height} area={{ kind: 'pane', focused }}>
        <ContactSearchView {...search} width={inner} rows={rows + 1} mouse={LIST_COMMANDS.search} />
      </Pane>
    );
  }

  let body;
  if (state.mode.kind === 'create') {
    body = <CreateForm form={state.mode.form} width={inner} />;
  } else if (state.view === 'detail' && selected) {
    body = (
      <ContactDetail
        contact={selected}
        width={inner}
        now={now}
        rows={state.mode.kind === 'confirm-delete' ? rows - 1 : rows + 1}
        renameDraft={state.mode.kind === 'rename' ? state.mode.draft : undefined}
      />
    );
  } else if (!state.page && isLoading(state)) {
    body = (
      <Text>
        <Spinner {...(theme.accent && { color: theme.accent })} /> {glyphs.text('loading contacts…')}
        {state.loadError ? ` (the last try: ${drawn(state.loadError.message)})` : ''}
      </Text>
    );
  } else {
    body = (
      <ContactList
        contacts={contacts}
        cursor={state.cursor}
        width={inner}
        rows={state.mode.kind === 'confirm-delete' || state.mode.kind === 'confirm-batch' ? rows - 2 : rows}
        now={now}
        rename={state.mode.kind === 'rename' ? state.mode : undefined}
        pendingRenames={state.renames}
        emptyText={emptyListText(state)}
        marked={state.marked}
        mouse={LIST_COMMANDS.contacts}
      />
    );
  }

  let bottom;
  if (state.mode.kind === 'confirm-delete') {
    const target = state.page?.contacts.find((c) => c.id === (state.mode as { id: string }).id);
    // Named as the list shows it: a rename on its way counts.
    const who = target ? contactLabel(shownContact(state, target), drawn) : 'this contact';
    bottom = (
      <Box flexDirection="column">
        <Text bold wrap="truncate-end" {...(theme.warning && { color: theme.warning })}>{truncateKeeping(`Delete ${who}`, '?', inner, glyphs.ellipsis)}</Text>
        {/* The keys on a line of their own: never the part a narrow pane cuts off. */}
        <Text wrap="truncate-end">The conversation with them is deleted too.</Text>
        <Text>{`y: delete${glyphs.separator}N: keep`}</Text>
      </Box>
    );
  } else if (state.mode.kind === 'confirm-batch') {
    const n = state.marked.size;
    bottom = (
      <Box flexDirection="column">
        <Text bold wrap="truncate-end" {...(theme.warning && { color: theme.warning })}>{`Delete the ${n} marked contact${n === 1 ? '' : 's'}?`}</Text>
        <Text wrap="truncate-end">Their conversations are deleted too; u undoes it for a moment.</Text>
        <Text>{`y: delete ${n}${glyphs.separator}N: keep`}</Text>
      </Box>
    );
  } else if (state.batchRun) {
    const { done, total } = state.batchRun;
    const label = ` deleting ${done} of ${total}`;
    const barWidth = Math.max(4, inner - textWidth(label) - 2);
    bottom = (
      <Text wrap="truncate-end" {...(theme.warning && { color: theme.warning })}>
        {`${progressBar(done, total, barWidth, glyphs.unicode)}${label}`}
      </Text>
    );
  } else if (state.batch) {
    const seconds = undoSecondsLeft(state.batch, undoClock());
    const n = state.batch.contacts.length;
    bottom = (
      <Text wrap="truncate-end" {...(theme.warning && { color: theme.warning })}>
        {truncateKeeping(`deleted ${n} contact${n === 1 ? '' : 's'}`, `${glyphs.separator}u: undo (${seconds}s)`, inner, glyphs.ellipsis)}
      </Text>
    );
  } else if (state.mode.kind === 'filter') {
    bottom = (
      <Box>
        <Text {...(theme.accent && { color: theme.accent })}>/ </Text>
        <TextField value={state.filter.value} cursor={state.filter.cursor} focus placeholder="name, username or phone" width={inner - textWidth('/ ')} />
      </Box>
    );
  } else if (state.pendingDelete) {
    // Read as drawn: a reading kept since the last tick would show the first frame of an offer wrong.
    const seconds = undoSecondsLeft(state.pendingDelete, undoClock());
    bottom = (
      <Text wrap="truncate-end" {...(theme.warning && { color: theme.warning })}>
        {truncateKeeping(
          `deleted ${drawn(contactName(pendingDeleteContact(state) ?? state.pendingDelete.contact))}`,
          `${glyphs.separator}u: undo (${seconds}s)`,
          inner,
          glyphs.ellipsis,
        )}
      </Text>
    );
  } else {
    bottom = (
      <Text wrap="truncate-end" {...muted}>
        {isLoading(state) ? `${glyphs.ellipsis} ` : ''}
        {state.filter.value ? `filter "${state.filter.value}"${glyphs.separator}${contacts.length} of ${state.page?.contacts.length ?? 0}${glyphs.separator}` : ''}
        {state.page ? `${state.page.contacts.length} on this page` : ''}
        {state.marked.size > 0 ? `${glyphs.separator}${state.marked.size} marked` : ''}
      </Text>
    );
  }

  return (
    <Pane title="Contacts" info={info} focused={focused} width={width} height={height} area={{ kind: 'pane', focused }}>
      <Box flexDirection="column" flexGrow={1}>
        {body}
      </Box>
      {bottom}
    </Pane>
  );
});
