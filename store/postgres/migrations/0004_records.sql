-- The store runs over a key-value driver: every record is a row of one
-- table, keyed by tenant ('' for the global buckets), bucket and key, in
-- bytewise order (bytea: a tenant or key may hold any byte, NUL too). The tables of migrations 1 to 3 are read into it
-- when a store first opens the database (see legacy.go), then dropped.
CREATE TABLE records (
	tenant bytea NOT NULL,
	bucket text COLLATE "C" NOT NULL,
	key    bytea NOT NULL,
	value  bytea NOT NULL,
	PRIMARY KEY (tenant, bucket, key)
);
