-- The first schema of factbot's PostgreSQL store. Every table is keyed by
-- tenant first; text that is compared or ordered uses the "C" collation,
-- so the order is bytewise, as in the bbolt store. Records are JSONB (see
-- package postgres for how a NUL character is kept); the other columns are
-- what queries filter and order on.

CREATE TABLE requests (
	tenant     text COLLATE "C" NOT NULL,
	key        text COLLATE "C" NOT NULL,
	state      text NOT NULL,
	user_id    text COLLATE "C" NOT NULL DEFAULT '',
	refused    boolean NOT NULL DEFAULT false,
	created_ns bigint NOT NULL, -- unix nanoseconds: the pending order
	updated_ns bigint NOT NULL,
	record     jsonb NOT NULL,
	PRIMARY KEY (tenant, key)
);
CREATE INDEX requests_pending ON requests (tenant, created_ns, key) WHERE state = 'pending';
CREATE INDEX requests_user ON requests (tenant, user_id);

CREATE TABLE checks (
	tenant      text COLLATE "C" NOT NULL,
	id          text COLLATE "C" NOT NULL,
	channel     text COLLATE "C" NOT NULL DEFAULT '',
	user_id     text COLLATE "C" NOT NULL DEFAULT '',
	private     boolean NOT NULL DEFAULT false,
	visibility  text NOT NULL DEFAULT '',
	verdicts    text[] NOT NULL DEFAULT '{}',
	created_ns  bigint NOT NULL,
	search_text text NOT NULL DEFAULT '', -- " normalised claims + input "
	words       tsvector NOT NULL,        -- the distinct words of search_text
	summary     jsonb NOT NULL,           -- the history line
	record      jsonb NOT NULL,
	PRIMARY KEY (tenant, id)
);
CREATE INDEX checks_user ON checks (tenant, user_id, id);
CREATE INDEX checks_channel ON checks (tenant, channel, id);
CREATE INDEX checks_verdicts ON checks USING gin (verdicts);
CREATE INDEX checks_words ON checks USING gin (words);

CREATE TABLE feedback (
	tenant   text COLLATE "C" NOT NULL,
	check_id text COLLATE "C" NOT NULL,
	seq      integer NOT NULL,
	user_id  text COLLATE "C" NOT NULL DEFAULT '',
	record   jsonb NOT NULL,
	PRIMARY KEY (tenant, check_id, seq),
	FOREIGN KEY (tenant, check_id) REFERENCES checks (tenant, id) ON DELETE CASCADE
);

-- The verdict and extraction caches: kind is 'verdict' or 'extraction',
-- key the normalised claim or text (as store.CacheRef names it).
CREATE TABLE cache (
	tenant text COLLATE "C" NOT NULL,
	kind   text NOT NULL,
	key    text COLLATE "C" NOT NULL,
	at_ns  bigint NOT NULL,
	record jsonb NOT NULL,
	PRIMARY KEY (tenant, kind, key)
);

-- What factbot retrieved from the public web, shared by every tenant:
-- search answers and pages (key "<bucket>\x00<key>", stored escaped), and
-- page snapshots by content hash.
CREATE TABLE webcache (
	key    text COLLATE "C" PRIMARY KEY,
	at_ns  bigint NOT NULL,
	val    jsonb NOT NULL
);
CREATE TABLE snapshots (
	sha256 text COLLATE "C" PRIMARY KEY,
	at_ns  bigint NOT NULL,
	val    jsonb NOT NULL
);
