-- Rate events: the uses the chat core's limits count (per person, per
-- tenant, feedback), shared by every replica. A key's events in its
-- sliding window are its uses; at_ns is when (unix nanoseconds, the
-- replicas' clocks), until_ns when the event leaves the window, after
-- which Prune may delete it.
CREATE TABLE rate_events (
	id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	key      text COLLATE "C" NOT NULL,
	at_ns    bigint NOT NULL,
	until_ns bigint NOT NULL
);
CREATE INDEX rate_events_key ON rate_events (key, at_ns);
