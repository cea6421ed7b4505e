// The whole-list search in the contacts pane: the query, the matches best first with the matched
// characters standing out, and how much of the list is indexed ("indexed 3,400 of ~10,000").
import { Box, Text } from 'ink';
import type { FieldText } from '../state/field-text.js';
import { type IndexProgress, SEARCH_QUERY_MAX } from './search-state.js';
import { type Contact, contactName } from '../../api/types.js';
import type { SearchHit } from '../../contacts/search.js';
import { drawn } from '../../text/sanitize.js';
import { fit, width as textWidth } from '../../text/width.js';
import { TextField } from '../components/TextField.js';
import { useGlyphs } from '../style/glyphs.js';
import { usePagerTop } from '../state/scroll.js';
import { useTheme } from '../style/theme.js';
import { type ListCommands, useMouseArea } from '../mouse/mouse-areas.js';

export interface ContactSearchViewProps {
  query: FieldText;
  cursor: number;
  hits: readonly SearchHit<Contact>[];
  progress: IndexProgress;
  /** Contacts marked (Ctrl-T here, Space in the list): a ✓ before their names. */
  marked: ReadonlyMap<string, unknown>;
  width: number;
  rows: number;
  /** What a click, a double-click and the wheel run on the matches. */
  mouse?: ListCommands | undefined;
}

const count = (n: number): string => n.toLocaleString('en-US');

/** What the index holds, in words: the walk's progress, or its failure, or its size. */
export function indexLine(progress: IndexProgress): string {
  const of = progress.expected !== undefined && progress.expected > 0 ? ` of ~${count(progress.expected)}` : '';
  if (progress.walked !== undefined) {
    return `indexed ${count(Math.max(progress.walked, progress.indexed))}${of}${progress.complete ? '' : ': searching what is indexed'}`;
  }
  if (progress.failed !== undefined) return `index of ${count(progress.indexed)} as last read (the walk failed: ${progress.failed}; r tries again)`;
  return `${count(progress.indexed)} contacts indexed`;
}

/** A cell of `width` with the characters in `ranges` standing out; text past the width is cut. */
function Cell({ text, ranges, width }: { text: string; ranges: readonly [number, number][]; width: number }) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  const shown = fit(drawn(text), width, 'left', glyphs.ellipsis);
  // drawn() keeps most text as it is; where it changed it, the highlight is left out rather than misplaced.
  if (ranges.length === 0 || drawn(text) !== text) return <Text>{shown}</Text>;
  const parts: { text: string; hit: boolean }[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start >= shown.length) break;
    if (start > at) parts.push({ text: shown.slice(at, start), hit: false });
    parts.push({ text: shown.slice(Math.max(start, at), Math.min(end, shown.length)), hit: true });
    at = Math.min(end, shown.length);
  }
  if (at < shown.length) parts.push({ text: shown.slice(at), hit: false });
  return (
    <Text>
      {parts.map((part, i) =>
        part.hit ? (
          <Text key={i} bold underline {...(theme.accent && { color: theme.accent })}>
            {part.text}
          </Text>
        ) : (
          part.text
        ),
      )}
    </Text>
  );
}

export function ContactSearchView({ query, cursor, hits, progress, marked, width, rows, mouse }: ContactSearchViewProps) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  const muted = theme.muted ? { color: theme.muted } : {};
  // The query line, then the matches, then the index's line.
  const listRows = Math.max(1, rows - 1);
  const top = usePagerTop(hits.length, cursor, listRows);
  const ref = useMouseArea(mouse && { kind: 'rows', first: 0, top, rows: listRows, cursor, count: query.value.trim() === '' ? 0 : hits.length, commands: mouse });
  // A number whole (E.164 is at most 16 characters), then the username and the name share the rest.
  const phoneWidth = Math.min(16, Math.max(4, Math.floor(width * 0.3)));
  const userWidth = Math.max(4, Math.floor((width - phoneWidth - 4) * 0.4));
  const nameWidth = Math.max(4, width - phoneWidth - userWidth - 4);
  const prompt = '/ ';
  return (
    <Box flexDirection="column">
      <Box>
        <Text {...(theme.accent && { color: theme.accent })}>{prompt}</Text>
        <TextField value={query.value} cursor={query.cursor} focus placeholder="name, username or phone (name: user: phone:)" width={width - textWidth(prompt)} maxLength={SEARCH_QUERY_MAX} />
      </Box>
      <Box ref={ref} flexDirection="column" height={listRows}>
        {query.value.trim() === '' ? (
          <Text wrap="truncate-end" {...muted}>{fit('type to search every contact; ↓/↑ choose, Enter shows it in the list', width, 'left', glyphs.ellipsis)}</Text>
        ) : hits.length === 0 ? (
          <Text wrap="truncate-end" {...muted}>{fit(`no contact matches "${drawn(query.value)}"`, width, 'left', glyphs.ellipsis)}</Text>
        ) : (
          hits.slice(top, top + listRows).map((hit, i) => {
            const here = top + i === cursor;
            const { contact } = hit;
            // The name shown is the username where there is none: its match is the name's.
            const nameRanges = hit.field === 'name' ? hit.ranges : [];
            const mark = marked.has(contact.id) ? `${glyphs.check} ` : '';
            return (
              <Text key={contact.id} wrap="truncate-end" inverse={here}>
                {mark}
                <Cell text={contactName(contact)} ranges={nameRanges} width={nameWidth - textWidth(mark)} />
                {'  '}
                <Cell text={contact.username} ranges={hit.field === 'username' ? hit.ranges : []} width={userWidth} />
                {'  '}
                <Cell text={contact.phoneNumber} ranges={hit.field === 'phone' ? hit.ranges : []} width={phoneWidth} />
              </Text>
            );
          })
        )}
      </Box>
      <Text wrap="truncate-end" {...(progress.failed !== undefined ? theme.warning && { color: theme.warning } : muted)}>
        {fit(
          glyphs.text(
            `${query.value.trim() === '' ? '' : `${count(hits.length)}${hits.length >= 200 ? '+' : ''} match${hits.length === 1 ? '' : 'es'}${glyphs.separator}`}${marked.size > 0 ? `${marked.size} marked${glyphs.separator}` : ''}${indexLine(progress)}`,
          ),
          width,
          'left',
          glyphs.ellipsis,
        )}
      </Text>
    </Box>
  );
}
