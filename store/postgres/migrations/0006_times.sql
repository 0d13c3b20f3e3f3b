-- Records deleted by their time (store.Expirer): at_ns is a record's time
-- in unix nanoseconds (a cached verdict's or extraction's, which Prune
-- compares with its cutoff), set by the store; NULL until it is set, and
-- again when the record is written.
ALTER TABLE records ADD COLUMN at_ns bigint;
CREATE INDEX records_at ON records (tenant, bucket, at_ns) WHERE at_ns IS NOT NULL;
