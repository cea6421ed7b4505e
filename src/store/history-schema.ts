// The price history's schema, version by version: what each release added to the file and how
// a file of an earlier one is brought forward. Kept apart from the code that opens the file, since
// the salvage of a damaged file replays these same migrations on what it can still read.

/** A table of bars: minute bars and day bars are kept alike. */
const barTable = (name: string): string => `CREATE TABLE ${name} (
     series  INTEGER NOT NULL,
     t       INTEGER NOT NULL,
     open    REAL NOT NULL,
     high    REAL NOT NULL,
     low     REAL NOT NULL,
     close   REAL NOT NULL,
     volume  INTEGER NOT NULL,
     first_t INTEGER NOT NULL,
     last_t  INTEGER NOT NULL,
     PRIMARY KEY (series, t)
   ) WITHOUT ROWID;`;

/** An alert's columns after its id, as version 3 made them (version 6 adds `band`). */
const ALERT_FIELDS = `source        INTEGER NOT NULL REFERENCES sources(id),
     symbol        TEXT NOT NULL,
     condition     TEXT NOT NULL,
     set_price     REAL,
     set_at        INTEGER NOT NULL,
     one_shot      INTEGER NOT NULL,
     paused        INTEGER NOT NULL DEFAULT 0,
     snoozed_until INTEGER,
     armed         INTEGER NOT NULL,
     done          INTEGER NOT NULL DEFAULT 0`;

/**
 * SQL that has new alerts numbered above `highest` (an SQL expression) as well as above every
 * number used so far (sqlite_sequence: AUTOINCREMENT's record of the highest given).
 */
export const alertNumbersAbove = (highest: string): string => `
   UPDATE sqlite_sequence SET seq = max(seq, ${highest}) WHERE name = 'alerts';
   INSERT INTO sqlite_sequence (name, seq)
     SELECT 'alerts', m FROM (SELECT ${highest} AS m)
     WHERE m > 0 AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'alerts');`;

/**
 * A version 5 file's firings (alert_firings_v5: alert, at, price, text) with what they did not
 * keep, as far as the file tells it, against the alerts as they are (alerts_v6). A firing's symbol
 * is the first word of its text (every firing's text starts with it). It is its alert's when the
 * alert of its number is on that symbol; then its server is the alert's, and its condition the
 * alert's when it fired after the alert was last set (an alert edited since fired for another;
 * not known). Otherwise it is a removed alert's (its number given again to a new alert on another
 * symbol, or to none): its server the only one that recorded its symbol, else the only one there
 * is, else none known (it stays in the file, in no server's log, as it was in none before); its
 * condition not known.
 */
const FIRINGS_FROM_V5 = `
   WITH named AS (
     SELECT id, alert, at, price, text,
            CASE WHEN instr(text, ' ') > 1 THEN substr(text, 1, instr(text, ' ') - 1) ELSE text END AS symbol
     FROM alert_firings_v5
   ), owned AS (
     SELECT n.*, coalesce(a.symbol = n.symbol, 0) AS mine, a.source AS alert_source, a.condition AS alert_condition, a.set_at
     FROM named n LEFT JOIN alerts_v6 a ON a.id = n.alert
   )
   INSERT INTO alert_firings (id, alert, source, symbol, condition, removed, at, price, text)
     SELECT id, alert,
            CASE WHEN mine THEN alert_source
                 ELSE coalesce((SELECT CASE WHEN count(DISTINCT s.source) = 1 THEN min(s.source) END FROM series s WHERE s.symbol = owned.symbol),
                               (SELECT CASE WHEN count(*) = 1 THEN min(id) END FROM sources)) END,
            symbol, CASE WHEN mine AND at >= set_at THEN alert_condition END, NOT mine, at, price, text
     FROM owned;`;

/** A lot's place among its symbol's lots in the order added: `lot` a row of `table`, lots without numbers. */
const lotPlace = (table: string): string =>
  `(SELECT COUNT(*) FROM ${table} AS before NOT INDEXED WHERE before.source = lot.source AND before.symbol = lot.symbol AND before.id <= lot.id)`;

/** Each symbol's last lot number at least the highest its lots have (after lots are copied in). */
export const LAST_LOT_NUMBERS = `INSERT INTO lot_numbers (source, symbol, last) SELECT source, symbol, MAX(number) FROM lots WHERE true GROUP BY source, symbol
   ON CONFLICT (source, symbol) DO UPDATE SET last = MAX(last, excluded.last);`;

/** Each entry moves the schema from version (index) to (index + 1). */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE sources (
     id  INTEGER PRIMARY KEY,
     key TEXT NOT NULL UNIQUE
   );
   CREATE TABLE series (
     id          INTEGER PRIMARY KEY,
     source      INTEGER NOT NULL REFERENCES sources(id),
     symbol      TEXT NOT NULL,
     last_volume INTEGER,
     UNIQUE (source, symbol)
   );
   CREATE TABLE ticks (
     series INTEGER NOT NULL,
     t      INTEGER NOT NULL,
     price  REAL NOT NULL,
     volume INTEGER NOT NULL,
     PRIMARY KEY (series, t)
   ) WITHOUT ROWID;
   ${barTable('minute_bars')}
   ${barTable('day_bars')}`,
  // When the last reading was taken: volume is counted only between readings close enough to
  // say where it was traded (bars.ts tradedSince). A version 1 file's series start without one.
  `ALTER TABLE series ADD COLUMN last_t INTEGER;`,
  // Alerts live beside the prices they watch, keyed by the same server; a firing is recorded in
  // the transaction that decides it, so two processes never announce one crossing twice.
  `CREATE TABLE alerts (
     id            INTEGER PRIMARY KEY,
     ${ALERT_FIELDS}
   );
   CREATE TABLE alert_firings (
     id    INTEGER PRIMARY KEY,
     alert INTEGER NOT NULL,
     at    INTEGER NOT NULL,
     price REAL,
     text  TEXT NOT NULL
   );`,
  // Holdings: the user's lots, beside the prices that value them. Quantities and costs are the
  // decimals as typed (text), so that nothing is rounded on the way in or out.
  `CREATE TABLE lots (
     id       INTEGER PRIMARY KEY,
     source   INTEGER NOT NULL REFERENCES sources(id),
     symbol   TEXT NOT NULL,
     quantity TEXT NOT NULL,
     cost     TEXT NOT NULL,
     bought   TEXT,
     added_at INTEGER NOT NULL
   );
   CREATE INDEX lots_by_symbol ON lots (source, symbol);`,
  // The contacts as last read from a contacts server, for searching the whole list at once; keyed
  // by the server and the user (a hash of the token: never the token). `seen` is the start of the
  // walk that last saw a contact: one not seen by a finished walk is gone.
  `CREATE TABLE contact_index (
     source          INTEGER NOT NULL REFERENCES sources(id),
     id              TEXT NOT NULL,
     username        TEXT NOT NULL,
     display_name    TEXT,
     phone           TEXT NOT NULL,
     avatar_url      TEXT,
     conversation_id TEXT NOT NULL,
     created_at      INTEGER NOT NULL,
     last_active_at  INTEGER,
     seen            INTEGER NOT NULL,
     PRIMARY KEY (source, id)
   ) WITHOUT ROWID;`,
  // An alert's number is never given again (AUTOINCREMENT: a plain INTEGER PRIMARY KEY gave the
  // highest's number again once it was removed, and its firings read as the new alert's), and a
  // firing keeps its server, symbol and condition on its own row, `removed` once its alert is.
  // Every number stays; the numbers used start from the highest the file knows, its alerts' and
  // its log's (one removed above both, never fired, is not known). `band`: what arms an unarmed
  // alert (market/alerts.ts), the band unless it is waiting since it was set while its condition
  // held (no firing since it was set).
  `CREATE TABLE alerts_v6 (
     id            INTEGER PRIMARY KEY AUTOINCREMENT,
     ${ALERT_FIELDS},
     band          INTEGER NOT NULL DEFAULT 1
   );
   INSERT INTO alerts_v6 (id, source, symbol, condition, set_price, set_at, one_shot, paused, snoozed_until, armed, done, band)
     SELECT id, source, symbol, condition, set_price, set_at, one_shot, paused, snoozed_until, armed, done,
            armed = 1 OR EXISTS (SELECT 1 FROM alert_firings f WHERE f.alert = a.id AND f.at >= a.set_at)
     FROM alerts a;
   ALTER TABLE alert_firings RENAME TO alert_firings_v5;
   CREATE TABLE alert_firings (
     id        INTEGER PRIMARY KEY,
     alert     INTEGER NOT NULL,
     source    INTEGER REFERENCES sources(id),
     symbol    TEXT NOT NULL,
     condition TEXT,
     removed   INTEGER NOT NULL DEFAULT 0,
     at        INTEGER NOT NULL,
     price     REAL,
     text      TEXT NOT NULL
   );
   ${FIRINGS_FROM_V5}
   DROP TABLE alert_firings_v5;
   DROP TABLE alerts;
   ALTER TABLE alerts_v6 RENAME TO alerts;
   ${alertNumbersAbove('(SELECT coalesce(max(alert), 0) FROM alert_firings)')}`,
  // A lot's number within its symbol, given once and never again (lot_numbers keeps the last
  // given), so that `holdings rm AAPL --lot 2` run twice cannot remove a second lot. The lots of a
  // version 5 file keep the numbers they were shown with: their places in the order added.
  `ALTER TABLE lots RENAME TO lots_by_place;
   DROP INDEX lots_by_symbol;
   CREATE TABLE lots (
     id       INTEGER PRIMARY KEY,
     source   INTEGER NOT NULL REFERENCES sources(id),
     symbol   TEXT NOT NULL,
     number   INTEGER NOT NULL,
     quantity TEXT NOT NULL,
     cost     TEXT NOT NULL,
     bought   TEXT,
     added_at INTEGER NOT NULL
   );
   CREATE UNIQUE INDEX lots_by_symbol ON lots (source, symbol, number);
   INSERT INTO lots (id, source, symbol, number, quantity, cost, bought, added_at)
     SELECT id, source, symbol, ${lotPlace('lots_by_place')}, quantity, cost, bought, added_at FROM lots_by_place AS lot;
   DROP TABLE lots_by_place;
   CREATE TABLE lot_numbers (
     source INTEGER NOT NULL REFERENCES sources(id),
     symbol TEXT NOT NULL,
     last   INTEGER NOT NULL,
     PRIMARY KEY (source, symbol)
   ) WITHOUT ROWID;
   ${LAST_LOT_NUMBERS}`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
