// The page of contacts as aligned rows; the selected one inverted, the one being renamed editable.
import { Box, Text } from 'ink';
import type { FieldText } from '../state/field-text.js';
import { DISPLAY_NAME_MAX } from '../../api/rules.js';
import { contactName, type Contact } from '../../api/types.js';
import { drawn } from '../../text/sanitize.js';
import { relativeTime } from '../../text/time.js';
import { fit, width as textWidth } from '../../text/width.js';
import { TextField } from '../components/TextField.js';
import { usePagerTop } from '../state/scroll.js';
import { INVERSE_OFF, INVERSE_ON } from '../style/attributes.js';
import { type Glyphs, UNICODE, useGlyphs } from '../style/glyphs.js';
import { useTheme } from '../style/theme.js';
import { type ListCommands, useMouseArea } from '../mouse/mouse-areas.js';

export interface ContactListProps {
  contacts: readonly Contact[];
  cursor: number;
  width: number;
  rows: number;
  now: number;
  /** The row being renamed, with its draft. */
  rename: { id: string; draft: FieldText } | undefined;
  pendingRenames: Readonly<Record<string, string | null>>;
  emptyText: string;
  /** Contacts marked (Space, *): their names are drawn after a mark. */
  marked?: ReadonlySet<string> | ReadonlyMap<string, unknown> | undefined;
  /** What a click, a double-click and the wheel run on its rows. */
  mouse?: ListCommands | undefined;
}

interface Columns {
  name: number;
  username: number;
  active: number;
  phone: number;
}

/** Column widths for the pane's inner width; the phone number only when there is room. */
export function contactColumns(width: number): Columns {
  const active = 11;
  const phone = width >= 76 ? 16 : 0;
  const username = width >= 50 ? Math.min(18, Math.floor(width * 0.28)) : 0;
  const gaps = 1 + (username ? 1 : 0) + (phone ? 1 : 0);
  return { name: Math.max(6, width - active - phone - username - gaps), username, active, phone };
}

/** A contact's row: each cell exactly its column's width, whatever the text in it. */
export function contactRow(contact: Contact, columns: Columns, now: number, glyphs: Glyphs = UNICODE, marked = false): string {
  const cut = glyphs.ellipsis;
  const parts = [fit(`${marked ? `${glyphs.check} ` : ''}${drawn(contactName(contact))}`, columns.name, 'left', cut)];
  if (columns.username) parts.push(fit(drawn(contact.username), columns.username, 'left', cut));
  if (columns.phone) parts.push(fit(drawn(contact.phoneNumber), columns.phone, 'left', cut));
  parts.push(fit(contact.lastActiveAt ? relativeTime(contact.lastActiveAt, new Date(now)) : 'never', columns.active, 'right', cut));
  return parts.join(' ');
}

export function ContactList(props: ContactListProps) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  const { contacts, cursor, width, rows, now, rename } = props;
  const columns = contactColumns(width);
  const header = [fit('NAME', columns.name)];
  if (columns.username) header.push(fit('USERNAME', columns.username));
  if (columns.phone) header.push(fit('PHONE', columns.phone));
  header.push(fit('LAST ACTIVE', columns.active, 'right'));

  const top = usePagerTop(contacts.length, cursor, rows);
  const shown = contacts.slice(top, top + rows);
  const ref = useMouseArea(props.mouse && { kind: 'rows', first: 1, top, rows, cursor, count: contacts.length, commands: props.mouse });
  return (
    <Box ref={ref} flexDirection="column" height={rows + 1}>
      <Text bold {...(theme.muted && { color: theme.muted })} wrap="truncate-end">
        {header.join(' ')}
      </Text>
      {contacts.length === 0 ? (
        <Text {...(theme.muted && { color: theme.muted })}>{props.emptyText}</Text>
      ) : (
        shown.map((contact, i) => {
          const index = top + i;
          const selected = index === cursor;
          if (rename && rename.id === contact.id) {
            return (
              <Box key={contact.id}>
                <Text {...(theme.accent && { color: theme.accent })}>{glyphs.edit}</Text>
                <TextField value={rename.draft.value} cursor={rename.draft.cursor} focus placeholder={drawn(contact.username)} width={width - textWidth(glyphs.edit)} maxLength={DISPLAY_NAME_MAX} />
              </Box>
            );
          }
          const pending = contact.id in props.pendingRenames;
          return (
            <Text key={contact.id} wrap="truncate-end" {...(pending && theme.warning && { color: theme.warning })}>
              {selected ? INVERSE_ON : ''}
              {contactRow(contact, columns, now, glyphs, props.marked?.has(contact.id) === true)}
              {selected ? INVERSE_OFF : ''}
            </Text>
          );
        })
      )}
    </Box>
  );
}
