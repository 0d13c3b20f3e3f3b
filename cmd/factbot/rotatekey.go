package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/factbot-dev/factbot/internal/keyring"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
)

func runRotateKey(ctx context.Context, a *app, args []string) error {
	if err := parseNoArgs(a, "rotate-key", "Usage: factbot rotate-key\n\nRe-encrypts every stored installation (the tokens of the Slack workspaces\ninstalled by OAuth) with FACTBOT_ENCRYPTION_KEY, opening those sealed with\nthe previous key with FACTBOT_ENCRYPTION_KEY_OLD. All or nothing: a record\nsealed with a key neither holds fails it. Stop factbot serve first; start it\nagain with the new key (it also reads FACTBOT_ENCRYPTION_KEY_OLD until you\nunset it).", args); err != nil {
		return err
	}
	cfg, err := a.config()
	if err != nil {
		return err
	}
	if cfg.EncryptionKey == nil {
		return &usererr.Config{Var: "FACTBOT_ENCRYPTION_KEY", Msg: "not set", Hint: "the new key: openssl rand -hex 32; the one it replaces in FACTBOT_ENCRYPTION_KEY_OLD"}
	}
	var old [][]byte
	if cfg.EncryptionKeyOld != nil {
		old = append(old, cfg.EncryptionKeyOld)
	}
	kr, err := keyring.New(cfg.EncryptionKey, old...)
	if err != nil {
		return err
	}
	db, err := openExistingStore(ctx, a, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	st, err := db.Installations(kr).Rekey(ctx)
	if errors.Is(err, keyring.ErrNoKey) {
		return &usererr.Config{Var: "FACTBOT_ENCRYPTION_KEY_OLD", Msg: err.Error(), Hint: "set it to the key the installations were stored with; nothing was changed", Err: err}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "Re-encrypted %d installations with key %s; %d already were.\n", st.Resealed, kr.CurrentID(), st.Current)
	if isPostgres(cfg) {
		// PostgreSQL keeps an updated row's old version until its vacuum
		// reclaims it (VACUUM FULL rewrites the table at once); there is
		// no file here to compact.
		return nil
	}
	// The old records linger in the bbolt file's free pages until
	// rewritten: compact the file so that no ciphertext of the old key
	// remains.
	if err := db.Close(); err != nil {
		return err
	}
	before, after, err := store.CompactFile(cfg.DB)
	if err = namedHolder(err, cfg.DB); err != nil {
		return fmt.Errorf("the installations are re-encrypted, but the file could not be compacted, so the old key's ciphertext may remain in its free pages; run factbot rotate-key again: %w", err)
	}
	fmt.Fprintf(a.stdout, "Compacted %s (%d → %d bytes): no record sealed with the old key remains in it.\n", cfg.DB, before, after)
	return nil
}
