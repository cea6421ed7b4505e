// One contact, every field: times both absolute and relative, the conversation id.
import { Box, Text } from 'ink';
import { contactName, type Contact } from '../../api/types.js';
import { sanitize } from '../../text/sanitize.js';
import { absoluteTime, relativeTime } from '../../text/time.js';
import { fit } from '../../text/width.js';
import { useTheme } from '../theme.js';

export function ContactDetail({ contact, width, now }: { contact: Contact; width: number; now: number }) {
  const theme = useTheme();
  const when = (date: Date | null) => (date ? `${absoluteTime(date)} (${relativeTime(date, new Date(now))})` : 'never');
  const fields: [string, string][] = [
    ['username', contact.username],
    ['display name', contact.displayName ?? '(none: the username is shown)'],
    ['phone', contact.phoneNumber],
    ['avatar', contact.avatarUrl ?? '(none)'],
    ['last active', when(contact.lastActiveAt)],
    ['created', when(contact.createdAt)],
    ['id', contact.id],
    ['conversation', contact.conversationId],
  ];
  const label = 13;
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {fit(sanitize(contactName(contact)), width)}
      </Text>
      {fields.map(([key, value]) => (
        <Text key={key} wrap="truncate-end">
          <Text {...(theme.muted && { color: theme.muted })}>{fit(key, label)}</Text>
          {fit(sanitize(value), Math.max(1, width - label))}
        </Text>
      ))}
    </Box>
  );
}
