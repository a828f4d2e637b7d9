-- The schema of baoqi's SQLite store as it stood before migrations were numbered (every
-- statement IF NOT EXISTS, so that a hall's existing file takes this migration as done).
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, settings TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY, event INTEGER NOT NULL REFERENCES events(id),
    round INTEGER NOT NULL, name TEXT NOT NULL, red TEXT NOT NULL, black TEXT NOT NULL,
    config TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    token_hash TEXT PRIMARY KEY, event INTEGER NOT NULL REFERENCES events(id),
    role TEXT NOT NULL, name TEXT NOT NULL, tables TEXT NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS log (
    tbl INTEGER NOT NULL REFERENCES tables(id), idx INTEGER NOT NULL, at INTEGER NOT NULL,
    kind TEXT NOT NULL, actor TEXT NOT NULL, command TEXT NOT NULL,
    first_seq INTEGER NOT NULL, events TEXT NOT NULL, PRIMARY KEY (tbl, idx));
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS snapshots (
    tbl INTEGER NOT NULL REFERENCES tables(id), idx INTEGER NOT NULL,
    format INTEGER NOT NULL, state TEXT NOT NULL, PRIMARY KEY (tbl, idx));
CREATE TABLE IF NOT EXISTS tournaments (
    event INTEGER PRIMARY KEY REFERENCES events(id), settings TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    event INTEGER NOT NULL REFERENCES events(id), id INTEGER NOT NULL,
    player TEXT NOT NULL, active INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (event, id));
CREATE TABLE IF NOT EXISTS pairings (
    event INTEGER NOT NULL REFERENCES events(id), round INTEGER NOT NULL,
    board INTEGER NOT NULL, red INTEGER NOT NULL, black INTEGER,
    tbl INTEGER REFERENCES tables(id), result TEXT, PRIMARY KEY (event, round, board));
CREATE TABLE IF NOT EXISTS changes (
    event INTEGER NOT NULL REFERENCES events(id), seq INTEGER NOT NULL,
    at INTEGER NOT NULL, change TEXT NOT NULL, PRIMARY KEY (event, seq));
