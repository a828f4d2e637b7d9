-- Which node owns each table: one row per table ever owned. `fence` grows by one
-- at every change of owner (or when an owner comes back after its lease ran out), and every
-- append of a table's log checks it in the same transaction: an old owner that was paused
-- or cut off past its lease can never write again. Times are the database server's own
-- clock, so that the nodes' clocks need not agree.
CREATE TABLE leases (
    tbl BIGINT PRIMARY KEY REFERENCES tables(id),
    node TEXT NOT NULL,
    fence BIGINT NOT NULL,
    expires TIMESTAMPTZ NOT NULL);
