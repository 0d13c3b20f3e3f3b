--
-- PostgreSQL database dump
--

\restrict kpqAbe213hRHELegtdBZkRihjWaHx2QOyh1CLaGmxGgmqhjKRbXi9OfzDYVnqS0

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: cache; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.cache (
    tenant text NOT NULL COLLATE pg_catalog."C",
    kind text NOT NULL,
    key text NOT NULL COLLATE pg_catalog."C",
    at_ns bigint NOT NULL,
    record jsonb NOT NULL
);


--
-- Name: checks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.checks (
    tenant text NOT NULL COLLATE pg_catalog."C",
    id text NOT NULL COLLATE pg_catalog."C",
    channel text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    user_id text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    private boolean DEFAULT false NOT NULL,
    visibility text DEFAULT ''::text NOT NULL,
    verdicts text[] DEFAULT '{}'::text[] NOT NULL,
    created_ns bigint NOT NULL,
    search_text text DEFAULT ''::text NOT NULL,
    words tsvector NOT NULL,
    summary jsonb NOT NULL,
    record jsonb NOT NULL
);


--
-- Name: feedback; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.feedback (
    tenant text NOT NULL COLLATE pg_catalog."C",
    check_id text NOT NULL COLLATE pg_catalog."C",
    seq integer NOT NULL,
    user_id text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    record jsonb NOT NULL
);


--
-- Name: rate_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rate_events (
    id bigint NOT NULL,
    key text NOT NULL COLLATE pg_catalog."C",
    at_ns bigint NOT NULL,
    until_ns bigint NOT NULL
);


--
-- Name: rate_events_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.rate_events ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.rate_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: requests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.requests (
    tenant text NOT NULL COLLATE pg_catalog."C",
    key text NOT NULL COLLATE pg_catalog."C",
    state text NOT NULL,
    user_id text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    refused boolean DEFAULT false NOT NULL,
    created_ns bigint NOT NULL,
    updated_ns bigint NOT NULL,
    record jsonb NOT NULL,
    lease_owner text DEFAULT ''::text NOT NULL COLLATE pg_catalog."C",
    lease_until_ns bigint DEFAULT 0 NOT NULL
);


--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_migrations (
    version integer NOT NULL,
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: snapshots; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.snapshots (
    sha256 text NOT NULL COLLATE pg_catalog."C",
    at_ns bigint NOT NULL,
    val jsonb NOT NULL
);


--
-- Name: webcache; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webcache (
    key text NOT NULL COLLATE pg_catalog."C",
    at_ns bigint NOT NULL,
    val jsonb NOT NULL
);


--
-- Data for Name: cache; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.cache VALUES ('T1', 'verdict', 'the moon is made of rock', 1796029200000000000, '{"at": "2026-11-30T09:00:00Z", "verdict": {"end": 0, "claim": "The moon is made of rock", "model": "gemini-flash-latest", "start": 0, "usage": {"output_tokens": 0, "prompt_tokens": 0}, "sources": [{"url": "https://example.org/a", "via": "read", "cited": true, "title": "A", "sha256": "abc123", "fetched_at": "2026-11-30T09:00:00Z"}], "verdict": "supported", "evidence": [{"supports": true, "source_url": "https://example.org/a", "quote_found": true, "source_title": "A", "quote_or_summary": "a quote"}], "reasoning": "Sources agree on The moon is made of rock.", "checked_at": "2026-11-30T09:00:00Z", "confidence": "high"}}');
INSERT INTO public.cache VALUES ('T1', 'verdict', 'water boils at 50 degrees', 1796029200000000000, '{"at": "2026-11-30T09:00:00Z", "verdict": {"end": 0, "claim": "Water boils at 50 degrees", "model": "gemini-flash-latest", "start": 0, "usage": {"output_tokens": 0, "prompt_tokens": 0}, "sources": [{"url": "https://example.org/a", "via": "read", "cited": true, "title": "A", "sha256": "abc123", "fetched_at": "2026-11-30T09:00:00Z"}], "verdict": "contradicted", "evidence": [{"supports": false, "source_url": "https://example.org/a", "quote_found": true, "source_title": "A", "quote_or_summary": "a quote"}], "reasoning": "Sources agree on Water boils at 50 degrees.", "checked_at": "2026-11-30T09:00:00Z", "confidence": "high"}}');
INSERT INTO public.cache VALUES ('G9', 'verdict', 'paris is in france', 1796029200000000000, '{"at": "2026-11-30T09:00:00Z", "verdict": {"end": 0, "claim": "Paris is in France", "model": "gemini-flash-latest", "start": 0, "usage": {"output_tokens": 0, "prompt_tokens": 0}, "sources": [{"url": "https://example.org/a", "via": "read", "cited": true, "title": "A", "sha256": "abc123", "fetched_at": "2026-11-30T09:00:00Z"}], "verdict": "supported", "evidence": [{"supports": true, "source_url": "https://example.org/a", "quote_found": true, "source_title": "A", "quote_or_summary": "a quote"}], "reasoning": "Sources agree on Paris is in France.", "checked_at": "2026-11-30T09:00:00Z", "confidence": "high"}}');
INSERT INTO public.cache VALUES ('T1', 'extraction', 'the moon is made of rock', 1796029200000000000, '{"at": "2026-11-30T09:00:00Z", "extraction": {"usage": {"output_tokens": 0, "prompt_tokens": 0}, "claims": [{"end": 0, "span": "", "claim": "The moon is made of rock", "start": 0}], "not_checkable": null}}');


--
-- Data for Name: checks; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.checks VALUES ('T1', '20261130T090000Z-0001', 'C1', 'U1', false, 'public', '{supported}', 1796029200000000000, ' the moon is made of rock the moon is made of rock asked ', '''asked'' ''is'' ''made'' ''moon'' ''of'' ''rock'' ''the''', '{"id": "20261130T090000Z-0001", "text": "The moon is made of rock (asked)", "user": "U1", "claims": ["The moon is made of rock"], "channel": "C1", "verdicts": ["supported"], "created_at": "2026-11-30T09:00:00Z", "visibility": "public"}', '{"id": "20261130T090000Z-0001", "text": "The moon is made of rock (asked)", "user": "U1", "report": {"input": "The moon is made of rock", "model": "", "usage": {"output_tokens": 0, "prompt_tokens": 0}, "claims": [{"end": 0, "claim": "The moon is made of rock", "model": "gemini-flash-latest", "start": 0, "trace": [{"at": "2026-11-30T09:00:00Z", "args": "{\"query\":\"The moon is made of rock\"}", "kind": "tool", "tool": "web_search", "result_bytes": 10}], "usage": {"output_tokens": 0, "prompt_tokens": 0}, "sources": [{"url": "https://example.org/a", "via": "read", "cited": true, "title": "A", "sha256": "abc123", "fetched_at": "2026-11-30T09:00:00Z"}], "verdict": "supported", "evidence": [{"supports": true, "source_url": "https://example.org/a", "quote_found": true, "source_title": "A", "quote_or_summary": "a quote"}], "reasoning": "Sources agree on The moon is made of rock.", "checked_at": "2026-11-30T09:00:00Z", "confidence": "high"}], "checked_at": "2026-11-30T09:00:00Z", "not_checkable": null}, "tenant": "T1", "channel": "C1", "platform": "slack", "cache_refs": [{"key": "the moon is made of rock", "kind": "verdict"}], "created_at": "2026-11-30T09:00:00Z", "visibility": "public", "request_key": "req:20261130T090000Z-0001"}');
INSERT INTO public.checks VALUES ('T1', '20261130T090100Z-0002', 'C2', 'U2', false, 'private', '{contradicted}', 1796029200000000000, ' water boils at 50 degrees water boils at 50 degrees asked ', '''50'' ''asked'' ''at'' ''boils'' ''degrees'' ''water''', '{"id": "20261130T090100Z-0002", "text": "Water boils at 50 degrees (asked)", "user": "U2", "claims": ["Water boils at 50 degrees"], "channel": "C2", "verdicts": ["contradicted"], "created_at": "2026-11-30T09:00:00Z", "visibility": "private"}', '{"id": "20261130T090100Z-0002", "text": "Water boils at 50 degrees (asked)", "user": "U2", "report": {"input": "Water boils at 50 degrees", "model": "", "usage": {"output_tokens": 0, "prompt_tokens": 0}, "claims": [{"end": 0, "claim": "Water boils at 50 degrees", "model": "gemini-flash-latest", "start": 0, "trace": [{"at": "2026-11-30T09:00:00Z", "args": "{\"query\":\"Water boils at 50 degrees\"}", "kind": "tool", "tool": "web_search", "result_bytes": 10}], "usage": {"output_tokens": 0, "prompt_tokens": 0}, "sources": [{"url": "https://example.org/a", "via": "read", "cited": true, "title": "A", "sha256": "abc123", "fetched_at": "2026-11-30T09:00:00Z"}], "verdict": "contradicted", "evidence": [{"supports": false, "source_url": "https://example.org/a", "quote_found": true, "source_title": "A", "quote_or_summary": "a quote"}], "reasoning": "Sources agree on Water boils at 50 degrees.", "checked_at": "2026-11-30T09:00:00Z", "confidence": "high"}], "checked_at": "2026-11-30T09:00:00Z", "not_checkable": null}, "tenant": "T1", "channel": "C2", "platform": "slack", "cache_refs": [{"key": "water boils at 50 degrees", "kind": "verdict"}], "created_at": "2026-11-30T09:00:00Z", "visibility": "private", "request_key": "req:20261130T090100Z-0002"}');
INSERT INTO public.checks VALUES ('G9', '20261130T090200Z-0003', 'D1', 'P1', false, 'public', '{supported}', 1796029200000000000, ' paris is in france paris is in france asked ', '''asked'' ''france'' ''in'' ''is'' ''paris''', '{"id": "20261130T090200Z-0003", "text": "Paris is in France (asked)", "user": "P1", "claims": ["Paris is in France"], "channel": "D1", "verdicts": ["supported"], "created_at": "2026-11-30T09:00:00Z", "visibility": "public"}', '{"id": "20261130T090200Z-0003", "text": "Paris is in France (asked)", "user": "P1", "report": {"input": "Paris is in France", "model": "", "usage": {"output_tokens": 0, "prompt_tokens": 0}, "claims": [{"end": 0, "claim": "Paris is in France", "model": "gemini-flash-latest", "start": 0, "trace": [{"at": "2026-11-30T09:00:00Z", "args": "{\"query\":\"Paris is in France\"}", "kind": "tool", "tool": "web_search", "result_bytes": 10}], "usage": {"output_tokens": 0, "prompt_tokens": 0}, "sources": [{"url": "https://example.org/a", "via": "read", "cited": true, "title": "A", "sha256": "abc123", "fetched_at": "2026-11-30T09:00:00Z"}], "verdict": "supported", "evidence": [{"supports": true, "source_url": "https://example.org/a", "quote_found": true, "source_title": "A", "quote_or_summary": "a quote"}], "reasoning": "Sources agree on Paris is in France.", "checked_at": "2026-11-30T09:00:00Z", "confidence": "high"}], "checked_at": "2026-11-30T09:00:00Z", "not_checkable": null}, "tenant": "G9", "channel": "D1", "platform": "slack", "cache_refs": [{"key": "paris is in france", "kind": "verdict"}], "created_at": "2026-11-30T09:00:00Z", "visibility": "public", "request_key": "req:20261130T090200Z-0003"}');


--
-- Data for Name: feedback; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.feedback VALUES ('T1', '20261130T090100Z-0002', 0, 'U2', '{"at": "2026-11-30T09:00:00Z", "note": "source is old", "user": "U2", "claim": 0}');


--
-- Data for Name: rate_events; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: requests; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.requests VALUES ('T1', 'req:20261130T090000Z-0001', 'done', 'U1', false, 1796029200000000000, 1796029200000000000, '{"key": "req:20261130T090000Z-0001", "kind": "mention", "text": "The moon is made of rock (asked)", "user": "U1", "state": "done", "tenant": "T1", "channel": "C1", "check_id": "20261130T090000Z-0001", "platform": "slack", "created_at": "2026-11-30T09:00:00Z", "updated_at": "2026-11-30T09:00:00Z", "visibility": "public"}', '', 0);
INSERT INTO public.requests VALUES ('T1', 'req:20261130T090100Z-0002', 'done', 'U2', false, 1796029200000000000, 1796029200000000000, '{"key": "req:20261130T090100Z-0002", "kind": "mention", "text": "Water boils at 50 degrees (asked)", "user": "U2", "state": "done", "tenant": "T1", "channel": "C2", "check_id": "20261130T090100Z-0002", "platform": "slack", "created_at": "2026-11-30T09:00:00Z", "updated_at": "2026-11-30T09:00:00Z", "visibility": "private"}', '', 0);
INSERT INTO public.requests VALUES ('G9', 'req:20261130T090200Z-0003', 'done', 'P1', false, 1796029200000000000, 1796029200000000000, '{"key": "req:20261130T090200Z-0003", "kind": "mention", "text": "Paris is in France (asked)", "user": "P1", "state": "done", "tenant": "G9", "channel": "D1", "check_id": "20261130T090200Z-0003", "platform": "slack", "created_at": "2026-11-30T09:00:00Z", "updated_at": "2026-11-30T09:00:00Z", "visibility": "public"}', '', 0);
INSERT INTO public.requests VALUES ('T1', 'req:pending', 'pending', 'U3', false, 1796029200000000000, 1796029200000000000, '{"key": "req:pending", "kind": "command", "text": "is the sky green?", "user": "U3", "state": "pending", "tenant": "T1", "channel": "C1", "platform": "discord", "created_at": "2026-11-30T09:00:00Z", "updated_at": "2026-11-30T09:00:00Z"}', '', 0);
INSERT INTO public.requests VALUES ('T1', 'req:refused', 'failed', '', true, 1796029200000000000, 1796029200000000000, '{"key": "req:refused", "kind": "mention", "text": "", "state": "failed", "tenant": "T1", "refused": true, "platform": "slack", "created_at": "2026-11-30T09:00:00Z", "updated_at": "2026-11-30T09:00:00Z"}', '', 0);


--
-- Data for Name: schema_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.schema_migrations VALUES (1, '0001_init', '2026-12-01 19:53:31.116853+00');
INSERT INTO public.schema_migrations VALUES (2, '0002_leases', '2026-12-01 19:53:31.238774+00');
INSERT INTO public.schema_migrations VALUES (3, '0003_rate_events', '2026-12-01 19:53:31.26714+00');


--
-- Data for Name: snapshots; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.snapshots VALUES ('abc123', 1796029200000000000, '{"url": "https://example.org/a", "text": "a quote and more", "bytes": 0, "title": "A", "sha256": "abc123", "final_url": "", "fetched_at": "0001-01-01T00:00:00Z"}');


--
-- Data for Name: webcache; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.webcache VALUES ('pageshttps://example.org/a', 1796029200000000000, '{"url": "https://example.org/a", "text": "a quote and more", "bytes": 0, "title": "A", "sha256": "abc123", "final_url": "", "fetched_at": "0001-01-01T00:00:00Z"}');
INSERT INTO public.webcache VALUES ('searchmoon rock', 1796029200000000000, '{"results": [{"url": "https://example.org/a"}]}');


--
-- Name: rate_events_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.rate_events_id_seq', 1, false);


--
-- Name: cache cache_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cache
    ADD CONSTRAINT cache_pkey PRIMARY KEY (tenant, kind, key);


--
-- Name: checks checks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.checks
    ADD CONSTRAINT checks_pkey PRIMARY KEY (tenant, id);


--
-- Name: feedback feedback_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feedback
    ADD CONSTRAINT feedback_pkey PRIMARY KEY (tenant, check_id, seq);


--
-- Name: rate_events rate_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rate_events
    ADD CONSTRAINT rate_events_pkey PRIMARY KEY (id);


--
-- Name: requests requests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.requests
    ADD CONSTRAINT requests_pkey PRIMARY KEY (tenant, key);


--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);


--
-- Name: snapshots snapshots_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.snapshots
    ADD CONSTRAINT snapshots_pkey PRIMARY KEY (sha256);


--
-- Name: webcache webcache_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webcache
    ADD CONSTRAINT webcache_pkey PRIMARY KEY (key);


--
-- Name: checks_channel; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX checks_channel ON public.checks USING btree (tenant, channel, id);


--
-- Name: checks_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX checks_user ON public.checks USING btree (tenant, user_id, id);


--
-- Name: checks_verdicts; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX checks_verdicts ON public.checks USING gin (verdicts);


--
-- Name: checks_words; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX checks_words ON public.checks USING gin (words);


--
-- Name: rate_events_key; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX rate_events_key ON public.rate_events USING btree (key, at_ns);


--
-- Name: requests_pending; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX requests_pending ON public.requests USING btree (tenant, created_ns, key) WHERE (state = 'pending'::text);


--
-- Name: requests_user; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX requests_user ON public.requests USING btree (tenant, user_id);


--
-- Name: feedback feedback_tenant_check_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.feedback
    ADD CONSTRAINT feedback_tenant_check_id_fkey FOREIGN KEY (tenant, check_id) REFERENCES public.checks(tenant, id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--

\unrestrict kpqAbe213hRHELegtdBZkRihjWaHx2QOyh1CLaGmxGgmqhjKRbXi9OfzDYVnqS0

