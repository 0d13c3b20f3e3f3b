-- History index entries (buckets by_user, by_channel and by_verdict, keys
-- "<value>\x00<check id>") hold their check's summary (store.Coverer), so
-- that a history page through one of them is one range scan of the
-- primary key, not a probe of the summaries per line. The entries written
-- before, empty, are filled from the summaries here.
UPDATE records i SET value = s.value
FROM records s
WHERE i.bucket IN ('by_user', 'by_channel', 'by_verdict')
	AND s.tenant = i.tenant AND s.bucket = 'sums'
	AND s.key = substring(i.key from position('\x00'::bytea in i.key) + 1);
