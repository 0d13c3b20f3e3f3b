package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/factbot-dev/factbot/internal/keyring"
)

// Installations are the workspaces an app was installed in by OAuth, with
// their tokens sealed (internal/keyring). Layout:
//
//	installations/<platform>\x00<id>   envelope(installRecord)
//
// id is the workspace (Slack team id), or the organisation (Slack
// enterprise id) of an org-wide install. ForgetTenant deletes a tenant's
// installation on every platform.
var bInstallations = []byte("installations")

// Installation is one workspace's (or organisation's) install of the app.
// BotToken and RefreshToken are sealed at rest; the rest is stored in
// clear.
type Installation struct {
	Platform string `json:"platform"`
	// ID is the team id, or the enterprise id when Enterprise is set.
	ID string `json:"id"`
	// Enterprise marks an org-wide install, serving every workspace of
	// the organisation ID.
	Enterprise   bool      `json:"enterprise,omitempty"`
	EnterpriseID string    `json:"enterprise_id,omitempty"`
	Name         string    `json:"name,omitempty"` // the team's or organisation's name
	AppID        string    `json:"app_id,omitempty"`
	BotUserID    string    `json:"bot_user_id,omitempty"`
	Scope        string    `json:"scope,omitempty"`
	InstalledBy  string    `json:"installed_by,omitempty"`
	InstalledAt  time.Time `json:"installed_at"`

	// BotToken is the bot's access token; RefreshToken and ExpiresAt are
	// set when token rotation is on (ExpiresAt zero: it does not expire).
	BotToken     string    `json:"-"`
	RefreshToken string    `json:"-"`
	ExpiresAt    time.Time `json:"expires_at,omitzero"`
}

// installSecrets is what is sealed.
type installSecrets struct {
	BotToken     string `json:"bot_token"`
	RefreshToken string `json:"refresh_token,omitempty"`
}

type installRecord struct {
	Installation
	Secrets keyring.Sealed `json:"secrets"`
}

func installKey(platform, id string) []byte { return []byte(platform + "\x00" + id) }

// Installations reads and writes installations, sealing and opening their
// tokens with a keyring.
type Installations struct {
	db *DB
	kr *keyring.Keyring
}

// Installations returns the installations, sealed with kr. kr may be nil
// for Count alone.
func (db *DB) Installations(kr *keyring.Keyring) *Installations {
	return &Installations{db: db, kr: kr}
}

var errNoKeyring = errors.New("store: installations need an encryption key (FACTBOT_ENCRYPTION_KEY)")

// Put stores inst, replacing the install of the same platform and id.
func (s *Installations) Put(ctx context.Context, inst *Installation) error {
	if s.kr == nil {
		return errNoKeyring
	}
	if inst.Platform == "" || inst.ID == "" {
		return fmt.Errorf("store: installation: %w", ErrNoTenant)
	}
	v, err := s.sealRecord(inst)
	if err != nil {
		return err
	}
	err = s.db.update(ctx, func(tx *txn) error {
		return global(tx, bInstallations).Put(installKey(inst.Platform, inst.ID), v)
	})
	if err != nil {
		return fmt.Errorf("store: put installation %s %s: %w", inst.Platform, inst.ID, err)
	}
	return nil
}

func (s *Installations) sealRecord(inst *Installation) ([]byte, error) {
	plain, err := json.Marshal(installSecrets{BotToken: inst.BotToken, RefreshToken: inst.RefreshToken})
	if err != nil {
		return nil, err
	}
	sl, err := s.kr.Seal(plain, installKey(inst.Platform, inst.ID))
	if err != nil {
		return nil, fmt.Errorf("store: seal installation: %w", err)
	}
	return encode(installRecord{Installation: *inst, Secrets: sl})
}

func (s *Installations) openRecord(k, v []byte) (*Installation, error) {
	var rec installRecord
	if err := decode(v, &rec); err != nil {
		return nil, err
	}
	plain, err := s.kr.Open(rec.Secrets, k)
	if err != nil {
		return nil, err
	}
	var sec installSecrets
	if err := json.Unmarshal(plain, &sec); err != nil {
		return nil, err
	}
	inst := rec.Installation
	inst.BotToken, inst.RefreshToken = sec.BotToken, sec.RefreshToken
	return &inst, nil
}

// Get returns the install of platform and id, or an error wrapping
// ErrNotFound.
func (s *Installations) Get(ctx context.Context, platform, id string) (*Installation, error) {
	if s.kr == nil {
		return nil, errNoKeyring
	}
	var inst *Installation
	err := s.db.run(ctx, ModeView, func(tx *txn) error {
		k := installKey(platform, id)
		v := global(tx, bInstallations).Get(k)
		if v == nil {
			return ErrNotFound
		}
		var err error
		inst, err = s.openRecord(k, v)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: installation %s %s: %w", platform, id, err)
	}
	return inst, nil
}

// Delete removes the install of platform and id, reporting whether there
// was one.
func (s *Installations) Delete(ctx context.Context, platform, id string) (bool, error) {
	found := false
	err := s.db.update(ctx, func(tx *txn) error {
		b := global(tx, bInstallations)
		k := installKey(platform, id)
		if b.Get(k) == nil {
			return nil
		}
		found = true
		return b.Delete(k)
	})
	if err != nil {
		return false, fmt.Errorf("store: delete installation %s %s: %w", platform, id, err)
	}
	return found, nil
}

// Count returns how many installs platform has ("" counts all). It needs
// no key.
func (s *Installations) Count(ctx context.Context, platform string) (int, error) {
	n := 0
	var prefix []byte
	if platform != "" {
		prefix = installKey(platform, "")
	}
	err := s.db.run(ctx, ModeView, func(tx *txn) error {
		return global(tx, bInstallations).scan(prefix, func(_, _ []byte) error { n++; return nil })
	})
	return n, err
}

// RekeyStats says what Rekey did.
type RekeyStats struct {
	// Resealed records were sealed with another key; Current ones already
	// with the current key.
	Resealed, Current int
}

// Rekey seals every installation with the keyring's current key, in one
// transaction: a record sealed with a key the keyring does not hold fails
// it all (nothing changes).
func (s *Installations) Rekey(ctx context.Context) (RekeyStats, error) {
	var st RekeyStats
	if s.kr == nil {
		return st, errNoKeyring
	}
	err := s.db.update(ctx, func(tx *txn) error {
		st = RekeyStats{}
		b := global(tx, bInstallations)
		var stale [][]byte
		err := eachRecord(b, nil, func(k []byte, rec *installRecord) error {
			if rec.Secrets.KeyID == s.kr.CurrentID() {
				st.Current++
			} else {
				stale = append(stale, bytes.Clone(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range stale {
			inst, err := s.openRecord(k, b.Get(k))
			if err != nil {
				return fmt.Errorf("installation %q: %w", k, err)
			}
			v, err := s.sealRecord(inst)
			if err != nil {
				return err
			}
			if err := b.Put(k, v); err != nil {
				return err
			}
			st.Resealed++
		}
		return nil
	})
	if err != nil {
		return RekeyStats{}, fmt.Errorf("store: rekey installations: %w", err)
	}
	return st, nil
}

// forgetInstallations deletes tenant's installations on every platform;
// it returns how many.
func forgetInstallations(tx *txn, tenant string) (int, error) {
	return global(tx, bInstallations).deleteIf(nil, func(k, _ []byte) (bool, error) {
		_, id, ok := bytes.Cut(k, []byte{0})
		return ok && string(id) == tenant, nil
	})
}

// Unopened lists the installations (as platform:id) whose tokens the
// keyring cannot open: sealed with a key it does not hold, or damaged.
// serve reports them at start, before their workspaces' events fail.
func (s *Installations) Unopened(ctx context.Context) ([]string, error) {
	if s.kr == nil {
		return nil, errNoKeyring
	}
	var bad []string
	err := s.db.run(ctx, ModeView, func(tx *txn) error {
		return global(tx, bInstallations).ForEach(func(k, v []byte) error {
			if _, err := s.openRecord(k, v); err != nil {
				bad = append(bad, string(bytes.Replace(k, []byte{0}, []byte(":"), 1)))
			}
			return nil
		})
	})
	return bad, err
}
