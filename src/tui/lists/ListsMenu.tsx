// The watchlists menu in the ticker pane: every list with its number key and size, the one shown
// marked; a name field for a new or renamed list, with what is wrong with the name under it; the
// question before a list is deleted.
import { Box, Text } from 'ink';
import type { Watchlist } from '../../market/watchlists.js';
import { drawn } from '../../text/sanitize.js';
import { fit, width as textWidth } from '../../text/width.js';
import { LIST_COMMANDS } from '../mouse/mouse-areas.js';
import { SelectList } from '../components/SelectList.js';
import { TextField } from '../components/TextField.js';
import { useGlyphs } from '../style/glyphs.js';
import { useTheme } from '../style/theme.js';
import type { ListsMenu as MenuState } from './lists-controller.js';
import { LIST_NAME_MAX } from '../../market/watchlists.js';

export interface ListsMenuProps {
  menu: Extract<MenuState, { open: true }>;
  lists: readonly Watchlist[];
  active: number;
  width: number;
  rows: number;
}

export function ListsMenu({ menu, lists, active, width, rows }: ListsMenuProps) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  const muted = theme.muted ? { color: theme.muted } : {};
  const title = menu.purpose.kind === 'move' ? `Move ${drawn(menu.purpose.symbol)} to:` : 'Watchlists:';
  const highlighted = lists[menu.cursor];
  const row = (list: Watchlist, i: number) => {
    const key = i < 9 ? String(i + 1) : ' ';
    const mark = i === active ? glyphs.check : ' ';
    const size = `${list.symbols.length} symbol${list.symbols.length === 1 ? '' : 's'}`;
    return fit(`${key} ${mark} ${fit(drawn(list.name), Math.min(LIST_NAME_MAX, Math.max(4, width - 20)), 'left', glyphs.ellipsis)}  ${size}`, Math.max(1, width - 2), 'left', glyphs.ellipsis);
  };
  const label = menu.name?.kind === 'create' ? 'New list: ' : 'Rename to: ';
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end" {...(theme.accent && { color: theme.accent })}>
        {fit(title, width, 'left', glyphs.ellipsis)}
      </Text>
      <SelectList items={lists.map((list, i) => ({ key: list.name, label: row(list, i) }))} cursor={menu.cursor} rows={Math.max(1, rows - 3)} highlightColor={theme.accent} mouse={LIST_COMMANDS.lists} />
      {menu.name ? (
        <>
          <Box>
            <Text bold>{label}</Text>
            <TextField value={menu.name.draft.value} cursor={menu.name.draft.cursor} focus width={width - textWidth(label)} maxLength={LIST_NAME_MAX} />
          </Box>
          {menu.name.problem ? (
            <Text wrap="truncate-end" {...(theme.error && { color: theme.error })}>
              {fit(`${glyphs.cross} ${menu.name.problem}`, width, 'left', glyphs.ellipsis)}
            </Text>
          ) : null}
        </>
      ) : menu.confirmDelete && highlighted ? (
        <Text wrap="truncate-end" {...(theme.warning && { color: theme.warning })}>
          {fit(`Delete the list ${drawn(highlighted.name)} and its ${highlighted.symbols.length} symbol${highlighted.symbols.length === 1 ? '' : 's'}? y: delete${glyphs.separator}N: keep`, width, 'left', glyphs.ellipsis)}
        </Text>
      ) : (
        <Text wrap="truncate-end" {...muted}>
          {fit(glyphs.text([`${glyphs.check} shown`, `Enter ${menu.purpose.kind === 'move' ? 'moves it there' : 'shows it'}`, 'c new', 'e rename', 'd delete'].join(glyphs.separator)), width, 'left', glyphs.ellipsis)}
        </Text>
      )}
    </Box>
  );
}
