-- The games' recordings (附表七 第六部分 advises one for every game), kept in the database so
-- that every node of a federation plays back what any node received: one row per upload,
-- numbered within its table, and its audio in chunks (a range is read without the whole
-- file). A WAV does not compress: its chunks are stored as they are.
CREATE TABLE recordings (
    tbl BIGINT NOT NULL REFERENCES tables(id), n BIGINT NOT NULL, side TEXT NOT NULL,
    role TEXT NOT NULL, game TEXT NOT NULL, event_log_offset_ms BIGINT NOT NULL,
    started_unix_ms BIGINT NOT NULL, sample_rate BIGINT NOT NULL, channels BIGINT NOT NULL,
    duration_ms BIGINT NOT NULL, bytes BIGINT NOT NULL, received_unix_ms BIGINT NOT NULL,
    PRIMARY KEY (tbl, n));
CREATE TABLE recording_chunks (
    tbl BIGINT NOT NULL, n BIGINT NOT NULL, k BIGINT NOT NULL, data BYTEA NOT NULL,
    PRIMARY KEY (tbl, n, k), FOREIGN KEY (tbl, n) REFERENCES recordings(tbl, n));
ALTER TABLE recording_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
