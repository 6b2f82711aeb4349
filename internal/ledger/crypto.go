package ledger

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// sealedPrefix marks a value sealed with the first key format. A value
// without it was stored before a key was set and reads back as it is.
const sealedPrefix = "v1:"

// MaxAccountNumber is the plain length limit (ASCII only, so characters are
// bytes): sealed it takes 3 + base64(12 + 64 + 16) = 127 characters, well
// within the 255-character column.
const MaxAccountNumber = 64

// ErrTampered is a sealed account number that does not open: the stored
// value was changed or the key is not the one it was sealed with.
var ErrTampered = errors.New("account number: sealed value does not open with the configured key")

// AccountCrypto seals wallet account numbers with AES-256-GCM, or passes them
// through as plain text when no key is configured.
type AccountCrypto struct {
	aead cipher.AEAD
}

// NewAccountCrypto returns the cipher for a 32-byte key, or the plain
// pass-through for a nil key.
func NewAccountCrypto(key []byte) (*AccountCrypto, error) {
	if key == nil {
		return &AccountCrypto{}, nil
	}
	if len(key) != 32 {
		return nil, fmt.Errorf("ACCOUNT_CRYPTO_KEY: %d bytes, want 32", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("ACCOUNT_CRYPTO_KEY: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("ACCOUNT_CRYPTO_KEY: %w", err)
	}
	return &AccountCrypto{aead: aead}, nil
}

// additionalData binds a sealed value to its member, so a value copied into
// another member's wallet does not open.
func additionalData(memberID int64) []byte {
	return []byte("wallet.account_number:" + strconv.FormatInt(memberID, 10))
}

// Seal returns the stored form of a plain account number: a fresh random
// nonce per call, so equal numbers are stored differently.
func (c *AccountCrypto) Seal(memberID int64, plain string) (string, error) {
	if c.aead == nil {
		return plain, nil
	}
	nonce := make([]byte, c.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("account number nonce: %w", err)
	}
	sealed := c.aead.Seal(nonce, nonce, []byte(plain), additionalData(memberID))
	return sealedPrefix + base64.RawStdEncoding.EncodeToString(sealed), nil
}

// Open returns the plain account number of a stored value. A value stored
// before the key existed is returned as it is; a sealed value that does not
// open is ErrTampered, never garbage.
func (c *AccountCrypto) Open(memberID int64, stored string) (string, error) {
	rest, sealed := strings.CutPrefix(stored, sealedPrefix)
	if !sealed {
		return stored, nil
	}
	if c.aead == nil {
		return "", fmt.Errorf("%w (no ACCOUNT_CRYPTO_KEY is set)", ErrTampered)
	}
	raw, err := base64.RawStdEncoding.DecodeString(rest)
	if err != nil || len(raw) < c.aead.NonceSize()+c.aead.Overhead() {
		return "", ErrTampered
	}
	n := c.aead.NonceSize()
	plain, err := c.aead.Open(nil, raw[:n], raw[n:], additionalData(memberID))
	if err != nil {
		return "", ErrTampered
	}
	return string(plain), nil
}
