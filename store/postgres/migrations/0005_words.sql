-- Word search in history by PostgreSQL (store.WordIndexer): a record's
-- words as a tsvector (the store's own words, as they are), under a GIN
-- index. The search texts (bucket 'text', the record a check's words) of
-- migration 4's databases are indexed here, and the store's own index of
-- them (bucket 'words'), which this one replaces, is deleted.
ALTER TABLE records ADD COLUMN words tsvector;
UPDATE records SET words = array_to_tsvector(ARRAY(
	SELECT DISTINCT CASE WHEN octet_length(w) <= 64 THEN w
		ELSE (SELECT left(w, n) FROM generate_series(64, 1, -1) n WHERE octet_length(left(w, n)) <= 64 LIMIT 1) END
	FROM unnest(string_to_array(convert_from(value, 'UTF8'), ' ')) w WHERE w <> ''))
WHERE bucket = 'text';
DELETE FROM records WHERE bucket = 'words';
CREATE INDEX records_words ON records USING gin (words) WHERE words IS NOT NULL;
