-- Leases: the replica (owner) running a pending request, until
-- lease_until_ns (unix nanoseconds); '' and 0 when free. Kept beside the
-- record, which UpdateRequest replaces, so that updates never touch them.
ALTER TABLE requests
	ADD COLUMN lease_owner text COLLATE "C" NOT NULL DEFAULT '',
	ADD COLUMN lease_until_ns bigint NOT NULL DEFAULT 0;
