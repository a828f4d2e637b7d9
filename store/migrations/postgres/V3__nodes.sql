-- The nodes of a federation: each `baoqi serve --node` records here that it is
-- alive at every renewal of its leases, so that the others share new tables with it. The
-- leases remember when their holder last renewed them: a table taken over from a node that
-- died is paused at that instant, the last one at which its clocks are known to have run.
CREATE TABLE nodes (
    name TEXT PRIMARY KEY,
    seen TIMESTAMPTZ NOT NULL);
ALTER TABLE leases ADD COLUMN renewed TIMESTAMPTZ NOT NULL DEFAULT now();
